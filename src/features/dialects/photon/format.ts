/** Photon's format: our places as its GeoJSON features (https://github.com/komoot/photon#search-api), its error. Pure. */
import { z } from 'zod';
import type { DialectPlace, PlaceKind } from '../place.js';

const TYPES: Record<PlaceKind, { type: string; key: string; value: string }> = {
  address: { type: 'house', key: 'place', value: 'house' },
  street: { type: 'street', key: 'highway', value: 'residential' },
  postcode: { type: 'other', key: 'place', value: 'postcode' },
  suburb: { type: 'district', key: 'place', value: 'suburb' },
  city: { type: 'city', key: 'place', value: 'city' },
  municipality: { type: 'county', key: 'boundary', value: 'administrative' },
  province: { type: 'state', key: 'boundary', value: 'administrative' },
  country: { type: 'country', key: 'place', value: 'country' },
};

/** One place as a Photon feature: its properties, and `extent` [minLon, maxLat, maxLon, minLat] for areas. */
export function photonFeature(p: DialectPlace) {
  const t = TYPES[p.kind];
  const [minLon, minLat, maxLon, maxLat] = p.bbox;
  const fields: Record<string, string> = {
    name: p.kind === 'address' ? '' : p.name,
    housenumber: p.housenumber,
    street: p.street,
    postcode: p.postcode,
    district: p.suburb,
    city: p.city,
    county: p.municipality === p.city ? '' : p.municipality,
    state: p.province,
    country: p.country,
    countrycode: p.countryCode,
  };
  const hasExtent = minLon !== maxLon || minLat !== maxLat;
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [p.lon, p.lat] },
    properties: {
      id: p.id,
      osm_key: t.key,
      osm_value: t.value,
      type: t.type,
      ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v)),
      ...(hasExtent ? { extent: [minLon, maxLat, maxLon, minLat] } : {}),
    },
  };
}

export const photonCollection = (places: readonly DialectPlace[]) => ({
  type: 'FeatureCollection',
  features: places.map(photonFeature),
});

/** Photon's error body. */
export const PhotonError = z.object({ message: z.string() });
