/**
 * The address data the eval draws from, read back from the live addresses index (what the indexer made of
 * the source files: the same ids, keys and display values the API returns). Two streaming passes keep the
 * memory bounded on millions of addresses: the first collects the street keys and the seeded per-class
 * samples, the second the truth groups the sampled queries are scored against.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import type { AddressDoc } from '../../../core/elasticsearch/documents.js';
import { normaliseStreet, streetKey } from '../../../core/text/normalise.js';

/** The indexed fields the eval reads: the indexer's own document shape, not a copy of it. */
export type Addr = Pick<
  AddressDoc,
  | 'id'
  | 'streetname'
  | 'street_key'
  | 'house_number'
  | 'number'
  | 'letter'
  | 'addition'
  | 'suffix_key'
  | 'suffix'
  | 'postcode'
  | 'postcode_key'
  | 'city'
  | 'city_key'
>;

/** What a truth set needs of every address. */
export interface TruthDoc {
  id: string;
  street_key: string;
  suffix_key: string;
  postcode_key: string;
  city_key: string;
}

const FIELDS = [
  'id',
  'streetname',
  'street_key',
  'street_text',
  'house_number',
  'number',
  'letter',
  'addition',
  'suffix_key',
  'suffix',
  'postcode',
  'postcode_key',
  'city',
  'city_key',
];

/** Every address of the index, page by page, over a point in time in index order (the cheapest order). */
export async function* scanAddresses(
  client: Client,
  index: string,
  pageSize = 10_000,
): AsyncGenerator<(Addr & { street_text: string })[]> {
  const pit = await client.openPointInTime({ index, keep_alive: '2m' });
  let pitId = pit.id;
  let after: estypes.SortResults | undefined;
  try {
    for (;;) {
      const page = await client.search<Addr & { street_text: string }>({
        pit: { id: pitId, keep_alive: '2m' },
        query: { match_all: {} },
        sort: ['_shard_doc'],
        size: pageSize,
        _source: FIELDS,
        track_total_hits: false,
        ...(after ? { search_after: after } : {}),
      });
      pitId = page.pit_id ?? pitId;
      const hits = page.hits.hits;
      if (hits.length === 0) return;
      yield hits.flatMap((h) => (h._source ? [h._source] : []));
      after = hits[hits.length - 1]?.sort;
      if (hits.length < pageSize) return;
    }
  } finally {
    await client.closePointInTime({ id: pitId }).catch(() => {});
  }
}

/** Keeps the `capacity` items with the smallest keys (a bounded max-heap): a seeded sample in one pass. */
export class SmallestK<T> {
  private readonly heap: { key: number; tie: string; value: T }[] = [];

  constructor(private readonly capacity: number) {}

  private less(i: number, j: number): boolean {
    const a = this.heap[i]!;
    const b = this.heap[j]!;
    return a.key < b.key || (a.key === b.key && a.tie < b.tie);
  }

  private swap(i: number, j: number): void {
    const t = this.heap[i]!;
    this.heap[i] = this.heap[j]!;
    this.heap[j] = t;
  }

  offer(key: number, tie: string, value: T): void {
    if (this.capacity <= 0) return;
    if (this.heap.length < this.capacity) {
      this.heap.push({ key, tie, value });
      let i = this.heap.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.less(p, i)) break;
        this.swap(p, i);
        i = p;
      }
      return;
    }
    const top = this.heap[0]!;
    if (key > top.key || (key === top.key && tie >= top.tie)) return;
    this.heap[0] = { key, tie, value };
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.heap.length && this.less(m, l)) m = l;
      if (r < this.heap.length && this.less(m, r)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }

  /** Smallest key first. */
  sorted(): T[] {
    return [...this.heap].sort((a, b) => a.key - b.key || (a.tie < b.tie ? -1 : 1)).map((e) => e.value);
  }
}

export interface FirstPass {
  total: number;
  streetKeys: Set<string>;
  /** Display street names, one per key, for inventing nonexistent streets. */
  streetNames: string[];
  /** The house numbers of every street key (any city): which look-alike streets could answer a number. */
  numbersByStreet: Map<string, Set<number>>;
  /** Documents whose street_key / street_text differ from what the current normaliser makes of the name. */
  stale: { count: number; examples: string[] };
}

export async function firstPass(
  client: Client,
  index: string,
  onAddress: (a: Addr) => void,
  onProgress?: (n: number) => void,
): Promise<FirstPass> {
  const streetKeys = new Set<string>();
  const streetNames: string[] = [];
  const numbersByStreet = new Map<string, Set<number>>();
  const stale = { count: 0, examples: [] as string[] };
  const checked = new Map<string, boolean>();
  let total = 0;
  for await (const page of scanAddresses(client, index)) {
    for (const doc of page) {
      total++;
      let numbers = numbersByStreet.get(doc.street_key);
      if (!numbers) {
        numbers = new Set();
        numbersByStreet.set(doc.street_key, numbers);
        streetKeys.add(doc.street_key);
        streetNames.push(doc.streetname);
      }
      numbers.add(doc.house_number);
      let ok = checked.get(doc.streetname);
      if (ok === undefined) {
        ok = streetKey(doc.streetname) === doc.street_key && normaliseStreet(doc.streetname) === doc.street_text;
        checked.set(doc.streetname, ok);
        if (!ok && stale.examples.length < 10) {
          stale.examples.push(`${doc.streetname}: indexed ${doc.street_key}, now ${streetKey(doc.streetname)}`);
        }
      }
      if (!ok) stale.count++;
      const { street_text: _t, ...addr } = doc;
      onAddress(addr);
    }
    onProgress?.(total);
  }
  return { total, streetKeys, streetNames, numbersByStreet, stale };
}

/** Truth groups: every address with a given street + number, and with a given postcode + number. */
export class TruthGroups {
  readonly byStreet = new Map<string, TruthDoc[]>();
  readonly byPostcode = new Map<string, TruthDoc[]>();
  /** Every address of a street key (all numbers, all cities), for the nearest-number truth. */
  readonly wholeStreet = new Map<string, (TruthDoc & { house_number: number })[]>();

  static streetGroup(streetKey: string, houseNumber: number): string {
    return `${streetKey}|${houseNumber}`;
  }

  static postcodeGroup(postcodeKey: string, houseNumber: number): string {
    return `${postcodeKey}|${houseNumber}`;
  }

  want(streetGroups: Iterable<string>, postcodeGroups: Iterable<string>, wholeStreets: Iterable<string> = []): void {
    for (const g of streetGroups) this.byStreet.set(g, []);
    for (const g of postcodeGroups) this.byPostcode.set(g, []);
    for (const k of wholeStreets) this.wholeStreet.set(k, []);
  }

  async fill(client: Client, index: string, onProgress?: (n: number) => void): Promise<void> {
    let n = 0;
    for await (const page of scanAddresses(client, index)) {
      for (const d of page) {
        const doc: TruthDoc = {
          id: d.id,
          street_key: d.street_key,
          suffix_key: d.suffix_key,
          postcode_key: d.postcode_key,
          city_key: d.city_key,
        };
        this.byStreet.get(TruthGroups.streetGroup(d.street_key, d.house_number))?.push(doc);
        if (d.postcode_key) this.byPostcode.get(TruthGroups.postcodeGroup(d.postcode_key, d.house_number))?.push(doc);
        this.wholeStreet.get(d.street_key)?.push({ ...doc, house_number: d.house_number });
      }
      n += page.length;
      onProgress?.(n);
    }
  }
}
