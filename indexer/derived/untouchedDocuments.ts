/**
 * Which streets and places an `update` knows to be as the live generation holds them without building their digests
 * (indexer/update/): those no address change reached. A street (streetDocuments.ts) and its place are made from its
 * own addresses, in their order; a postcode place from the addresses of its postcode; both also show the names of
 * their ancestors and the city their derived-city group was folded into. So a street or postcode place is untouched
 * when no address row of it was read the full way (added or changed) or went (removed or changed in the live
 * generation), its city is no derived city whose fold changed, and no ancestor is a derived city whose names changed.
 * The boundaries themselves are as the live run's: rows are replayed only under the same boundary files.
 * Everything else (areas' places: their address counts) is built and compared as before. Pure.
 */
import type { AddressDoc, ParentIds, PlaceDoc, StreetDoc } from '../../core/elasticsearch/documents.js';
import { postcodeForms } from './placeAccumulator.js';

/** What of an area its places show: its name and names per language, as one comparable string. */
export function areaNamesKey(area: { name: string; names?: Record<string, string> | undefined }): string {
  return JSON.stringify([area.name, area.names ?? null]);
}

type Touched = Pick<AddressDoc, 'street_key' | 'city_key' | 'postcode_key'>;

export class UntouchedDocuments {
  /** street_key -> the city_keys of its streets an address change reached. */
  private readonly streets = new Map<string, Set<string>>();
  /** Postcode places (display forms: 2628CD, 2628) an address change reached. */
  private readonly postcodes = new Set<string>();
  /** Cities whose addresses' parents may differ from the live generation's: refolded groups and where they went. */
  private readonly refolded = new Set<string>();
  /** Derived cities whose names differ from the live generation's, or that it lacks. */
  private readonly renamed = new Set<string>();
  /** The streets found untouched (street()): their places are, where no ancestor was renamed. */
  private readonly untouchedStreets = new Set<string>();

  /** An address row read the full way, or a live one the snapshot changed or lost. */
  touch(address: Touched): void {
    let cities = this.streets.get(address.street_key);
    if (!cities) {
      cities = new Set();
      this.streets.set(address.street_key, cities);
    }
    cities.add(address.city_key);
    for (const form of postcodeForms(address.postcode_key)) this.postcodes.add(form);
  }

  /** Derived-city groups folded otherwise than in the live generation, each with the parents its addresses now carry. */
  refold(groups: Iterable<[string, ParentIds | undefined]>): void {
    for (const [group, now] of groups) {
      this.refolded.add(group);
      if (now?.city_id) this.refolded.add(now.city_id);
    }
  }

  /** Derived cities whose names changed (or that are new). */
  rename(cities: Iterable<string>): void {
    for (const id of cities) this.renamed.add(id);
  }

  /** Whether a street (its keys; its parents after the folds) is as the live one. The answer is kept for its place. */
  street(street: Pick<StreetDoc, 'id' | 'street_key' | 'city_key' | 'city_id'>): boolean {
    const untouched = !this.streets.get(street.street_key)?.has(street.city_key) && !this.refolded.has(street.city_id);
    if (untouched) this.untouchedStreets.add(street.id);
    return untouched;
  }

  /** Whether a place is as the live one: a street's place whose street is, or a postcode's no change reached. */
  place(place: Pick<PlaceDoc, 'id' | 'type' | 'postcode' | 'ancestor_ids'>): boolean {
    const ancestorsAsLive = place.ancestor_ids.every((id) => !this.renamed.has(id) && !this.refolded.has(id));
    if (place.type === 'street') return ancestorsAsLive && this.untouchedStreets.has(place.id);
    if (place.type === 'postcode') return ancestorsAsLive && !this.postcodes.has(place.postcode);
    return false;
  }
}
