/**
 * The one intermediate form every compatibility dialect (Nominatim, Photon, Pelias) formats from: a domain result
 * of the search box (SearchBoxResult), of the type-ahead (a localised suggestion), of the reverse (ReverseResult) or
 * an address document, flattened into the fields those APIs share (house number, street, postcode, city, province,
 * country). Pure: the dialects never search themselves (dialectSearch.ts runs the one search); each dialect's
 * format.ts shapes these places as its answers.
 */
import type { PlaceType } from '../../../core/elasticsearch/documents.js';
import type { Language } from '../../language/answerLanguage.js';
import { DUTCH_POSTCODE_RE } from '../../../core/text/postcodePatterns.js';
import { countryOfAreaName, countryOfCode } from '../../../core/text/countries.js';
import type { LocalisedSuggestion } from '../autocomplete/suggestionLanguage.js';
import type { SearchBoxResult } from '../search/searchBox.js';
import { addressLabel } from '../search/searchRecords.js';
import { namesIfSeveral } from '../places/placeRecords.js';
import type { ReverseResult } from '../reverse/reverseAnswer.js';
import { streetId } from '../../../core/elasticsearch/stableIds.js';

/** What a dialect result is: an address or one of the search box's place types (each dialect names every one). */
export type PlaceKind = 'address' | PlaceType;

export interface DialectPlace {
  /**
   * Our id: an address id, a street id (the streets index's, which /search and /autocomplete give the street and
   * /reverse gives an address's street as `street_id`), `postcode:<country>:<code>`, or an area's hierarchy id.
   */
  id: string;
  kind: PlaceKind;
  /** The place's own name: the address as "Mekelweg 8", a street's, an area's name. */
  name: string;
  /** The native label ("Mekelweg 8, 2628CD Delft"). */
  label: string;
  lon: number;
  lat: number;
  /** [minLon, minLat, maxLon, maxLat]; a point's own box where the native answer has none. */
  bbox: [number, number, number, number];
  housenumber: string;
  street: string;
  postcode: string;
  suburb: string;
  city: string;
  municipality: string;
  province: string;
  country: string;
  /** ISO 3166-1 alpha-2, upper case; "" when unknown. */
  countryCode: string;
  /** 0..1, the native confidence. */
  confidence: number;
  /** The name per language where there are several (Brussels). */
  names: Record<string, string>;
}

/** Only two countries are indexed: a Dutch postcode (1234AB) or a Belgian one (1234). */
export function countryOfPostcode(postcode: string): string {
  if (DUTCH_POSTCODE_RE.test(postcode)) return 'NL';
  return /^\d{4}$/.test(postcode.trim()) ? 'BE' : '';
}

/** The country's name as the areas index has it, from its code ("" unknown). */
export const countryName = (code: string) => countryOfCode(code)?.areaName ?? '';
/** The code from the areas index's country name. */
export const countryCodeOf = (name: string) => countryOfAreaName(name)?.code ?? '';

const pointBox = (lon: number, lat: number): [number, number, number, number] => [lon, lat, lon, lat];

const EMPTY = { housenumber: '', street: '', postcode: '', suburb: '', city: '', municipality: '', province: '' };

/** What an address record (search, reverse, lookup) carries. */
interface AddressLike {
  id: string;
  number: string;
  suffix: string;
  streetname: string;
  postcode: string;
  city: string;
  longitude: number;
  latitude: number;
}

export function addressPlace(a: AddressLike, confidence: number, label?: string): DialectPlace {
  const housenumber = `${a.number}${a.suffix}`;
  const code = countryOfPostcode(a.postcode);
  const place = [a.postcode, a.city].filter(Boolean).join(' ');
  return {
    ...EMPTY,
    id: a.id,
    kind: 'address',
    name: `${a.streetname} ${housenumber}`.trim(),
    label: label ?? [`${a.streetname} ${housenumber}`.trim(), place].filter(Boolean).join(', '),
    lon: a.longitude,
    lat: a.latitude,
    bbox: pointBox(a.longitude, a.latitude),
    housenumber,
    street: a.streetname,
    postcode: a.postcode,
    city: a.city,
    country: countryName(code),
    countryCode: code,
    confidence,
    names: {},
  };
}

/** One result of the search box. */
export function searchPlace(r: SearchBoxResult): DialectPlace {
  if (r.type === 'address') {
    const doc = r.doc;
    const address = { ...doc, longitude: doc.location.lon, latitude: doc.location.lat };
    return addressPlace(address, r.confidence, addressLabel(doc));
  }
  const common = {
    ...EMPTY,
    id: r.id,
    kind: r.type,
    label: r.label,
    lon: r.longitude,
    lat: r.latitude,
    bbox: r.bbox,
    confidence: r.confidence,
  };
  // The names the native record shows: only where there is a choice (namesIfSeveral).
  const names = namesIfSeveral(r.names).names ?? {};
  if (r.type === 'street') {
    const streetname = r.streetname || r.name;
    const code = countryOfPostcode(r.postcode);
    return {
      ...common,
      name: streetname,
      street: streetname,
      postcode: r.postcode,
      city: r.city,
      names,
      country: countryName(code),
      countryCode: code,
    };
  }
  if (r.type === 'postcode') {
    const postcode = r.postcode || r.name;
    const code = countryOfPostcode(postcode);
    return {
      ...common,
      name: postcode,
      postcode,
      city: r.city,
      names: {},
      country: countryName(code),
      countryCode: code,
    };
  }
  const p = r.parents;
  const own = (kind: PlaceKind) => (r.type === kind ? r.name : '');
  return {
    ...common,
    name: r.name,
    names,
    suburb: own('suburb'),
    city: own('city') || p.city,
    municipality: own('municipality') || p.municipality,
    province: own('province') || p.province,
    country: own('country') || p.country,
    countryCode: r.type === 'country' ? r.local_identifier.toUpperCase() : countryCodeOf(p.country),
  };
}

