/** GET /reverse: the nearest addresses and the areas that contain the point. */
import { z } from 'zod';
import { PARENT_LEVELS, type ParentLevel } from '../../../core/elasticsearch/documents.js';
import { Address } from './addresses.js';
import { AreaNames, Coordinates } from './fields.js';

/** GET /reverse: the nearest addresses with their distance, and the areas whose polygons contain the point. */
export const ReverseAddress = Address.extend({
  ...Coordinates,
  distance_m: z.number().min(0),
  street_id: z
    .string()
    .describe("The id of the address's street in its city: the id GET /search and /autocomplete give that street"),
});
export const AreaRef = z.object({ id: z.string(), name: z.string(), local_identifier: z.string(), names: AreaNames });
export const ReverseResponse = z.object({
  addresses: z.array(ReverseAddress),
  // One key per level, largest first (the levels are declared once, in core/elasticsearch/documents.ts).
  areas: z.object(
    Object.fromEntries(PARENT_LEVELS.map((level) => [level, AreaRef.nullable()])) as Record<
      ParentLevel,
      z.ZodNullable<typeof AreaRef>
    >,
  ),
});
