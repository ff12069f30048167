/**
 * How request inputs are rendered, where zod's own JSON Schema would mislead a client or its tools (zod-openapi's
 * `override`, applied to every schema node):
 * - Query parameters arrive as strings; the request schemas read numbers from them with a decimal pattern piped
 *   into a number schema (src/schemas/requests.ts). The input side of such a pipe renders as "a string matching a
 *   pattern": document the number it must be instead (its range, integer or not, its default).
 * - A pattern with Unicode property escapes (`[\p{L}\p{N}]`: a letter or digit in any script) means that only under
 *   the regex `u` flag; Swagger UI checks patterns without it and refuses every value. Such patterns are left out;
 *   the schema's description says the rule in words.
 */
import { z } from 'zod';
import type { CreateDocumentOptions } from 'zod-openapi';

export const renderRequestInputs: CreateDocumentOptions['override'] = ({ jsonSchema, zodSchema, io }) => {
  if (io !== 'input') return;
  if (typeof jsonSchema.pattern === 'string' && /\\[pP]\{/.test(jsonSchema.pattern)) delete jsonSchema.pattern;
  const def = zodSchema._zod.def as { type: string; out?: z.ZodType; innerType?: z.ZodType; defaultValue?: unknown };
  const number = numberAtEndOf(zodSchema as unknown as z.ZodType);
  if (!number) return;
  if (def.type === 'pipe') {
    const { $schema: _, ...range } = z.toJSONSchema(number) as Record<string, unknown>;
    delete jsonSchema.pattern;
    Object.assign(jsonSchema, range);
  } else if (def.type === 'default') {
    jsonSchema.default = def.defaultValue;
  }
};

/** The number schema a string-to-number pipe ends in (through `.default()` / `.optional()`), if it is one. */
function numberAtEndOf(schema: z.ZodType): z.ZodType | undefined {
  const def = schema._zod.def as { type: string; out?: z.ZodType; innerType?: z.ZodType };
  if (def.type === 'default' || def.type === 'optional') return def.innerType && numberAtEndOf(def.innerType);
  if (def.type !== 'pipe' || !def.out) return undefined;
  const outType = (def.out._zod.def as { type: string }).type;
  return outType === 'number' ? def.out : outType === 'pipe' ? numberAtEndOf(def.out) : undefined;
}