const OWN_FIELD: Partial<Record<PlaceKind, 'street' | 'suburb' | 'city' | 'municipality' | 'province' | 'country'>> = {
  street: 'street',
  suburb: 'suburb',
  city: 'city',
  municipality: 'municipality',
  province: 'province',
  country: 'country',
};

/**
 * A place's own name in the answer's language where it has one (the native search shows a place's primary name
 * with `names`; a dialect's clients read one name): "Elizastraat" as "Rue Élise" for `fr`.
 */
export function inLanguage(p: DialectPlace, language: Language | undefined): DialectPlace {
  const name = language && p.names[language];
  if (!name || name === p.name) return p;
  const field = OWN_FIELD[p.kind];
  const label = p.label.startsWith(p.name) ? name + p.label.slice(p.name.length) : p.label;
  return { ...p, name, label, ...(field ? { [field]: name } : {}) };
}

/** One suggestion of the type-ahead (an area's name is its label's first part). */
export function suggestionPlace(s: LocalisedSuggestion): DialectPlace {
  const lon = s.location.lon;
  const lat = s.location.lat;
  if (s.type === 'address') {
    return addressPlace({ ...s, id: s.id ?? '', longitude: lon, latitude: lat }, 1, s.label);
  }
  const code = countryOfPostcode(s.postcode);
  const name =
    s.type === 'street' ? s.streetname : s.type === 'postcode' ? s.postcode : (s.label.split(',')[0] ?? s.label);
  return {
    ...EMPTY,
    id: s.id ?? '',
    kind: s.type,
    name,
    label: s.label,
    lon,
    lat,
    bbox: s.bbox ?? pointBox(lon, lat),
    street: s.streetname,
    postcode: s.postcode,
    city: s.type === 'city' ? name : s.city,
    country: s.type === 'country' ? name : countryName(code),
    countryCode: code,
    confidence: 1,
    names: s.names?.streetname ?? {},
  };
}

type Reverse = ReverseResult;

function parentsOf(areas: Reverse['areas']): ParentNames {
  return {
    suburb: areas.suburb?.name ?? '',
    city: areas.city?.name ?? '',
    municipality: areas.municipality?.name ?? '',
    province: areas.province?.name ?? '',
    country: areas.country?.name ?? '',
    countryCode: areas.country?.local_identifier.toUpperCase() ?? '',
  };
}

/** The reverse answer's addresses, nearest first, with the names of the areas around the point. */
export function reverseAddresses(answer: Reverse): DialectPlace[] {
  const parents = parentsOf(answer.areas);
  return answer.addresses.map((a) => ({
    ...addressPlace({ ...a, longitude: a.location.lon, latitude: a.location.lat }, 1),
    ...parents,
    city: a.city || parents.city,
  }));
}

/** The levels a reverse answer can be given at, smallest first. */
export const REVERSE_LEVELS = ['address', 'street', 'suburb', 'city', 'municipality', 'province', 'country'] as const;
export type ReverseLevel = (typeof REVERSE_LEVELS)[number];

/**
 * The native reverse answer at `level`, or the next larger level that has something (nothing at all: undefined).
 * An address level is the nearest address; a street the nearest address's street (at that address's point); an
 * area has no point in the reverse answer, so it is given at the point asked.
 */
export function reversePlace(answer: Reverse, level: ReverseLevel, at: { lat: number; lon: number }) {
  const parents = parentsOf(answer.areas);
  const [place] = reverseAddresses(answer);
  for (const candidate of REVERSE_LEVELS.slice(REVERSE_LEVELS.indexOf(level))) {
    const nearest = answer.addresses[0];
    if (candidate === 'address' || candidate === 'street') {
      if (!place || !nearest) continue;
      if (candidate === 'address') return place;
      const names = nearest.names?.streetname ?? {};
      const label = [nearest.streetname, place.city].filter(Boolean).join(', ');
      return {
        ...place,
        kind: 'street',
        id: streetId(nearest.street_key, nearest.city_key),
        name: nearest.streetname,
        housenumber: '',
        label,
        names,
      } satisfies DialectPlace;
    }
    const areas = answer.areas;
    const area = areas[candidate];
    if (!area) continue;
    return areaPlace(area, candidate, parents, at);
  }
  return undefined;
}

type AreaLevelName = Exclude<ReverseLevel, 'address' | 'street'>;
type ParentNames = Record<AreaLevelName, string> & { countryCode: string };

/** An area of the reverse answer: its own name at its level, the larger areas' names above it, nothing below. */
function areaPlace(
  area: NonNullable<Reverse['areas']['city']>,
  level: AreaLevelName,
  parents: ParentNames,
  at: { lat: number; lon: number },
): DialectPlace {
  const rank = REVERSE_LEVELS.indexOf(level);
  const named = (l: AreaLevelName) => (l === level ? area.name : REVERSE_LEVELS.indexOf(l) > rank ? parents[l] : '');
  const levels = ['suburb', 'city', 'municipality', 'province', 'country'] as const;
  const label = levels.map(named).filter((n, i, all) => n && all.indexOf(n) === i);
  return {
    ...EMPTY,
    suburb: named('suburb'),
    city: named('city'),
    municipality: named('municipality'),
    province: named('province'),
    country: named('country'),
    countryCode: parents.countryCode,
    id: area.id,
    kind: level,
    name: area.name,
    label: label.join(', '),
    lon: at.lon,
    lat: at.lat,
    bbox: pointBox(at.lon, at.lat),
    confidence: 1,
    names: area.names ?? {},
  };
}
