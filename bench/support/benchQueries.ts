/**
 * Queries the benches send, drawn (seeded) from the indexed data: addresses and areas sampled from the index,
 * and the requests built from them (street bodies, reverse points, type-ahead keystrokes, free text).
 */
import type { Client } from '@elastic/elasticsearch';
import type { AddressDoc, AreaDoc } from '../../core/elasticsearch/documents.js';
import { aliasName } from '../../core/elasticsearch/indexNames.js';
import { seededRandom, withOneTypo } from './random.js';

/**
 * Seeded draws hash the document id, which the indexer derives from the data: every build of an index yields the
 * same queries (hashing _seq_no did not: parallel bulk loading numbers documents differently each time, and a
 * run that drew more Brussels bare numbers, with many boxes each, measured lookups 2x slower).
 */
export async function sampleAddresses(client: Client, prefix: string, count: number, seed: number) {
  const res = await client.search<AddressDoc>({
    index: aliasName(prefix, 'addresses'),
    size: count,
    query: { function_score: { query: { match_all: {} }, functions: [{ random_score: { seed, field: 'id' } }] } },
    _source: ['id', 'streetname', 'number', 'suffix', 'postcode', 'city', 'location'],
  });
  return res.hits.hits.map((h) => h._source as AddressDoc);
}

export async function sampleAreas(client: Client, prefix: string, level: string, count: number, seed: number) {
  const res = await client.search<AreaDoc>({
    index: aliasName(prefix, 'areas'),
    size: count,
    query: {
      function_score: { query: { term: { level } }, functions: [{ random_score: { seed, field: 'id' } }] },
    },
    _source: ['id', 'name'],
  });
  return res.hits.hits.map((h) => h._source as AreaDoc);
}

export function streetBodies(addresses: AddressDoc[], typo: boolean, random: () => number) {
  return addresses.map((a) => ({
    streetname: typo ? withOneTypo(a.streetname, random) : a.streetname,
    number: `${a.number}${a.suffix ? ` ${a.suffix}` : ''}`,
  }));
}

/** Reverse geocoding: points a few metres (seeded) from the drawn addresses. */
export function reversePaths(addresses: AddressDoc[], seed: number): string[] {
  const jitter = seededRandom(seed + 7);
  return addresses.map((a) => {
    const lat = a.location.lat + (jitter() - 0.5) * 8e-5;
    const lon = a.location.lon + (jitter() - 0.5) * 1.3e-4;
    return `/reverse?lat=${lat.toFixed(7)}&lon=${lon.toFixed(7)}`;
  });
}

/**
 * Type-ahead: every keystroke of a drawn street name (one to all characters), then the street and number; with
 * `focus`, each with the drawn address as the focus (a map-centred search box, its map on the street's quarter).
 */
export function keystrokePaths(addresses: AddressDoc[], options: { focus?: boolean } = {}): string[] {
  const keystrokes = addresses.slice(0, 300).flatMap((a) => {
    const typed = Array.from({ length: a.streetname.length }, (_, i) => a.streetname.slice(0, i + 1));
    // A type-ahead box asks once there is a letter or digit ("'s-G…" starts asking at the s).
    const asked = typed.filter((t) => !t.endsWith(' ') && /[\p{L}\p{N}]/u.test(t));
    return [...asked, `${a.streetname} ${a.number}`].map((text) => ({ text, at: a }));
  });
  return keystrokes.map(({ text, at }) => {
    const focus = options.focus ? `&lat=${at.location.lat.toFixed(5)}&lon=${at.location.lon.toFixed(5)}` : '';
    return `/autocomplete?q=${encodeURIComponent(text)}&size=10${focus}`;
  });
}

/** Free text: drawn addresses as people write them, "street number, postcode city". */
export function freeTextPaths(addresses: AddressDoc[]): string[] {
  return addresses.map(
    (a) => `/search?q=${encodeURIComponent(`${a.streetname} ${a.number}${a.suffix}, ${a.postcode} ${a.city}`)}`,
  );
}

/**
 * Free text with a house-number tail (issue 36), the same addresses: a Belgian box after `bus` as the index displays
 * it, a Dutch addition after a spaced dash, and an address without a suffix as a range ("12 - 14"), which names an
 * addition the building mostly lacks (the number itself answers).
 */
export function freeTextTailPaths(addresses: AddressDoc[]): string[] {
  return addresses.map((a) => {
    const suffix = a.suffix.replace(/[^A-Za-z0-9]/g, '');
    const belgian = /^\d{4}$/.test(a.postcode);
    const tail = suffix ? (belgian ? ` bus ${suffix}` : ` - ${suffix}`) : ` - ${Number(a.number) + 2}`;
    return `/search?q=${encodeURIComponent(`${a.streetname} ${a.number}${tail}, ${a.postcode} ${a.city}`)}`;
  });
}

/**
 * Place queries for the search box (no house number): in turn a street with its city, the city alone and the
 * postcode, drawn from the same addresses (so each names a place the data holds).
 */
export function placePaths(addresses: AddressDoc[]): string[] {
  return addresses.map((a, i) => {
    const q = [`${a.streetname} ${a.city}`, a.city, a.postcode][i % 3] as string;
    return `/search?q=${encodeURIComponent(q)}`;
  });
}
