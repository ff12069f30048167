/** The list records of the hierarchy endpoints, built from area documents by the response schemas' field lists. */
import type { AreaDoc } from '../../../core/elasticsearch/documents.js';
import { City, Country, Municipality, Province } from '../../schemas/responses.js';
import { picker } from '../../schemas/pick.js';

export const countryRecord = picker<typeof Country, AreaDoc>(Country);
export const provinceRecord = picker<typeof Province, AreaDoc>(Province);
export const municipalityRecord = picker<typeof Municipality, AreaDoc>(Municipality);
export const cityRecord = picker<typeof City, AreaDoc>(City);
