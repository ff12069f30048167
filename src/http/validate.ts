import type { z } from 'zod';
import { invalidRequest } from './errors.js';

export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'body' | 'query' | 'path',
): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw invalidRequest(result.error, where);
  return result.data;
}
