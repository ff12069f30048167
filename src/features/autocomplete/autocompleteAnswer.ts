/**
 * The one autocomplete: the suggestions for what has been typed so far, in the answer's language (a domain
 * result, not the GET /autocomplete records). The native endpoint and the Pelias dialect (src/features/dialects/pelias/) answer
 * through it.
 */
import { answerLanguage, type Language, preferredLanguage } from '../../language/answerLanguage.js';
import { focusOf } from '../../geometry/focus.js';
import type { PlaceType } from '../../../core/elasticsearch/documents.js';
import type { SearchLayer } from '../../schemas/requests.js';
import type { CountryCode } from '../../../core/text/countries.js';
import type { PlaceRepository } from '../places/placeRepository.js';
import type { CityNameRepository } from '../cities/cityNames.js';
import type { AreaKeyRepository } from '../places/areaKeyRepository.js';
import { type PlaceReading, readPlaceQuery } from '../places/placeQueries.js';
import type { PlaceResult } from '../places/placeRecords.js';
import { type AutocompleteBounds, parseAutocompleteQuery } from './autocompleteInput.js';
import {
  areaSuggestion,
  AUTOCOMPLETE_AREA_TYPES,
  isArea,
  laterWordCities,
  MAX_AREAS,
  mergeAreas,
  prefixAreasCanShow,
} from './autocompleteAreas.js';
import { type LocalisedSuggestion, suggestionInLanguage } from './suggestionLanguage.js';
import { placeInLanguage } from '../places/placeLanguage.js';
import type { AutocompleteRepository, Suggestion } from './autocompleteRepository.js';
import { cellCentre, isShortPrefix, type ShortPrefixCache } from './shortPrefixCache.js';
import type { FreeTextSearch } from '../search/freeTextSearch.js';
import { addressSuggestion } from './autocompleteRepository.js';
import { insideViewport } from '../../geometry/viewport.js';

/**
 * The type-ahead's domain result: the suggestions, best first, in the answer's language (an address's or street's
 * `streetname` and `city` shown in it, `names` where several); GET /autocomplete formats them as its records
 * (autocompleteRecord.ts), the Pelias door as its features.
 */
export type AutocompleteResults = LocalisedSuggestion[];

export interface AutocompleteAnswerServices {
  autocomplete: AutocompleteRepository;
  places: PlaceRepository;
  cityNames: CityNameRepository;
  /** The areas' name keys: whether a keystroke can name an area at all (no place search when it cannot). */
  areaKeys: AreaKeyRepository;
  /** The answers to the first keystrokes, shared by everyone (shortPrefixCache.ts). */
  shortPrefixes: ShortPrefixCache<AutocompleteResults>;
  /** The one reading of a typed address (the search box's), for the forms the prefix reading does not find. */
  freeText: FreeTextSearch;
  /** The countries' hierarchy ids, which the address and street documents name (a request kept to countries). */
  countryIds: CountryIds;
}

/** The hierarchy id of the country with this ISO 3166-1 alpha-2 code (the areas index's), or undefined. */
export interface CountryIds {
  countryIdOf(code: string): Promise<string | undefined>;
}

/** What GET /autocomplete reads from its query (its schema's output, without `format`). */
export interface AutocompleteRequest {
  q: string;
  size: number;
  lat?: number | undefined;
  lon?: number | undefined;
  lang?: Language | undefined;
  /**
   * Only these suggestion types (the Pelias door's `layers`), asked for rather than filtered afterwards: a search
   * for a type not wanted is not sent, and the areas fill the answer when streets are not wanted.
   */
  layers?: readonly SearchLayer[] | undefined;
  /** Only suggestions in these countries (the Pelias door's `boundary.country`), a filter of every search. */
  countries?: readonly CountryCode[] | undefined;
  /** [minLon, minLat, maxLon, maxLat]: only suggestions inside (the Pelias door's `boundary.rect`), likewise. */
  bbox?: readonly [number, number, number, number] | undefined;
}

/** Whether the request wants suggestions of this type. */
const wants = (query: AutocompleteRequest, type: SearchLayer) => !query.layers || query.layers.includes(type);

/** The area types the request wants, and how many areas it offers (all of its size when it wants no streets). */
function areaAsk(query: AutocompleteRequest): { layers: readonly PlaceType[]; size: number } {
  if (!query.layers) return { layers: AUTOCOMPLETE_AREA_TYPES, size: MAX_AREAS };
  const layers = AUTOCOMPLETE_AREA_TYPES.filter((t) => wants(query, t));
  return { layers, size: wants(query, 'street') ? MAX_AREAS : query.size };
}

