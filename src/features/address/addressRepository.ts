/**
 * Reads addresses: by id, by building, and the street lookup and forward-geocoding tiers (which tier runs
 * when is decided here; the bodies come from addressBodies.ts, the grade of an answer from
 * matchQuality.ts).
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import { NotFoundError } from '../../../core/domain/errors.js';
import type { AddressDoc } from '../../../core/elasticsearch/documents.js';
import { aliasName } from '../../../core/elasticsearch/indexNames.js';
import { type Searcher, searchEach } from '../../elasticsearch/searchBatcher.js';
import {
  type LookupHit,
  addressByIdRequest,
  buildingAddressesQuery,
  exactForwardRequest,
  exactLookupRequest,
  exactStreetFilter,
  FORWARD_WINDOW,
  forwardAmbiguity,
  fuzzyEditStages,
  fuzzyForwardRequest,
  fuzzyLookupRequest,
  fuzzyStreetProbeRequest,
  nearestNumberRequests,
  streetExistsRequest,
  streetKeyFilter,
} from './addressBodies.js';
import { byStableSort, LOOKUP_PAGE_SIZE, STABLE_SORT } from './addressOrder.js';
import { byIdQuery } from '../hierarchy/areaBodies.js';
import { describeMatch, type ForwardHit, type MatchGrade, type TierMatch } from './matchQuality.js';
import type { StreetQuery } from './streetRequest.js';
import type { HeldSuffixRepository } from './heldSuffixes.js';
import { hasStreetKey } from './addressFields.js';
import { existsAndFirstPage, searchAllPages, sources } from '../../indexes/paging.js';
import { indexFor } from '../../indexes/generations.js';

/** A forward answer with its grade: everything the response needs. */
export interface ForwardAnswer extends MatchGrade {
  doc: ForwardHit;
}

/**
 * The forward tiers in the order they run; a later tier runs only for a query the earlier ones found nothing for.
 * `exact`: the normalised street (or postcode) and number, one search. `fuzzy`: the nearest number on the exact
 * street and the look-alike streets (the costly searches, in the batcher's fuzzy lane; see `forward`).
 */
export const FORWARD_TIERS = ['exact', 'fuzzy'] as const;
export type ForwardTier = (typeof FORWARD_TIERS)[number];

export class AddressRepository {
  private readonly addresses: string;
  private readonly buildings: string;

  /**
   * `searcher` carries the per-request searches (batched in the API); `client` the paging over a point in time;
   * `suffixes` the suffix keys the index holds, which forward ranking narrows a box's spellings to (all without).
   */
  constructor(
    private readonly client: Client,
    private readonly searcher: Searcher,
    indexPrefix: string,
    private readonly suffixes?: HeldSuffixRepository,
  ) {
    this.addresses = aliasName(indexPrefix, 'addresses');
    this.buildings = aliasName(indexPrefix, 'buildings');
  }

  async get(id: string): Promise<AddressDoc> {
    const res = await this.searcher.search<AddressDoc>(indexFor(this.addresses), addressByIdRequest(id));
    const doc = res.hits.hits[0]?._source;
    if (!doc) throw new NotFoundError('address');
    return doc;
  }

  async ofBuilding(buildingId: string): Promise<AddressDoc[]> {
    const options = {
      index: this.addresses,
      query: buildingAddressesQuery(buildingId),
      sort: STABLE_SORT,
      source: true,
      pageSize: LOOKUP_PAGE_SIZE,
    };
    const [exists, first] = await existsAndFirstPage<AddressDoc>(
      this.searcher,
      this.buildings,
      byIdQuery(buildingId),
      options,
    );
    if (!exists) throw new NotFoundError('building');
    const out: AddressDoc[] = [];
    for await (const page of searchAllPages<AddressDoc>(this.client, options, first)) out.push(...sources(page));
    return out;
  }

