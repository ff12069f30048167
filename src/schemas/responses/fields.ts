/** Field shapes that several response records share: names per language, coordinates, envelopes. */
import { z } from 'zod';
import type { SourceIdName } from '../../../core/elasticsearch/documents.js';

/** Language code -> name. */
export const LocalisedNames = z.record(z.string(), z.string());
/** Present only where the street or the city has names in several languages (Brussels). */
export const AddressNames = z
  .object({ streetname: LocalisedNames.optional(), city: LocalisedNames.optional() })
  .optional()
  .describe("The street's and the city's names per language, where there is more than one");

/** Present only where an official source named the address (BAG, BeST Address, OpenAddresses, OpenStreetMap). */
const sourceIdShape = {
  bag_nummeraanduiding: z.string().optional().describe('BAG nummeraanduiding (the address), 16 digits'),
  bag_verblijfsobject: z.string().optional().describe('BAG verblijfsobject the address belongs to'),
  bag_standplaats: z.string().optional().describe('BAG standplaats the address belongs to'),
  bag_ligplaats: z.string().optional().describe('BAG ligplaats the address belongs to'),
  bag_pand: z.string().optional().describe('BAG pand (building) the verblijfsobject lies in'),
  best_address: z.string().optional().describe('BeST Address address_id'),
  openaddresses_id: z.string().optional().describe("OpenAddresses' ID"),
  openaddresses_hash: z.string().optional().describe("OpenAddresses' HASH"),
  osm: z.string().optional().describe('The OpenStreetMap object carrying the address: node/N, way/N or relation/N'),
} satisfies Record<SourceIdName, z.ZodOptional<z.ZodString>>;
export const SourceIds = z
  .object(sourceIdShape)
  .optional()
  .describe("The source's own identifiers of the address, where an official source was loaded");

/** Present only where the area has several names (a Belgian municipality: nl, fr, de). */
export const AreaNames = LocalisedNames.optional().describe('The name per language, where there is more than one');

/** A record's point, spread into its object. */
export const Coordinates = { longitude: z.number(), latitude: z.number() };

/** A GeoJSON position as a feature's `properties` carry it. */
export const LonLat = z.array(z.number()).length(2).describe('[longitude, latitude]');
/** [minLon, minLat, maxLon, maxLat] */
export const Bbox = z.tuple([z.number(), z.number(), z.number(), z.number()]);