/**
 * The answer; the first keystrokes (isShortPrefix) with their focus at the centre of its cell, from the shared
 * cache (keyed by everything the answer depends on: the text, the size, the answer language, the focus cell).
 */
export async function answerAutocomplete(
  services: AutocompleteAnswerServices,
  query: AutocompleteRequest,
  acceptLanguage: string | undefined,
): Promise<AutocompleteResults> {
  if (!isShortPrefix(query.q)) return answerNow(services, query, acceptLanguage);
  const focused = query.lat !== undefined && query.lon !== undefined;
  const cell = focused ? { lat: cellCentre(query.lat!), lon: cellCentre(query.lon!) } : {};
  const inCell = { ...query, lat: undefined, lon: undefined, ...cell };
  const language = query.lang ?? preferredLanguage(acceptLanguage);
  // The header counts only through the language it picks: the answer is computed with that language as `lang`.
  const key = JSON.stringify([
    query.q,
    query.size,
    language ?? '',
    inCell.lat ?? '',
    inCell.lon ?? '',
    query.layers,
    query.countries,
    query.bbox,
  ]);
  return services.shortPrefixes.get(key, () => answerNow(services, { ...inCell, lang: language }, undefined));
}

type AnswerServices = Omit<AutocompleteAnswerServices, 'shortPrefixes'>;

