/**
 * Type-ahead suggestions (GET /autocomplete): which searches run when, and how their answers are ranked. Bodies
 * come from autocompleteBodies.ts; every search goes through the batcher, so the keystrokes of all
 * users in flight share `_msearch` round trips.
 */
import { metresBetween } from '../../../core/geo/distance.js';
import type { GeoPoint } from '../../../core/elasticsearch/documents.js';
import { aliasName } from '../../../core/elasticsearch/indexNames.js';
import type { Searcher } from '../../elasticsearch/searchBatcher.js';
import type {
  AddressPrefixQuery,
  AutocompleteQuery,
  Focus,
  PostcodePrefixQuery,
  StreetPrefixQuery,
} from './autocompleteInput.js';
import {
  addressPrefixRequest,
  type AutocompleteHit,
  fuzzyStreetRequest,
  postcodePrefixRequest,
  QUALITIES,
  type Quality,
  qualityOfScore,
  type StreetHit,
  streetPrefixRequest,
} from './autocompleteBodies.js';
import { mayBeTypo } from './typoRegexp.js';
import { sources } from '../../indexes/paging.js';
import type { CompleteStreetCache } from './completeStreetCache.js';
import type { RefinedStreet } from './completeStreets.js';

export interface Suggestion {
  type: 'street' | 'address' | 'postcode' | 'city' | 'suburb' | 'municipality' | 'province' | 'country';
  label: string;
  id?: string | undefined;
  streetname: string;
  number: string;
  suffix: string;
  postcode: string;
  city: string;
  location: GeoPoint;
  /** Areas only: [minLon, minLat, maxLon, maxLat]. */
  bbox?: [number, number, number, number] | undefined;
  /** The street's names per language, where it has several (the answer language picks `streetname`). */
  street_names?: Record<string, string> | undefined;
}

interface Ranked {
  suggestion: Suggestion;
  /** Index into RANK_ORDER. */
  quality: number;
  distance: number;
  size: number;
}

const RANK_ORDER: readonly Quality[] = [...QUALITIES, 'fuzzy'];

/** Great-circle distance in metres (ranking only). */
const metres = (a: GeoPoint, b: Focus) => metresBetween(a, b);

const byRank = (a: Ranked, b: Ranked) =>
  a.quality - b.quality ||
  a.distance - b.distance ||
  b.size - a.size ||
  a.suggestion.label.localeCompare(b.suggestion.label);

const blank = { number: '', suffix: '', postcode: '' };

/** An address as a suggestion (the type-ahead's own hits and the search box reading's alike). */
export function addressSuggestion(doc: AutocompleteHit): Suggestion {
  const suffixed = `${doc.number}${doc.suffix}`;
  return {
    type: 'address',
    label: `${doc.streetname} ${suffixed}, ${doc.postcode ? `${doc.postcode} ` : ''}${doc.city}`.trim(),
    id: doc.id,
    streetname: doc.streetname,
    number: doc.number,
    suffix: doc.suffix,
    postcode: doc.postcode,
    city: doc.city,
    location: doc.location,
    street_names: doc.street_names,
  };
}

export class AutocompleteRepository {
  private readonly addresses: string;
  private readonly streetIndex: string;

  /**
   * `complete`: the complete street answers of recent keystrokes, from which a longer keystroke is answered without
   * the exact round's search (completeStreets.ts); without it, every street keystroke searches.
   */
  constructor(
    private readonly searcher: Searcher,
    indexPrefix: string,
    private readonly complete?: CompleteStreetCache,
  ) {
    this.addresses = aliasName(indexPrefix, 'addresses');
    this.streetIndex = aliasName(indexPrefix, 'streets');
  }

  /**
   * `alongside` (street text only): areas found without a search (a city by a later word of its name), ranked with
   * the streets as one whose name starts with the text, before the smaller streets (as the areas index's city search
   * ranked them before issue 39).
   */
  async suggest(q: AutocompleteQuery, alongside: readonly Suggestion[] = []): Promise<Suggestion[]> {
    if (q.kind === 'postcode') return this.postcodes(q);
    if (q.kind === 'address') return this.addressesOf(q);
    return this.streets(q, alongside);
  }

  private async postcodes(q: PostcodePrefixQuery): Promise<Suggestion[]> {
    const res = await this.searcher.search<AutocompleteHit>(this.addresses, postcodePrefixRequest(q));
    return sources(res.hits.hits).map((doc) => ({
      type: 'postcode',
      label: `${doc.postcode}, ${doc.city}`,
      ...blank,
      streetname: '',
      postcode: doc.postcode,
      city: doc.city,
      location: doc.location,
    }));
  }