  /**
   * Every address matching the street and number. Tier 1: the exact normalised street (one round trip).
   * Tier 2, only when the exactly-named street does not exist (within the city/postcode narrowing): the
   * closest fuzzy street, and only that one (one edit first, two in one more round trip only when one found
   * nothing: see fuzzyEditStages). A street that exists but lacks the number answers [].
   */
  async lookup(q: StreetQuery): Promise<LookupHit[]> {
    const index = this.addresses;
    const request = exactLookupRequest(q);
    const hits = (await this.searcher.search<LookupHit>(index, request)).hits.hits;
    if (hits.length > 0 || !q.streetKey) {
      // A full first page is followed over a point in time, like every other list (rarely: 1000+ matches).
      const options = {
        index,
        query: request.query!,
        sort: STABLE_SORT,
        source: request._source!,
        pageSize: LOOKUP_PAGE_SIZE,
      };
      const all: LookupHit[] = [];
      for await (const page of searchAllPages<LookupHit>(this.client, options, hits)) all.push(...sources(page));
      return bestReading(q, all);
    }

    const [firstEdits, widerEdits] = fuzzyEditStages(q.streetKey);
    const [fuzzy, exists] = await searchEach<LookupHit & { street_key: string }>(
      this.searcher,
      index,
      [fuzzyLookupRequest(q, firstEdits), streetExistsRequest(q)],
      'fuzzy',
    );
    if ((exists?.hits.hits.length ?? 0) > 0) return [];
    const fuzzyHits = await this.widenedFuzzy(fuzzy?.hits.hits ?? [], widerEdits, (e) => fuzzyLookupRequest(q, e));
    const best = fuzzyHits[0]?._source?.street_key;
    if (!best) return [];
    // Only the best street: a typo must not return a mix of similar-looking streets. The hits came sorted by
    // score first; within one street they are put in the stable order by the sort values Elasticsearch returned.
    const ofBest = fuzzyHits.filter((hit) => hit._source?.street_key === best).sort(byStableSort(1));
    return sources(ofBest).map(({ street_key: _drop, ...doc }) => doc);
  }

  /**
   * The single best address; undefined when nothing matches closely enough. Tier 1 (one round trip): exact
   * normalised street (or postcode) + number. On a miss, one batch (one round trip): the nearest numbers on the
   * exactly-named street and the fuzzy street with the number, within one edit (two edits in one more round trip
   * only when one found nothing: see fuzzyEditStages). Preference: the exact street's nearest number
   * (the street was named right, the number is off), then the fuzzy street with the number. Only when both
   * are empty, the closest fuzzy street at all and then its nearest number (two more round trips): that probe
   * scores every address of every look-alike street, as costly as the fuzzy tier itself, and a typo in a
   * street whose number exists, the common case, never needs it.
   */
  async forward(q: StreetQuery): Promise<ForwardAnswer | undefined> {
    return (await this.candidates(q, FORWARD_WINDOW))[0];
  }

  /**
   * Up to `size` graded answers, best first, from the first tier that answers (free text and batch rank
   * several readings and candidates; the nearest-number tiers answer one address).
   */
  async candidates(q: StreetQuery, size: number): Promise<ForwardAnswer[]> {
    for (const tier of FORWARD_TIERS) {
      const answers = await this.tierCandidates(tier, q, size);
      if (answers.length > 0) return answers;
    }
    return [];
  }

  /**
   * One tier's graded answers, best first (see FORWARD_TIERS). The caller runs a tier only for a query the
   * earlier tiers found nothing for: `candidates` for one query, free text across its readings.
   */
  async tierCandidates(tier: ForwardTier, q: StreetQuery, size: number): Promise<ForwardAnswer[]> {
    const ranked = q.suffixKey && this.suffixes ? { ...q, heldSuffixes: await this.suffixes.held() } : q;
    const matches = tier === 'exact' ? await this.exactTier(ranked, size) : await this.fuzzyTiers(ranked, size);
    return matches.map((match) => ({ doc: match.doc, ...describeMatch(q, match) }));
  }

  private async exactTier(q: StreetQuery, size: number): Promise<TierMatch[]> {
    const exact = await this.searcher.search<ForwardHit>(this.addresses, exactForwardRequest(q, size));
    return tierMatches(exact.hits.hits, (doc, i) => ({
      doc,
      street: 'exact',
      number: 'exact',
      reading: readingOf(q, doc),
      ambiguous: forwardAmbiguity(q, exact.hits.hits, i),
    }));
  }

