/**
 * The streets index: one document per street key and city key, accumulated while the addresses stream (one small
 * record per street and city: its spellings, a count, the sum of its points and a fixed-size sample of them) and
 * written after them. Type-ahead (GET /autocomplete) searches it instead of grouping addresses per keystroke.
 * Pure. Each street draws its sample from its own seeded sequence, so a street's sample depends only on its own
 * addresses and their order (a change elsewhere in the stream leaves it as it was: `update` rewrites only the streets
 * it touched).
 */
import type { AddressDoc, GeoPoint, ParentIds, StreetDoc } from '../../core/elasticsearch/documents.js';
import { normaliseStreet, wordTails } from '../base/text.js';
import { seededRandom, seedOf } from '../base/seededRandom.js';
import { streetId, streetSourceKey } from '../records/ids.js';

/** Address points kept per street (reservoir sample): distance ranking uses the nearest of them. */
export const STREET_SAMPLE_POINTS = 16;

/**
 * Keywords for type-ahead on a street name: its normalised words (abbreviations expanded, as in street_text) and
 * every tail of them (nameTokens() of the areas, over normaliseStreet), so one `prefix` query on the typed words
 * joined by spaces matches a prefix of the name or of any later word (`van der wa`, `waalsw` -> Van der Waalsweg).
 * The name glued (`vandermo`) is `street_key`, queried directly.
 */
export function streetWordTokens(streetname: string): string[] {
  return wordTails(normaliseStreet(streetname));
}

interface Spelling {
  streetname: string;
  city: string;
  count: number;
}

interface StreetRecord {
  streetKey: string;
  cityKey: string;
  /** Each spelling (street name and city as written) with the addresses spelt that way, in the order first seen. */
  spellings: Spelling[];
  count: number;
  sumLat: number;
  sumLon: number;
  /** lat, lon pairs: the reservoir sample. */
  points: number[];
  /** The street's own draws, from its 17th address on. */
  random?: () => number;
  parents: ParentIds;
  /** The multilingual fields of the first address that had them (one street-names row per street and scope). */
  names?: Pick<AddressDoc, 'street_names' | 'other_street_keys' | 'other_street_text'>;
  /** lat, lon pairs along the street's OpenStreetMap ways (up to STREET_SAMPLE_POINTS): its points when it has no address. */
  line?: number[];
}

/** A named OpenStreetMap way (indexer/derived/osmStreets.ts), joined to its parents: one street or part of one. */
export interface StreetWay {
  streetname: string;
  street_key: string;
  /** The name of its locality (its city, else its municipality): the street's city when it has no address. */
  city: string;
  city_key: string;
  parents: ParentIds;
  /** Points along it, evenly spaced. */
  points: readonly GeoPoint[];
  names?: Pick<AddressDoc, 'street_names' | 'other_street_keys' | 'other_street_text'> | undefined;
}

/** The area a street lies in for merging: its city, else its municipality. */
const localityOf = (p: ParentIds): string => p.city_id || p.municipality_id;

export class StreetAccumulator {
  /** street_key -> city_key -> the street (two levels: no key string built per address). */
  private readonly streets = new Map<string, Map<string, StreetRecord>>();
  private count = 0;
  /** The street of the address before (rows come street by street: most look-ups are this one). */
  private last: StreetRecord | undefined;
  /** Addresses counted into a street. */
  addresses = 0;

  get size(): number {
    return this.count;
  }

  add(
    doc: Pick<
      AddressDoc,
      | 'streetname'
      | 'street_key'
      | 'city'
      | 'city_key'
      | 'location'
      | 'street_names'
      | 'other_street_keys'
      | 'other_street_text'
      | keyof ParentIds
    >,
  ): void {
    let s = this.last;
    if (s?.streetKey !== doc.street_key || s.cityKey !== doc.city_key) s = this.find(doc.street_key, doc.city_key);
    if (!s) {
      s = {
        streetKey: doc.street_key,
        cityKey: doc.city_key,
        spellings: [],
        count: 0,
        sumLat: 0,
        sumLon: 0,
        points: [],
        parents: {
          country_id: doc.country_id,
          province_id: doc.province_id,
          municipality_id: doc.municipality_id,
          city_id: doc.city_id,
        },
      };
      this.put(s);
    } else {
      // The first address found decides; a parent it lacked is taken from a later one.
      const p = s.parents;
      if (!p.country_id) p.country_id = doc.country_id;
      if (!p.province_id) p.province_id = doc.province_id;
      if (!p.municipality_id) p.municipality_id = doc.municipality_id;
      if (!p.city_id) p.city_id = doc.city_id;
    }
    if (!s.names && doc.street_names) {
      s.names = {
        street_names: doc.street_names,
        other_street_keys: doc.other_street_keys,
        other_street_text: doc.other_street_text,
      };
    }
    countSpelling(s.spellings, doc.streetname, doc.city);
    this.last = s;
    s.count++;
    this.addresses++;
    const { lat, lon } = doc.location;
    s.sumLat += lat;
    s.sumLon += lon;
    if (s.count <= STREET_SAMPLE_POINTS) {
      s.points.push(lat, lon);
    } else {
      s.random ??= seededRandom(seedOf(`${s.streetKey}|${s.cityKey}`) ^ 0x5eed);
      const slot = Math.floor(s.random() * s.count);
      if (slot < STREET_SAMPLE_POINTS) {
        s.points[2 * slot] = lat;
        s.points[2 * slot + 1] = lon;
      }
    }
  }

