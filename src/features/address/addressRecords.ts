/** The address records of the JSON endpoints, built from documents by the response schemas' field lists. */
import type { Feature, Point } from 'geojson';
import type { AddressDoc, GeoPoint } from '../../../core/elasticsearch/documents.js';
import { pointOf } from '../../geojson/features.js';
import { Address, ForwardResult, LookupResult } from '../../schemas/responses.js';
import type { MatchGrade } from './matchQuality.js';
import { picker } from '../../schemas/pick.js';

const coordinates = {
  longitude: (doc: { location: GeoPoint }) => doc.location.lon,
  latitude: (doc: { location: GeoPoint }) => doc.location.lat,
};

/** GET /addresses/{id}, GET /buildings/{id}/addresses. */
export const addressRecord = picker<typeof Address, Partial<AddressDoc>>(Address);

/** POST /lookup/street. */
export const lookupRecord = picker<typeof LookupResult, Pick<AddressDoc, 'location'>>(LookupResult, coordinates);

const forwardFields = picker<typeof ForwardResult, Pick<AddressDoc, 'location'> & MatchGrade>(
  ForwardResult,
  coordinates,
);

/** POST /geocode/forward: the address and how well it matches the query. */
export function forwardRecord(answer: MatchGrade & { doc: Pick<AddressDoc, 'location'> }) {
  return forwardFields({ ...answer.doc, confidence: answer.confidence, match: answer.match });
}

/** GET /addresses/{id}/geojson: the address record as the properties of its Point. */
export function addressFeature(doc: AddressDoc): Feature<Point> {
  return {
    type: 'Feature',
    id: doc.id,
    geometry: pointOf(doc.location),
    properties: { ...addressRecord(doc), longitude: doc.location.lon, latitude: doc.location.lat },
  };
}
