import type { Client, estypes } from '@elastic/elasticsearch';
import type { AddressDoc } from '../elasticsearch/documents.js';
import { aliasName } from '../elasticsearch/indexNames.js';
import { notFound } from '../http/errors.js';
import {
  exactForwardRequest,
  exactLookupRequest,
  fuzzyForwardRequest,
  fuzzyLookupRequest,
  fuzzyStreetClause,
  LOOKUP_PAGE_SIZE,
  nearestNumberRequests,
  type StreetQuery,
  STABLE_SORT,
  streetKeyFilter,
} from '../search/streetQuery.js';
import { existsAndFirstPage, msearchItems, parentFilter, searchAllPages } from './paging.js';

export type LookupHit = Pick<AddressDoc, 'id' | 'streetname' | 'number' | 'suffix' | 'city' | 'postcode' | 'location'>;
export type ForwardHit = LookupHit &
  Pick<AddressDoc, 'suburb_id' | 'building_id' | 'street_key' | 'suffix_key' | 'postcode_key'>;

export interface ForwardMatch {
  doc: ForwardHit;
  street: 'exact' | 'fuzzy';
  number: 'exact' | 'nearest';
}

const sources = <T>(hits: estypes.SearchHit<T>[]): T[] => hits.flatMap((h) => (h._source ? [h._source] : []));

export class AddressRepository {
  private readonly addresses: string;
  private readonly buildings: string;

  constructor(
    private readonly client: Client,
    indexPrefix: string,
  ) {
    this.addresses = aliasName(indexPrefix, 'addresses');
    this.buildings = aliasName(indexPrefix, 'buildings');
  }

  async get(id: string): Promise<AddressDoc> {
    const res = await this.client.search<AddressDoc>({
      index: this.addresses,
      query: { bool: { filter: [{ term: { id } }] } },
      size: 1,
    });
    const doc = res.hits.hits[0]?._source;
    if (!doc) throw notFound('address');
    return doc;
  }

  async ofBuilding(buildingId: string): Promise<AddressDoc[]> {
    const options = {
      index: this.addresses,
      query: { bool: { filter: [{ term: { building_id: buildingId } }] } },
      sort: STABLE_SORT,
      source: true,
      pageSize: LOOKUP_PAGE_SIZE,
    };
    const [exists, first] = await existsAndFirstPage<AddressDoc>(this.client, this.buildings, parentFilter(buildingId), options);
    if (!exists) throw notFound('building');
    const out: AddressDoc[] = [];
    for await (const page of searchAllPages<AddressDoc>(this.client, options, first)) out.push(...sources(page));
    return out;
  }

  /** Every address matching the street and number: exact normalised street first, the closest fuzzy street if none. */
  async lookup(q: StreetQuery): Promise<LookupHit[]> {
    const exact = await this.client.search<LookupHit>({ index: this.addresses, ...exactLookupRequest(q) });
    let hits = exact.hits.hits;
    if (hits.length === LOOKUP_PAGE_SIZE) {
      const all: LookupHit[] = [];
      let last = hits[hits.length - 1]?.sort;
      all.push(...sources(hits));
      while (hits.length === LOOKUP_PAGE_SIZE && last) {
        hits = (await this.client.search<LookupHit>({ index: this.addresses, ...exactLookupRequest(q, last) })).hits.hits;
        all.push(...sources(hits));
        last = hits[hits.length - 1]?.sort;
      }
      return all;
    }
    if (hits.length > 0 || !q.streetKey) return sources(hits);

    const fuzzy = await this.client.search<LookupHit & { street_key: string }>({
      index: this.addresses,
      ...fuzzyLookupRequest(q),
    });
    const best = fuzzy.hits.hits[0]?._source?.street_key;
    if (!best) return [];
    // Only the best street: a typo must not return a mix of similar-looking streets.
    return sources(fuzzy.hits.hits)
      .filter((doc) => doc.street_key === best)
      .sort(stableOrder)
      .map(({ street_key: _drop, ...doc }) => doc);
  }

  /** The single best address; undefined when nothing matches closely enough. */
  async forward(q: StreetQuery): Promise<ForwardMatch | undefined> {
    const index = this.addresses;
    const exact = await this.client.search<ForwardHit>({ index, ...exactForwardRequest(q) });
    const exactDoc = exact.hits.hits[0]?._source;
    if (exactDoc) return { doc: exactDoc, street: 'exact', number: 'exact' };
    if (!q.streetKey) return undefined;

    // One round trip for the two cheap fallbacks: fuzzy street with the exact number, and the nearest
    // numbers on the exactly-named street.
    const [fuzzy, below, above] = msearchItems(
      await this.client.msearch<ForwardHit>({
        searches: [fuzzyForwardRequest(q), ...nearestNumberRequests(q, streetKeyFilter(q.streetKey))].flatMap((body) => [
          { index },
          body,
        ]),
      }),
    );
    const fuzzyDoc = fuzzy?.hits.hits[0]?._source;
    if (fuzzyDoc) return { doc: fuzzyDoc, street: 'fuzzy', number: 'exact' };
    const nearestExact = nearest(q.houseNumber, below?.hits.hits[0]?._source, above?.hits.hits[0]?._source);
    if (nearestExact) return { doc: nearestExact, street: 'exact', number: 'nearest' };

    // Last resort: the closest fuzzy street at all, then its nearest number.
    const probe = await this.client.search<ForwardHit>({
      index,
      query: fuzzyStreetClause(q),
      size: 1,
      _source: ['street_key'],
    });
    const fuzzyKey = probe.hits.hits[0]?._source?.street_key;
    if (!fuzzyKey) return undefined;
    const [b, a] = msearchItems(
      await this.client.msearch<ForwardHit>({
        searches: nearestNumberRequests(q, streetKeyFilter(fuzzyKey)).flatMap((body) => [{ index }, body]),
      }),
    );
    const nearestFuzzy = nearest(q.houseNumber, b?.hits.hits[0]?._source, a?.hits.hits[0]?._source);
    return nearestFuzzy ? { doc: nearestFuzzy, street: 'fuzzy', number: 'nearest' } : undefined;
  }
}

function nearest(target: number, below?: ForwardHit, above?: ForwardHit): ForwardHit | undefined {
  if (!below) return above;
  if (!above) return below;
  // Ties go to the lower number: it exists on more streets' numbering schemes (odd/even sides aside).
  return target - Number(below.number) <= Number(above.number) - target ? below : above;
}

function stableOrder(a: LookupHit & { street_key?: string }, b: LookupHit & { street_key?: string }): number {
  return (
    a.city.localeCompare(b.city) ||
    a.postcode.localeCompare(b.postcode) ||
    Number(a.number) - Number(b.number) ||
    a.suffix.localeCompare(b.suffix) ||
    a.id.localeCompare(b.id)
  );
}
