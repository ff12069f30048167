import { z } from 'zod';

const text = (max: number) => z.string().trim().max(max);

/** Body of POST /lookup/street and POST /geocode/forward. */
export const StreetQueryBody = z
  .object({
    streetname: text(200).optional().describe('Street name in any case, with or without diacritics or abbreviations'),
    number: z
      .union([text(20).min(1), z.number().int().positive().max(99999)])
      .transform(String)
      .describe('House number, optionally with suffix: "12", "12a", "12 A", "139A-1", "1-II"'),
    suffix: text(20).optional().describe('House number suffix (letter and/or addition), narrows the result'),
    postcode: text(10).optional().describe('Postcode, with or without space: "2628 CD", "2628cd"'),
    city: text(100).optional().describe('City name, narrows the result'),
    lat: z.number().min(-90).max(90).optional().describe('Focus point: ranks equal candidates by distance'),
    lon: z.number().min(-180).max(180).optional(),
  })
  .strict()
  .refine((b) => Boolean(b.streetname) || Boolean(b.postcode), {
    message: 'streetname is required (or postcode, to look up by postcode and number)',
    path: ['streetname'],
  })
  .refine((b) => (b.lat === undefined) === (b.lon === undefined), {
    message: 'lat and lon go together',
    path: ['lat'],
  });
export type StreetQueryBody = z.infer<typeof StreetQueryBody>;

export const IdParam = z.object({ id: z.string().min(1).max(128) });

export const NameFilterQuery = z.object({
  name: text(100).optional(),
  geometry: z.enum(['shape', 'centroid']).default('shape'),
});

export const CountryFilterQuery = NameFilterQuery.extend({
  country_code: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2,3}$/, 'ISO 3166-1 alpha-2 or alpha-3 code')
    .optional(),
});

export const GeometryQuery = z.object({ geometry: z.enum(['shape', 'centroid']).default('shape') });
