/**
 * Our places in Nominatim's result formats (json, jsonv2, geojson, geocodejson), with the fields its clients read:
 * `place_id`, `lat`/`lon` as strings, `display_name`, `boundingbox` as strings [minlat, maxlat, minlon, maxlon],
 * `class`/`category`, `type`, `place_rank`, `addresstype`, `importance`, `address{}`, `licence` (the credits of the
 * sources of what the result shows, from the live generation's attribution table: a Brussels address names BeST
 * Address, a Delft one its own source). Pure.
 */
import type { Geometry } from 'geojson';
import { z } from 'zod';
import type { Attribution } from '../../../indexes/attribution.js';
import { sourcesOf, sourcesOfAll } from '../attribution.js';
import type { DialectPlace, PlaceKind } from '../place.js';
import type { NominatimFormat } from './nominatimQuery.js';

/** Nominatim's class, type, rank and address type for each of our kinds. */
const KIND: Record<PlaceKind, { class: string; type: string; rank: number; addresstype: string }> = {
  address: { class: 'place', type: 'house', rank: 30, addresstype: 'place' },
  street: { class: 'highway', type: 'residential', rank: 26, addresstype: 'road' },
  postcode: { class: 'place', type: 'postcode', rank: 21, addresstype: 'postcode' },
  suburb: { class: 'place', type: 'suburb', rank: 20, addresstype: 'suburb' },
  city: { class: 'place', type: 'city', rank: 16, addresstype: 'city' },
  municipality: { class: 'boundary', type: 'administrative', rank: 14, addresstype: 'municipality' },
  province: { class: 'boundary', type: 'administrative', rank: 8, addresstype: 'state' },
  country: { class: 'boundary', type: 'administrative', rank: 4, addresstype: 'country' },
};

/** Nominatim's address details, smallest part first, the empty parts left out. */
export function nominatimAddress(p: DialectPlace): Record<string, string> {
  const parts: [string, string][] = [
    ['house_number', p.housenumber],
    ['road', p.street],
    ['suburb', p.suburb],
    ['city', p.city],
    ['municipality', p.municipality === p.city ? '' : p.municipality],
    ['state', p.province],
    ['postcode', p.postcode],
    ['country', p.country],
    ['country_code', p.countryCode.toLowerCase()],
  ];
  return Object.fromEntries(parts.filter(([, v]) => v));
}

/** "8, Mekelweg, Delft, Zuid-Holland, 2628CD, Netherlands": Nominatim's order, smallest first. */
export function displayName(p: DialectPlace): string {
  const parts = [p.housenumber, p.kind === 'postcode' ? '' : p.street, p.suburb, p.city, p.municipality, p.province];
  const all = [...parts, p.postcode, p.country].filter(Boolean);
  return all.filter((v, i) => all.indexOf(v) === i).join(', ') || p.label;
}

const pointOf = (p: DialectPlace): Geometry => ({ type: 'Point', coordinates: [p.lon, p.lat] });

const fixed = (n: number) => String(Math.round(n * 1e7) / 1e7);

export interface NominatimOptions {
  format: NominatimFormat;
  addressdetails: boolean;
  namedetails: boolean;
  /** polygon_geojson: the areas' outlines by place id (./outlines.ts). */
  outlines?: ReadonlyMap<string, Geometry> | undefined;
  /** Whom the live generation's data comes from: each `licence` names its result's sources. */
  attribution: Attribution;
}

function nameDetails(p: DialectPlace): Record<string, string> {
  const named = Object.entries(p.names).map(([lang, name]) => [`name:${lang}`, name] as const);
  return Object.fromEntries([['name', p.name] as const, ...named]);
}

/** One result as format=json or jsonv2 has it. */
export function nominatimPlace(p: DialectPlace, o: NominatimOptions): Record<string, unknown> {
  const kind = KIND[p.kind];
  const [minLon, minLat, maxLon, maxLat] = p.bbox;
  return {
    place_id: p.id,
    licence: o.attribution.text(sourcesOf(p)),
    lat: fixed(p.lat),
    lon: fixed(p.lon),
    ...(o.format === 'jsonv2' ? { category: kind.class } : { class: kind.class }),
    ...described(p, o),
    boundingbox: [fixed(minLat), fixed(maxLat), fixed(minLon), fixed(maxLon)],
    ...(o.outlines ? { geojson: o.outlines.get(p.id) ?? pointOf(p) } : {}),
  };
}

/** What the json, jsonv2 and geojson formats all say of a place, after its id and class. */
function described(p: DialectPlace, o: NominatimOptions) {
  const kind = KIND[p.kind];
  return {
    type: kind.type,
    place_rank: kind.rank,
    importance: p.confidence,
    addresstype: kind.addresstype,
    name: p.name,
    display_name: displayName(p),
    ...(o.addressdetails ? { address: nominatimAddress(p) } : {}),
    ...(o.namedetails ? { namedetails: nameDetails(p) } : {}),
  };
}

function geojsonFeature(p: DialectPlace, o: NominatimOptions) {
  return {
    type: 'Feature',
    properties: {
      place_id: p.id,
      category: KIND[p.kind].class,
      ...described(p, o),
    },
    bbox: p.bbox,
    geometry: o.outlines?.get(p.id) ?? pointOf(p),
  };
}

function geocodejsonFeature(p: DialectPlace) {
  const a = nominatimAddress(p);
  const kind = KIND[p.kind];
  const fields: Record<string, string | undefined> = {
    place_id: p.id,
    type: p.kind === 'address' ? 'house' : p.kind,
    osm_key: kind.class,
    osm_value: kind.type,
    label: displayName(p),
    name: p.name,
    housenumber: a.house_number,
    street: a.road,
    postcode: a.postcode,
    district: a.suburb,
    city: a.city,
    county: a.municipality,
    state: a.state,
    country: a.country,
    country_code: a.country_code,
  };
  const geocoding = Object.fromEntries(Object.entries(fields).filter(([, v]) => v));
  return {
    type: 'Feature',
    properties: { geocoding },
    geometry: { type: 'Point', coordinates: [p.lon, p.lat] },
  };
}

/** A list of results in the format asked for; `query`: the text searched, for geocodejson's header. */
export function nominatimResults(places: readonly DialectPlace[], o: NominatimOptions, query = ''): unknown {
  if (o.format === 'geojson') {
    const licence = o.attribution.text(sourcesOfAll(places));
    return { type: 'FeatureCollection', licence, features: places.map((p) => geojsonFeature(p, o)) };
  }
  if (o.format === 'geocodejson') {
    const licence = o.attribution.text(sourcesOfAll(places));
    return {
      type: 'FeatureCollection',
      geocoding: { version: '0.1.0', attribution: licence, licence, query },
      features: places.map(geocodejsonFeature),
    };
  }
  return places.map((p) => nominatimPlace(p, o));
}

/** /reverse answers one object, not a list; nothing there is Nominatim's error object (geopy reads it as None). */
export function nominatimReverse(place: DialectPlace | undefined, o: NominatimOptions): unknown {
  if (!place) return { error: 'Unable to geocode' };
  if (o.format === 'json' || o.format === 'jsonv2') return nominatimPlace(place, o);
  return nominatimResults([place], o);
}

/** Nominatim's own error shape: `{"error": {"code": 400, "message": "..."}}`. */
export const NominatimError = z.object({ error: z.object({ code: z.number().int(), message: z.string() }) });

export function nominatimError(status: number, message: string) {
  return { error: { code: status, message } };
}
