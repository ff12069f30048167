/**
 * GET /search, the one search box: the text read as an address (free text, FreeTextSearch), then as a place (the
 * places index, PlaceRepository) as placeSearchAfter decides from the address answer (the street of a confident
 * address, else the place names), and the answers merged best first (mergeSearchResults).
 */
import type { Focus } from '../../geometry/focus.js';
import { insideViewport, type Viewport } from '../../geometry/viewport.js';
import type { CountryCode } from '../../../core/text/postcodePatterns.js';
import type { PlaceType } from '../../../core/elasticsearch/documents.js';
import type { SearchLayer } from '../../schemas/requests.js';
import type { ForwardAnswer } from '../address/addressRepository.js';
import type { MatchCodes } from '../address/matchQuality.js';
import type { FreeTextRequest, FreeTextSearch } from './freeTextSearch.js';
import type { PlaceRepository } from '../places/placeRepository.js';
import { type PlaceQuery, streetOfAddressReading } from '../places/placeQueries.js';
import type { PlaceResult } from '../places/placeRecords.js';
import { placeInLanguage } from '../places/placeLanguage.js';

/** An address the text was read as: the graded answer, its document in the answer's language. */
export type AddressHit = ForwardAnswer & { type: 'address' };
/**
 * One result of the search box (the domain result, no HTTP record): an address read from the text, or a place
 * (street, postcode, area) in the answer's language. GET /search formats it as its record (searchRecords.ts), each
 * dialect as its own.
 */
export type SearchBoxResult = AddressHit | PlaceResult;

export interface SearchBoxRequest {
  q: string;
  size: number;
  focus?: Focus | undefined;
  country?: CountryCode | undefined;
  /** Only these result types; all when absent. */
  layers?: readonly SearchLayer[] | undefined;
  bbox?: Viewport | undefined;
  within?: string | undefined;
  /** The answer's language (`lang`, Accept-Language): addresses (FreeTextSearch) and places are shown in it. */
  language?: FreeTextRequest['language'];
}

/**
 * An address read this well is what the person meant ("Mekelweg 8 Delft": the address, before the street); a
 * weaker reading (another number on the street, a typo in it) comes after the places.
 */
const CONFIDENT_ADDRESS = 0.8;

const isConfident = (address: { confidence: number }) => address.confidence >= CONFIDENT_ADDRESS;

/**
 * What the search box asks the places index once the address search has answered, decided here only:
 * - `street of address`: an address was read with confidence. Its street is asked for by name and city, one exact
 *   search, so the street follows the address ("Mekelweg 8 Delft": the address, then the street Mekelweg to frame
 *   on a map), and nothing else: the address ranks before every place anyway, and a text that holds an existing
 *   address ("Vismarkt 12, 9712 CA Groningen") names no place. Above all the places' typo round is not sent: fuzzy
 *   names over up to six readings of a full address cost Elasticsearch about 300 ms on the bulk data (a loaded
 *   machine), some 100 times the exact searches, and it ran for every address typed.
 * - `names`: no confident address (none, or only weak ones: another number on the street), so the text may name
 *   a place: the exact and prefix round, then the typo round when that finds nothing.
 * A text without a house number is no address to the free-text reader, which answers at once without a search, so
 * a place query waits for nothing.
 */
export type PlaceSearch<A> = { ask: 'street of address'; address: A; numberMissing: boolean } | { ask: 'names' };

/** The right street without the number typed: the register has no such number on it (the nearest answered). */
export const numberMissing = (a: { match: MatchCodes }) =>
  a.match.number === 'nearest' && (a.match.street === 'exact' || a.match.street === 'normalized');

