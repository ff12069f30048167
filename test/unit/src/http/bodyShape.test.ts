import { describe, expect, it } from 'vitest';
import { bodyShapeProblem, MAX_BODY_DEPTH } from '../../../../src/http/bodyShape.js';

const nested = (levels: number, inner: unknown = 1): unknown => {
  let value = inner;
  for (let i = 0; i < levels; i++) value = i % 2 ? { a: value } : [value];
  return value;
};

describe('bodyShapeProblem', () => {
  it('takes bodies up to MAX_BODY_DEPTH levels and refuses deeper ones', () => {
    expect(bodyShapeProblem(nested(MAX_BODY_DEPTH), false)).toBeUndefined();
    expect(bodyShapeProblem(nested(MAX_BODY_DEPTH + 1), false)).toBe('too_deep');
    expect(bodyShapeProblem({ items: [{ streetname: 'x', number: '1' }] }, true)).toBeUndefined();
  });

  it('walks 100,000 levels without running out of stack', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
    expect(bodyShapeProblem(deep, true)).toBe('too_deep');
  });

  it('finds an own __proto__ key at any depth (only when asked to look)', () => {
    const poisoned = nested(10, JSON.parse('{"__proto__":{"admin":true}}'));
    expect(bodyShapeProblem(poisoned, true)).toBe('proto_key');
    expect(bodyShapeProblem(poisoned, false)).toBeUndefined();
  });
});