  /** Everything after the exact tier, for a street + number it did not find (see `forward`). */
  private async fuzzyTiers(q: StreetQuery, size: number): Promise<TierMatch[]> {
    const index = this.addresses;
    if (!q.streetKey) return [];

    const [firstEdits, widerEdits] = fuzzyEditStages(q.streetKey);
    const [below, above, fuzzy] = await searchEach<ForwardHit>(
      this.searcher,
      index,
      [...nearestNumberRequests(q, exactStreetFilter(q)), fuzzyForwardRequest(q, firstEdits, size)],
      'fuzzy',
    );
    const nearestExact = nearest(q.houseNumber, below?.hits.hits[0]?._source, above?.hits.hits[0]?._source);
    // The street was named right and exists: its nearest number, flagged with a low confidence, beats a
    // look-alike street that has the number (measured: "Dokterstraat 77" must not become "Donkerstraat 77").
    if (nearestExact) {
      return [
        {
          doc: nearestExact,
          street: 'exact',
          number: 'nearest',
          reading: readingOf(q, nearestExact),
          ambiguous: false,
        },
      ];
    }
    const fuzzyHits = await this.widenedFuzzy(fuzzy?.hits.hits ?? [], widerEdits, (e) =>
      fuzzyForwardRequest(q, e, size),
    );
    if (fuzzyHits.length > 0) {
      return tierMatches(fuzzyHits, (doc, i) => ({
        doc,
        street: 'fuzzy',
        number: 'exact',
        reading: 'primary',
        ambiguous: forwardAmbiguity(q, fuzzyHits, i),
      }));
    }

    const probe = await this.searcher.search<ForwardHit>(index, fuzzyStreetProbeRequest(q), 'fuzzy');
    const fuzzyKey = probe.hits.hits[0]?._source?.street_key;
    if (!fuzzyKey) return [];
    const [b, a] = await searchEach<ForwardHit>(
      this.searcher,
      index,
      nearestNumberRequests(q, streetKeyFilter(fuzzyKey)),
    );
    const nearestFuzzy = nearest(q.houseNumber, b?.hits.hits[0]?._source, a?.hits.hits[0]?._source);
    return nearestFuzzy
      ? [{ doc: nearestFuzzy, street: 'fuzzy', number: 'nearest', reading: 'primary', ambiguous: false }]
      : [];
  }

  /** The first edit stage's fuzzy hits, or the wider stage's when the first found nothing (see fuzzyEditStages). */
  private async widenedFuzzy<T>(
    hits: estypes.SearchHit<T>[],
    widerEdits: number | undefined,
    request: (edits: number) => estypes.SearchRequest,
  ): Promise<estypes.SearchHit<T>[]> {
    if (hits.length > 0 || widerEdits === undefined) return hits;
    return (await this.searcher.search<T>(this.addresses, request(widerEdits), 'fuzzy')).hits.hits;
  }
}

/** With alternative readings of the street, only the hits of the first reading that has any (primary first). */
function bestReading(q: StreetQuery, hits: LookupHit[]): LookupHit[] {
  if (q.streetKeyAlternatives.length === 0) return hits;
  const keyed = hits as (LookupHit & { street_key?: string })[];
  const best = [q.streetKey, ...q.streetKeyAlternatives].find((key) => keyed.some((h) => hasStreetKey(h, key)));
  return keyed.filter((h) => best !== undefined && hasStreetKey(h, best)).map(({ street_key: _drop, ...doc }) => doc);
}

function tierMatches(
  hits: estypes.SearchHit<ForwardHit>[],
  match: (doc: ForwardHit, at: number) => TierMatch,
): TierMatch[] {
  return hits.flatMap((hit, i) => (hit._source ? [match(hit._source, i)] : []));
}

/** Which reading of the exactly-named street the hit has: the primary key, or an alternative reading. */
function readingOf(q: StreetQuery, doc: ForwardHit): TierMatch['reading'] {
  return !q.streetKey || hasStreetKey(doc, q.streetKey) ? 'primary' : 'alternative';
}

function nearest(target: number, below?: ForwardHit, above?: ForwardHit): ForwardHit | undefined {
  if (!below) return above;
  if (!above) return below;
  // Ties go to the lower number: it exists on more streets' numbering schemes (odd/even sides aside).
  return target - Number(below.number) <= Number(above.number) - target ? below : above;
}
