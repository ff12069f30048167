/**
 * `format=geojson` on the result lists (/search, /autocomplete, /reverse) against the real Elasticsearch holding
 * the sample: RFC 7946 well-formed (@placemarkio/check-geojson), one Point per result with exactly the JSON
 * record as its properties, the record's bbox as the feature's, a collection bbox over all; the media type as
 * Accept asks; an unknown format is a 400 naming it; a GeoJSON library (turf) reads the answer as it is; Leaflet
 * reads it in the map page's browser test.
 */
import { getIssues } from '@placemarkio/check-geojson';
import { bbox as turfBbox } from '@turf/bbox';
import type { BBox, FeatureCollection, Point } from 'geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AutocompleteFeatureCollection,
  ReverseFeatureCollection,
  SearchFeatureCollection,
} from '../../../../../src/schemas/responses.js';
import { startTestApi, type TestApi } from '../../../../support/api.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

type Located = { longitude: number; latitude: number; bbox?: BBox; id?: string };

async function both(path: string, headers: Record<string, string> = {}) {
  const json = await api.call('GET', path, { headers });
  expect(json.status, json.text.slice(0, 300)).toBe(200);
  const geojson = await api.call('GET', `${path}&format=geojson`, { headers });
  expect(geojson.status, geojson.text.slice(0, 300)).toBe(200);
  const issues = getIssues(geojson.text);
  expect(issues, JSON.stringify(issues.slice(0, 3))).toEqual([]);
  return { json: json.body, collection: geojson.body as FeatureCollection<Point, Located> & { bbox?: BBox } };
}

const inside = (box: BBox, [lon, lat]: number[]) =>
  box[0] <= lon! && lon! <= box[2] && box[1] <= lat! && lat! <= box[3];
const covers = (outer: BBox, inner: BBox) => inside(outer, [inner[0], inner[1]]) && inside(outer, [inner[2], inner[3]]);

/** One Point feature per record, in order: the record as properties, its point, bbox and id on the feature. */
function expectFeaturesOf(records: Located[], collection: FeatureCollection<Point, Located> & { bbox?: BBox }) {
  expect(collection.type).toBe('FeatureCollection');
  expect(collection.features.map((f) => f.properties)).toEqual(records);
  for (const feature of collection.features) {
    const record = feature.properties;
    expect(feature.geometry).toEqual({ type: 'Point', coordinates: [record.longitude, record.latitude] });
    expect(feature.bbox).toEqual(record.bbox);
    if (record.id) expect(feature.id).toBe(record.id);
    expect(inside(collection.bbox!, feature.geometry.coordinates)).toBe(true);
    if (feature.bbox) expect(covers(collection.bbox!, feature.bbox)).toBe(true);
  }
  // A GeoJSON library reads it as it is: turf's envelope of the points lies inside the collection's bbox.
  if (records.length) expect(covers(collection.bbox!, turfBbox(collection, { recompute: true }))).toBe(true);
}

describe('format=geojson', () => {
  it('GET /search: places and addresses, each with its properties, bbox and id', async () => {
    const { json, collection } = await both('/search?q=Delft');
    expect(json[0]).toMatchObject({ type: 'city', name: 'Delft' });
    SearchFeatureCollection.parse(collection);
    expectFeaturesOf(json, collection);
    expect(collection.features[0]!.bbox).toEqual(json[0].bbox);

    const address = await both('/search?q=Mekelweg%208%20Delft');
    expect(address.json[0]).toMatchObject({ type: 'address', number: '8' });
    // An address has no bbox: its feature has none either.
    expect(address.collection.features[0]!.bbox).toBeUndefined();
    expectFeaturesOf(address.json, address.collection);
  });

  it('GET /search: the names in the language asked, in both formats', async () => {
    // An address: /search's place results keep their primary name whatever `lang` says (docs/belgium-and-languages.md).
    const { json, collection } = await both(`/search?q=${encodeURIComponent('Elizastraat 117 Elsene')}&lang=fr`);
    expect(json[0]).toMatchObject({ type: 'address', streetname: 'Rue Élise', city: 'Ixelles' });
    expectFeaturesOf(json, collection);
  });

  it('GET /autocomplete: streets, addresses and areas', async () => {
    for (const q of ['Mek', 'Mekelweg%208', 'Delf', '2628']) {
      const { json, collection } = await both(`/autocomplete?q=${q}`);
      expect(json.length, q).toBeGreaterThan(0);
      AutocompleteFeatureCollection.parse(collection);
      expectFeaturesOf(json, collection);
    }
  });

  it('GET /reverse: the addresses as points, the areas as a member of the collection', async () => {
    const { json, collection } = await both('/reverse?lat=51.99535&lon=4.37588&size=5&radius=500');
    expect(json.addresses.length).toBeGreaterThan(1);
    ReverseFeatureCollection.parse(collection);
    expectFeaturesOf(json.addresses, collection);
    expect((collection as unknown as { areas: unknown }).areas).toEqual(json.areas);
  });

  it('GET /reverse with nothing near: an empty collection, still 200', async () => {
    const { json, collection } = await both('/reverse?lat=53.2&lon=3.5&radius=5000&size=5');
    expect(json.addresses).toEqual([]);
    expect(collection).toEqual({ type: 'FeatureCollection', features: [], areas: json.areas });
  });

  it('answers application/json unless Accept prefers application/geo+json', async () => {
    for (const path of ['/search?q=Delft', '/autocomplete?q=Delf', '/reverse?lat=51.99535&lon=4.37588']) {
      const plain = await api.call('GET', `${path}&format=geojson`);
      expect(plain.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(plain.headers.get('vary'), path).toMatch(/Accept(,|$)/);
      const asked = await api.call('GET', `${path}&format=geojson`, {
        headers: { Accept: 'application/geo+json, application/json;q=0.5' },
      });
      expect(asked.status).toBe(200);
      expect(asked.headers.get('content-type'), path).toMatch(/^application\/geo\+json/);
      expect(asked.body).toEqual(plain.body);
      // The JSON format stays JSON whatever Accept says.
      const json = await api.call('GET', path, { headers: { Accept: 'application/geo+json' } });
      expect(json.headers.get('content-type'), path).toMatch(/^application\/json/);
    }
  });

  it('refuses an unknown format with a 400 naming it', async () => {
    for (const path of ['/search?q=Delft', '/autocomplete?q=Delf', '/reverse?lat=52&lon=4.37']) {
      for (const format of ['xml', 'GeoJSON', '']) {
        const res = await api.call('GET', `${path}&format=${format}`);
        expect(res.status, `${path} ${format}`).toBe(400);
        expect(res.body.error.code).toBe('invalid_request');
        expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(['query.format']);
      }
    }
  });
});
