/**
 * Stable identifiers: UUID v5 over `<level>:<source key>`, so the same data always gets the same ids
 * and clients' stored ids survive a reindex. Changing the namespace would change every id: never do it.
 */
import { v5 as uuidv5 } from 'uuid';
import type { LevelName } from './levels.js';

export const ID_NAMESPACE = '4f7d5c1e-2b8a-5e39-9c61-0d3a8e2f7b14';

export function sourceKey(level: LevelName, key: string): string {
  return `${level}:${key}`;
}

export function stableId(level: LevelName, key: string): string {
  return uuidv5(sourceKey(level, key), ID_NAMESPACE);
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

/** A street of the streets index: one per street key and city key (not a dataset level, so its own scheme). */
export function streetSourceKey(streetKey: string, cityKey: string): string {
  return `streets:${streetKey}|${cityKey}`;
}

export function streetId(streetKey: string, cityKey: string): string {
  return uuidv5(streetSourceKey(streetKey, cityKey), ID_NAMESPACE);
}

/** A postcode place: readable, and per country (a 4-digit area such as 1050 exists in NL and BE). */
export function postcodePlaceId(country: string, postcode: string): string {
  return `postcode:${country || 'XX'}:${postcode}`;
}
