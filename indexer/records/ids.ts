/**
 * Stable identifiers: UUID v5 over `<level>:<source key>`, so the same data always gets the same ids
 * and clients' stored ids survive a reindex. The UUID itself and the ids the service derives too (a street's, a
 * postcode place's) are in core/elasticsearch/stableIds.ts.
 */
import type { LevelName } from '../base/levels.js';
import { uuidv5 } from '../../core/elasticsearch/stableIds.js';

export {
  ID_NAMESPACE,
  postcodePlaceId,
  streetId,
  streetSourceKey,
  uuidv5,
} from '../../core/elasticsearch/stableIds.js';

export function sourceKey(level: LevelName, key: string): string {
  return `${level}:${key}`;
}

export function stableId(level: LevelName, key: string): string {
  return uuidv5(sourceKey(level, key));
}

export interface AddressKeyParts {
  streetKey: string;
  number: string;
  suffixKey: string;
  postcodeKey: string;
  cityKey: string;
}

/**
 * An address is identified by its normalised full address, not by the source row: OSM repeats an
 * address on every shop in a building, and the same _id makes Elasticsearch keep one of them
 * without the indexer having to remember what it has seen.
 */
export function addressKey(p: AddressKeyParts): string {
  return [p.streetKey, p.number, p.suffixKey, p.postcodeKey, p.cityKey].join('|');
}

/** A city derived from address city names: one per normalised name within its parent area. */
export function derivedCityKey(nameKey: string, parentSourceKey: string): string {
  return `${nameKey}@${parentSourceKey}`;
}