  /**
   * A named way, once every address is in: it is the street of that name in its locality (its city, else its
   * municipality) whatever city name the addresses were written with, else a street of its own with no address,
   * placed along the way. Returns the street's city key and whether the way joined a street the addresses made.
   */
  addWay(way: StreetWay): { cityKey: string; joined: boolean } {
    const locality = localityOf(way.parents);
    let s: StreetRecord | undefined;
    for (const candidate of this.streets.get(way.street_key)?.values() ?? []) {
      if (locality && localityOf(candidate.parents) === locality) {
        s = candidate;
        break;
      }
    }
    s ??= this.find(way.street_key, way.city_key);
    const joined = s !== undefined && s.count > 0;
    if (!s) {
      s = {
        streetKey: way.street_key,
        cityKey: way.city_key,
        spellings: [{ streetname: way.streetname, city: way.city, count: 0 }],
        count: 0,
        sumLat: 0,
        sumLon: 0,
        points: [],
        parents: { ...way.parents },
        ...(way.names && { names: way.names }),
      };
      this.put(s);
    }
    if (!joined) {
      const line = (s.line ??= []);
      for (const p of way.points) {
        if (line.length >= 2 * STREET_SAMPLE_POINTS) break;
        line.push(p.lat, p.lon);
      }
    }
    return { cityKey: s.cityKey, joined };
  }

  private find(streetKey: string, cityKey: string): StreetRecord | undefined {
    return this.streets.get(streetKey)?.get(cityKey);
  }

  private put(s: StreetRecord): void {
    let inStreet = this.streets.get(s.streetKey);
    if (!inStreet) {
      inStreet = new Map();
      this.streets.set(s.streetKey, inStreet);
    }
    inStreet.set(s.cityKey, s);
    this.count++;
  }

  /**
   * The documents, in key order, made one at a time as they are read (a country's 400,000 streets held as documents
   * beside their records took the indexer's heap near its limit): each reading makes them anew, so the streets index
   * and the places read the same documents. `remap` (old city id -> new parent chain) moves streets of folded
   * derived-city groups along with their addresses (indexer/levelLoaders/cityRemap.ts).
   */
  *documents(remap?: ReadonlyMap<string, ParentIds>): Generator<StreetDoc> {
    const keyed: [string, StreetRecord][] = [];
    for (const inStreet of this.streets.values()) {
      for (const s of inStreet.values()) keyed.push([`${s.streetKey}|${s.cityKey}`, s]);
    }
    keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (const [, s] of keyed) {
      let best: Spelling | undefined;
      const words = new Set<string>();
      for (const spelling of s.spellings) {
        if (!best || spelling.count > best.count) best = spelling;
        for (const w of streetWordTokens(spelling.streetname)) words.add(w);
      }
      const streetname = best?.streetname ?? '';
      const city = best?.city ?? '';
      const parents = (s.parents.city_id && remap?.get(s.parents.city_id)) || s.parents;
      // A street with addresses is where they are; one with none (an OpenStreetMap way alone) along its ways.
      const pairs = s.count ? s.points : (s.line ?? []);
      const points: GeoPoint[] = [];
      for (let i = 0; i < pairs.length; i += 2) points.push({ lat: pairs[i]!, lon: pairs[i + 1]! });
      const mean = s.count ? { lat: s.sumLat / s.count, lon: s.sumLon / s.count } : meanOf(points);
      yield {
        id: streetId(s.streetKey, s.cityKey),
        source_key: streetSourceKey(s.streetKey, s.cityKey),
        streetname,
        street_key: s.streetKey,
        street_words: [...words],
        ...(s.names && otherStreetNameFields(s.names)),
        city,
        city_key: s.cityKey,
        address_count: s.count,
        location: nearestTo(mean, points),
        points,
        country_id: parents.country_id,
        province_id: parents.province_id,
        municipality_id: parents.municipality_id,
        city_id: parents.city_id,
      };
    }
  }

  /** documents() as an iterable that makes them anew each time it is read. */
  reader(remap?: ReadonlyMap<string, ParentIds>): Iterable<StreetDoc> {
    return { [Symbol.iterator]: () => this.documents(remap) };
  }
}

/** One more address spelt so (a street has a handful of spellings: a scan, nothing allocated for one seen). */
function countSpelling(spellings: Spelling[], streetname: string, city: string): void {
  for (const s of spellings) {
    if (s.streetname === streetname && s.city === city) {
      s.count++;
      return;
    }
  }
  spellings.push({ streetname, city, count: 1 });
}

/** A street's names per language, and its other names' keys and word tails (as street_words, over the same text). */
function otherStreetNameFields(
  names: NonNullable<StreetRecord['names']>,
): Pick<StreetDoc, 'street_names' | 'other_street_keys' | 'other_street_words'> {
  const text = names.other_street_text ?? [];
  return {
    street_names: names.street_names,
    ...(text.length && {
      other_street_keys: names.other_street_keys,
      other_street_words: [...new Set(text.flatMap(wordTails))],
    }),
  };
}

function meanOf(points: readonly GeoPoint[]): GeoPoint {
  let lat = 0;
  let lon = 0;
  for (const p of points) {
    lat += p.lat;
    lon += p.lon;
  }
  return points.length ? { lat: lat / points.length, lon: lon / points.length } : { lat: 0, lon: 0 };
}

/** The point nearest `to` (equirectangular: the points of one street are close together). */
export function nearestTo(to: GeoPoint, points: readonly GeoPoint[]): GeoPoint {
  const cos = Math.cos((to.lat * Math.PI) / 180);
  let best = points[0] ?? to;
  let bestD = Infinity;
  for (const p of points) {
    const d = (p.lat - to.lat) ** 2 + ((p.lon - to.lon) * cos) ** 2;
    if (d < bestD) {
      best = p;
      bestD = d;
    }
  }
  return best;
}
