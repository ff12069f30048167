import type { z } from 'zod';

/**
 * A function that copies from a document exactly the fields a response schema lists, in the schema's order,
 * so each record's field list is written once (in src/schemas/responses/). `computed` supplies the fields
 * that are not stored under their own name (longitude and latitude from `location`).
 */
export function picker<S extends z.ZodObject, D extends object>(
  schema: S,
  computed: Partial<Record<keyof z.infer<S>, (doc: D) => unknown>> = {},
): (doc: D) => z.infer<S> {
  const fields = Object.keys(schema.shape).map((key) => {
    const compute = (computed as Record<string, ((doc: D) => unknown) | undefined>)[key];
    return [key, compute ?? ((doc: D) => (doc as Record<string, unknown>)[key])] as const;
  });
  return (doc) => {
    const out: Record<string, unknown> = {};
    for (const [key, read] of fields) out[key] = read(doc);
    return out as z.infer<S>;
  };
}
