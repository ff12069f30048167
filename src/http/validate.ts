import type { z } from 'zod';
import { ApiError, invalidRequest } from './errors.js';

/**
 * `at`: where inside `where` the value sits (a batch item: ['items', 3]). The issues keep their input
 * (`reportInput`) so the 400 can tell an absent field from a wrong one; the input itself is never sent back.
 */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'body' | 'query' | 'path',
  at: readonly (string | number)[] = [],
): z.infer<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw invalidRequest(result.error, where, at);
  return result.data;
}

/** Query parameters: each at most once (`name=a&name=b` has no single meaning), then the schema. */
export function parseQuery<S extends z.ZodType>(schema: S, query: Record<string, string | string[] | undefined>) {
  const repeated = Object.keys(query).filter((key) => Array.isArray(query[key]));
  if (repeated.length > 0) {
    const details = repeated.map((key) => ({ path: `query.${key}`, message: 'parameter given more than once' }));
    throw new ApiError(400, 'invalid_request', 'Invalid request query', details);
  }
  return parseWith(schema, query, 'query');
}