  /**
   * The addresses with the typed number on the matching streets; the other readings of the words after the number,
   * then one typo in the street, only while nothing matched.
   */
  private async addressesOf(q: AddressPrefixQuery): Promise<Suggestion[]> {
    let hits = (await this.searcher.search<AutocompleteHit>(this.addresses, addressPrefixRequest(q))).hits.hits;
    for (const reading of q.otherReadings) {
      if (hits.length > 0) break;
      const other = addressPrefixRequest({ ...q, ...reading });
      hits = (await this.searcher.search<AutocompleteHit>(this.addresses, other)).hits.hits;
    }
    if (hits.length === 0 && mayBeTypo(q.words)) {
      hits = (await this.searcher.search<AutocompleteHit>(this.addresses, addressPrefixRequest(q, true), 'fuzzy')).hits
        .hits;
    }
    return sources(hits).map(addressSuggestion);
  }

  /**
   * Streets only: the areas come from the places index (autocompleteAnswer.ts), in the same `_msearch`, where the text
   * can name one at all (AreaKeys; most street keystrokes cannot, and send this search alone). A search of
   * the areas index for cities by a prefix of any word of their names used to go with it on every keystroke (a
   * third search each time) for what the places index already answers, but for a later word of a city's name
   * (`post` -> Ten Post), which now comes from memory (`alongside`).
   */
  private async streets(q: StreetPrefixQuery, alongside: readonly Suggestion[]): Promise<Suggestion[]> {
    const ranked = rankStreets(q, await this.exactStreets(q));
    // The typo round only when no street starts with what was typed (as for addresses): a mistyped word rarely
    // begins a real street, while a correct one that matches fewer streets than `size` (most keystrokes past the
    // fifth letter) would pay a second round trip, a regular expression over every street word, for neighbours
    // one typo away that nobody asked for. That round was the slow tail of type-ahead under load.
    if (ranked.length === 0 && mayBeTypo(q.words)) {
      const fuzzy = await this.searcher.search<StreetHit>(this.streetIndex, fuzzyStreetRequest(q), 'fuzzy');
      const seen = new Set(ranked.map((r) => r.suggestion.label));
      const found = sources(fuzzy.hits.hits).map((doc) => ({ doc, quality: 'fuzzy' as const }));
      for (const r of rankStreets(q, found)) {
        if (!seen.has(r.suggestion.label)) ranked.push(r);
      }
    }
    for (const area of alongside) {
      const distance = q.focus ? metres(area.location, q.focus) : 0;
      ranked.push({ suggestion: area, quality: RANK_ORDER.indexOf('starts'), distance, size: Number.MAX_SAFE_INTEGER });
    }
    return ranked
      .sort(byRank)
      .slice(0, q.size)
      .map((r) => r.suggestion);
  }

  /**
   * The exact round: from a complete answer to a shorter text where one is remembered, else searched (and the
   * answer remembered when it is complete); a search kept to bounds is neither answered from nor remembered.
   */
  private async exactStreets(q: StreetPrefixQuery): Promise<RefinedStreet[]> {
    // The complete answers are of unbounded searches: a bounded one (the Pelias door's boundary) is searched.
    const generation = q.bounds ? undefined : await this.complete?.generation();
    const known = generation === undefined ? undefined : this.complete?.find(generation, q);
    if (known) return known;
    const res = await this.searcher.search<StreetHit>(this.streetIndex, streetPrefixRequest(q));
    if (generation !== undefined) this.complete?.remember(generation, q, res);
    return res.hits.hits.flatMap((hit) =>
      hit._source ? [{ doc: hit._source, quality: qualityOfScore(Number(hit.sort?.[0] ?? 0)) }] : [],
    );
  }
}

/** Streets as ranked suggestions; with a focus, placed at the street's sampled point nearest to it. */
function rankStreets(q: StreetPrefixQuery, found: readonly RefinedStreet[]): Ranked[] {
  const out: Ranked[] = [];
  for (const { doc, quality } of found) {
    let location = doc.location;
    let distance = 0;
    if (q.focus) {
      distance = metres(location, q.focus);
      for (const p of doc.points ?? []) {
        const d = metres(p, q.focus);
        if (d < distance) {
          distance = d;
          location = p;
        }
      }
    }
    out.push({
      suggestion: {
        type: 'street',
        label: doc.city ? `${doc.streetname}, ${doc.city}` : doc.streetname,
        id: doc.id,
        ...blank,
        streetname: doc.streetname,
        city: doc.city,
        location,
        street_names: doc.street_names,
      },
      quality: RANK_ORDER.indexOf(quality),
      distance,
      size: doc.address_count,
    });
  }
  return out;
}
