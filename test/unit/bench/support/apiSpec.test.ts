import { describe, expect, it } from 'vitest';
import { parseApiSpec } from '../../../../bench/support/apiSpec.js';

describe('--api specs of the comparison benches', () => {
  it('reads a label, a checkout and its modes', () => {
    expect(parseApiSpec('now=.')).toEqual({ label: 'now', dir: '.', modes: [] });
    expect(parseApiSpec('main=/tmp/base')).toEqual({ label: 'main', dir: '/tmp/base', modes: [] });
    expect(parseApiSpec('semi=.:dist:--max-semi-space-size=32')).toEqual({
      label: 'semi',
      dir: '.',
      modes: ['dist', '--max-semi-space-size=32'],
    });
  });

  it('takes a spec without a label as both label and checkout', () => {
    expect(parseApiSpec('/tmp/base')).toEqual({ label: '/tmp/base', dir: '/tmp/base', modes: [] });
  });
});
