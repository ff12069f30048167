/** Field shapes that several response records share: names per language, coordinates, envelopes. */
import { z } from 'zod';

/** Language code -> name. */
export const LocalisedNames = z.record(z.string(), z.string());
/** Present only where the street or the city has names in several languages (Brussels). */
export const AddressNames = z
  .object({ streetname: LocalisedNames.optional(), city: LocalisedNames.optional() })
  .optional()
  .describe("The street's and the city's names per language, where there is more than one");

/** Present only where the area has several names (a Belgian municipality: nl, fr, de). */
export const AreaNames = LocalisedNames.optional().describe('The name per language, where there is more than one');

/** A record's point, spread into its object. */
export const Coordinates = { longitude: z.number(), latitude: z.number() };

/** A GeoJSON position as a feature's `properties` carry it. */
export const LonLat = z.array(z.number()).length(2).describe('[longitude, latitude]');
/** [minLon, minLat, maxLon, maxLat] */
export const Bbox = z.tuple([z.number(), z.number(), z.number(), z.number()]);
