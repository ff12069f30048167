/**
 * Which sources' data a dialect's place shows (pure): its own level's (an address, street or postcode: the
 * addresses'), then the larger areas it names (suburb, city, municipality, province, country), all in the place's
 * country. The live generation's table (src/indexes/attribution.ts) turns them into the credits an answer names.
 */
import type { AttributedLevel } from '../../../core/elasticsearch/attribution.js';
import type { SourceUse } from '../../indexes/attribution.js';
import type { DialectPlace, PlaceKind } from './place.js';

const OWN_LEVEL: Record<PlaceKind, AttributedLevel> = {
  address: 'addresses',
  street: 'addresses',
  postcode: 'addresses',
  suburb: 'suburbs',
  city: 'cities',
  municipality: 'municipalities',
  province: 'provinces',
  country: 'countries',
};

export function sourcesOf(p: DialectPlace): SourceUse[] {
  const country = p.countryCode;
  const uses: SourceUse[] = [{ level: OWN_LEVEL[p.kind], country }];
  const named: [string, AttributedLevel][] = [
    [p.suburb, 'suburbs'],
    [p.city, 'cities'],
    [p.municipality, 'municipalities'],
    [p.province, 'provinces'],
    [p.country, 'countries'],
  ];
  for (const [name, level] of named) if (name) uses.push({ level, country });
  return uses;
}

/** Every place's, in order: an answer's sources. */
export const sourcesOfAll = (places: readonly DialectPlace[]): SourceUse[] => places.flatMap(sourcesOf);