export function placeSearchAfter<A extends { confidence: number; match: MatchCodes }>(
  addresses: readonly A[],
): PlaceSearch<A> {
  const confident = addresses.find(isConfident);
  if (confident) return { ask: 'street of address', address: confident, numberMissing: false };
  // A number the street does not have ("Rue des Harengs 99"): the street itself answers, first, as every geocoder's
  // street fallback does; the nearest number follows it.
  const onStreet = addresses[0] && numberMissing(addresses[0]) ? addresses[0] : undefined;
  return onStreet ? { ask: 'street of address', address: onStreet, numberMissing: true } : { ask: 'names' };
}

/**
 * A street answering a number it does not have: what was typed matched but for the number, so it is graded as an
 * ignored part is (NUMBER_MISSING_FACTOR) and says so (`unmatched`).
 */
const NUMBER_MISSING_FACTOR = 0.8;
function asNumberFallback(place: PlaceResult): PlaceResult {
  return {
    ...place,
    confidence: Math.round(place.confidence * NUMBER_MISSING_FACTOR * 1000) / 1000,
    unmatched: ['number'],
  };
}

/**
 * Best first: the addresses read with confidence (the text had a house number that exists), then the places in
 * their own order (exact before prefix before typo, then size, type and focus), then the weaker addresses.
 */
export function mergeSearchResults<A extends { confidence: number }, P>(
  addresses: readonly A[],
  places: readonly P[],
  size: number,
): (A | P)[] {
  const confident = addresses.filter(isConfident);
  const weak = addresses.filter((a) => !isConfident(a));
  return [...confident, ...places, ...weak].slice(0, size);
}

/** The address lies in the area `within` names: one of its hierarchy ids is that id. */
function insideArea(within: string | undefined, doc: ForwardAnswer['doc']): boolean {
  if (!within) return true;
  return [doc.country_id, doc.province_id, doc.municipality_id, doc.city_id, doc.suburb_id].includes(within);
}

export class SearchBox {
  constructor(
    private readonly freeText: FreeTextSearch,
    private readonly places: PlaceRepository,
  ) {}

  async search(r: SearchBoxRequest): Promise<SearchBoxResult[]> {
    const placeLayers = r.layers?.filter((l): l is PlaceType => l !== 'address');
    const wantAddresses = !r.layers || r.layers.includes('address');
    const wantPlaces = !placeLayers || placeLayers.length > 0;
    const addresses = wantAddresses
      ? await this.freeText.search({ q: r.q, size: r.size, focus: r.focus, country: r.country, language: r.language })
      : [];
    // The free-text tiers know no area or viewport: their few candidates are filtered here.
    const kept = addresses.filter(
      (a) => insideViewport(r.bbox, a.doc.location.lon, a.doc.location.lat) && insideArea(r.within, a.doc),
    );
    const places = wantPlaces
      ? await this.placesAfter(kept, {
          text: r.q,
          size: r.size,
          focus: r.focus,
          layers: placeLayers,
          country: r.country,
          bbox: r.bbox && [r.bbox.minLon, r.bbox.minLat, r.bbox.maxLon, r.bbox.maxLat],
          within: r.within,
        })
      : [];
    const shown = places.map((place) => placeInLanguage(place, r.q, r.language ?? {}));
    return mergeSearchResults(
      kept.map((a): AddressHit => ({ ...a, type: 'address' })),
      shown,
      r.size,
    );
  }

  private async placesAfter(addresses: readonly ForwardAnswer[], q: PlaceQuery): Promise<PlaceResult[]> {
    const next = placeSearchAfter(addresses);
    if (next.ask === 'names') {
      // The place reader reads what the address reader read: no country or no-number mark. Only here: a confident
      // address asks for its street by name and city, not by the text.
      const text = (await this.freeText.placeText(q.text)).text || q.text;
      return this.places.search({ ...q, text });
    }
    if (q.layers && !q.layers.includes('street')) return [];
    const { streetname, city } = next.address.doc;
    const streets = await this.places.round(
      { ...q, size: 1, layers: ['street'] },
      streetOfAddressReading(streetname, city),
      false,
    );
    return next.numberMissing ? streets.map(asNumberFallback) : streets;
  }
}