/** A word that starts with a digit: the text may hold a house number. */
const HOLDS_NUMBER_RE = /(?:^|[\s,;(])\d/;

async function answerNow(
  services: AnswerServices,
  query: AutocompleteRequest,
  acceptLanguage: string | undefined,
): Promise<AutocompleteResults> {
  const bounds = await boundsOf(services.countryIds, query);
  // No country asked for is indexed: nothing lies in it.
  if (bounds === 'nowhere') return [];
  // Text that reads as nothing to look for (only punctuation: the first keystroke of `'t Zand`) has none.
  const input = parseAutocompleteQuery({ ...query, bounds });
  if (!input) return [];
  const choice = { lang: query.lang, acceptLanguage };
  // The street words typed tell the language ("rue neuve 1": the words before the number).
  const typed = input.kind === 'postcode' ? query.q : input.words.join(' ');
  const inLanguage = (list: Suggestion[]) => suggestionsInLanguage(services.cityNames, list, typed, choice);
  const withTyped = (list: Suggestion[]) =>
    withTypedAddress(services, query, bounds, list, input.kind === 'street', inLanguage);
  if (input.kind !== 'street') {
    const own = wants(query, input.kind) ? await inLanguage(await services.autocomplete.suggest(input)) : [];
    return await withTyped(own);
  }
  const readings = readPlaceQuery(query.q);
  const keys = await services.areaKeys.known().catch(() => undefined);
  // Should the keys fail to load, the text may name an area exactly: the search is sent, as before the keys.
  const naming = keys ? keys.naming(readings) : 'exact';
  const localise = (place: PlaceResult) => placeInLanguage(place, query.q, choice);
  const ask = areaAsk(query);
  const later = laterWordCities(keys, input.words, localise)
    .filter((p) => wants(query, p.type) && placeInBounds(query, p))
    .map(areaSuggestion);
  const areasOf = async () =>
    ask.layers.length ? (await areasNamed(services, query, readings, ask)).map(localise) : [];
  const streets = async () =>
    wants(query, 'street') ? inLanguage(await services.autocomplete.suggest(input, later)) : later;
  // Words without a number may name an area exactly: both searches leave together (one _msearch).
  if (naming === 'exact') {
    const [suggestions, areas] = await Promise.all([streets(), areasOf()]);
    return mergeAreas(suggestions, areas, query.size);
  }
  // Only the start of an area's name: such an area shows only where the streets leave room (most such
  // keystrokes, `de`, `delf`, find ten streets first), so the place search waits for them.
  const suggestions = await withTyped(await streets());
  const room = naming === 'prefix' && prefixAreasCanShow(suggestions.length, query.size);
  return mergeAreas(suggestions, room ? await areasOf() : [], query.size);
}

/**
 * The suggestions in the answer's language. The known cities' names (cached per generation, but behind the
 * once-a-second generation check) are consulted only where a name can change: a language asked for, or a street
 * named in several. A one-language keystroke (all of the Netherlands) costs no more than before.
 */
async function suggestionsInLanguage(
  cityNames: CityNameRepository,
  list: Suggestion[],
  typed: string,
  choice: { lang: Language | undefined; acceptLanguage: string | undefined },
): Promise<Suggestion[]> {
  const several = answerLanguage(choice) !== undefined || list.some((s) => s.street_names);
  const cities = several ? (await cityNames.known()).names : undefined;
  // An area among them is in its language already (placeInLanguage).
  return list.map((s) => (isArea(s) ? s : suggestionInLanguage(s, typed, choice, cities)));
}

/**
 * A text with a house number whose prefix reading found no address (`40 Avenue De Fré`, `9411 xj 3`,
 * `Uithuizen, Departementsstraat 73`, `Rue Neuve 16, 1000 Bruxelles`): the search box's one reading of it
 * (exact tier: the address as typed, any form), those addresses first.
 */
async function withTypedAddress(
  services: AnswerServices,
  query: AutocompleteRequest,
  bounds: AutocompleteBounds | undefined,
  suggestions: Suggestion[],
  streetText: boolean,
  inLanguage: (list: Suggestion[]) => Promise<Suggestion[]>,
): Promise<Suggestion[]> {
  // A street found for the whole text ("1e Jan Stee" → 1e Jan Steenstraat) says it names a street, not an address.
  const answered = suggestions.some((s) => s.type === 'address' || (streetText && s.type === 'street'));
  if (!HOLDS_NUMBER_RE.test(query.q) || answered || !wants(query, 'address')) return suggestions;
  const found = await services.freeText.search({
    q: query.q,
    size: query.size,
    focus: focusOf(query),
    country: query.countries?.length === 1 ? query.countries[0] : undefined,
    tiers: ['exact'],
  });
  // The search box's reading is kept to one country at most: the bounds are checked on its addresses.
  const answers = found.filter((a) => addressInBounds(bounds, a.doc));
  if (answers.length === 0) return suggestions;
  const typedAddresses = await inLanguage(answers.map((a) => addressSuggestion(a.doc)));
  return [...typedAddresses, ...suggestions].slice(0, query.size);
}

/**
 * The areas the text names (exact or prefix names, no typo round: it would cost every keystroke of a street a second
 * round trip).
 */
function areasNamed(
  { places }: AnswerServices,
  query: AutocompleteRequest,
  readings: readonly PlaceReading[],
  ask: { layers: readonly PlaceType[]; size: number },
): Promise<PlaceResult[]> {
  const q = {
    text: query.q,
    size: ask.size,
    focus: focusOf(query),
    layers: ask.layers,
    country: query.countries,
    bbox: query.bbox,
  };
  return places.round(q, readings, false);
}

/**
 * The request's bounds as the address and street documents name them (the countries' hierarchy ids), `nowhere`
 * when it asks only for countries the index does not hold.
 */
async function boundsOf(
  countryIds: CountryIds,
  query: AutocompleteRequest,
): Promise<AutocompleteBounds | undefined | 'nowhere'> {
  if (!query.countries) return query.bbox ? { bbox: query.bbox } : undefined;
  const ids = (await Promise.all(query.countries.map((c) => countryIds.countryIdOf(c)))).filter(
    (id) => id !== undefined,
  );
  return ids.length ? { countryIds: ids, bbox: query.bbox } : 'nowhere';
}

const inBox = (bbox: AutocompleteRequest['bbox'], { lat, lon }: { lat: number; lon: number }) =>
  insideViewport(bbox && { minLon: bbox[0], minLat: bbox[1], maxLon: bbox[2], maxLat: bbox[3] }, lon, lat);

/** Whether a place found without a search (a city by a later word of its name) lies in the request's bounds. */
function placeInBounds(query: AutocompleteRequest, p: PlaceResult): boolean {
  const inCountry = !query.countries || (query.countries as readonly string[]).includes(p.country);
  return inCountry && inBox(query.bbox, { lat: p.latitude, lon: p.longitude });
}

/** Whether an address of the search box's reading lies in the bounds. */
function addressInBounds(
  bounds: AutocompleteBounds | undefined,
  doc: { country_id: string; location: { lat: number; lon: number } },
): boolean {
  const inCountry = !bounds?.countryIds || bounds.countryIds.includes(doc.country_id);
  return inCountry && inBox(bounds?.bbox, doc.location);
}
