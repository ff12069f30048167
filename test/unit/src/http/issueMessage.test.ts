import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueMessage } from '../../../../src/http/issueMessage.js';

const schema = z.strictObject({
  name: z.string(),
  number: z.union([z.string().min(1), z.number().int()]),
  format: z.enum(['json', 'geojson']),
  size: z.number().optional(),
});

const messages = (value: unknown) =>
  Object.fromEntries(
    schema
      .safeParse(value, { reportInput: true })
      .error!.issues.map((issue) => [issue.path.join('.'), issueMessage(issue)]),
  );

describe('issueMessage', () => {
  it('says a missing field is required and what it expects, whatever the kind of schema', () => {
    expect(messages({})).toEqual({
      name: 'Required (expected string)',
      number: 'Required (expected string or number)',
      format: 'Required (expected one of "json", "geojson")',
    });
  });

  it("keeps zod's words for a field that is there but wrong, and says what a union takes", () => {
    const wrong = messages({ name: 1, number: [], format: 'xml', size: 'big' });
    expect(wrong.name).toBe('Invalid input: expected string, received number');
    expect(wrong.number).toBe('Invalid input: expected string or number');
    expect(wrong.format).toMatch(/^Invalid option/);
    expect(wrong.size).not.toMatch(/^Required/);
    // null is a value, not an absent field.
    expect(messages({ name: null, number: '1', format: 'json' }).name).not.toMatch(/^Required/);
  });
});
