/**
 * Every GeoJSON endpoint over the sample data, through the real HTTP app: RFC 7946 well-formedness
 * (@placemarkio/check-geojson), OGC validity (JSTS IsValidOp), RFC winding (exterior rings
 * counter-clockwise), at most 6 decimals, and representative points inside their own geometry.
 */
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { getIssues } from '@placemarkio/check-geojson';
import type { Feature, FeatureCollection, MultiPolygon, Polygon, Position } from 'geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJts, validityError } from '../../../../../indexer/geometry/jsts.js';
import { startTestApi, type TestApi } from '../../../../support/api.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

async function collection(path: string): Promise<FeatureCollection> {
  const res = await api.call('GET', path);
  expect(res.status, `${path}: ${res.text.slice(0, 300)}`).toBe(200);
  const issues = getIssues(res.text);
  expect(issues, `${path}: ${JSON.stringify(issues.slice(0, 3))}`).toEqual([]);
  return res.body as FeatureCollection;
}

/** Signed shoelace area: positive for a counter-clockwise ring. */
function signedArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 1; i < ring.length; i++) {
    const a = ring[i - 1] as number[];
    const b = ring[i] as number[];
    sum += (a[0] as number) * (b[1] as number) - (b[0] as number) * (a[1] as number);
  }
  return sum / 2;
}

function decimals(v: number): number {
  const text = String(v);
  return text.includes('.') ? (text.split('.')[1] as string).length : 0;
}

/** Problems of one boundary feature; empty when it is right. */
function problems(feature: Feature, where: string): string[] {
  const out: string[] = [];
  if (feature.geometry.type !== 'Polygon' && feature.geometry.type !== 'MultiPolygon') {
    return [`${where}: ${feature.geometry.type} is not polygonal`];
  }
  const g: Polygon | MultiPolygon = feature.geometry;
  const invalid = validityError(toJts(g));
  if (invalid) out.push(`${where}: ${invalid}`);
  const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  for (const rings of polygons) {
    rings.forEach((ring, i) => {
      const area = signedArea(ring);
      if (i === 0 ? area <= 0 : area >= 0) out.push(`${where}: ring ${i} wound the wrong way`);
      for (const p of ring) {
        if (decimals(p[0] as number) > 6 || decimals(p[1] as number) > 6) out.push(`${where}: ${p} has > 6 decimals`);
      }
    });
  }
  const centroid = (feature.properties as { centroid: [number, number] }).centroid;
  if (!booleanPointInPolygon(centroid, g)) out.push(`${where}: centroid ${centroid} outside its geometry`);
  return out.slice(0, 5);
}

async function checkLevel(path: string, expected?: number): Promise<Feature[]> {
  const shapes = await collection(path);
  const points = await collection(`${path}${path.includes('?') ? '&' : '?'}geometry=centroid`);
  if (expected !== undefined) expect(shapes.features).toHaveLength(expected);
  const found = shapes.features.flatMap((f) => problems(f, `${path} ${String(f.properties?.name ?? f.id)}`));
  const pointById = new Map(points.features.map((f) => [f.id, f.geometry]));
  for (const f of shapes.features) {
    const point = pointById.get(f.id);
    if (point?.type !== 'Point') found.push(`${path} ${f.id}: no centroid feature`);
    else if (!booleanPointInPolygon(point.coordinates, f.geometry as Polygon)) {
      found.push(`${path} ${String(f.properties?.name)}: ?geometry=centroid outside its geometry`);
    }
  }
  expect(found).toEqual([]);
  return shapes.features;
}

describe('GeoJSON validity of the sample', () => {
  it('countries, provinces and municipalities are valid, CCW, 6 decimals, with inside points', async () => {
    const countries = await checkLevel('/countries/geojson', 240);
    const nl = countries.find((f) => f.properties?.country_code === 'NL');
    expect(nl).toBeDefined();
    const provinces = await checkLevel(`/countries/${nl!.id}/provinces/geojson`, 12);
    let municipalities = 0;
    for (const province of provinces) {
      municipalities += (await checkLevel(`/provinces/${province.id}/municipalities/geojson`)).length;
    }
    expect(municipalities).toBe(342);
  }, 120_000);

  it("Delft's cities, suburbs and buildings are valid, and BAG ids keep their leading zero", async () => {
    const cities = (await api.call('GET', '/cities?name=delft')).body as { id: string }[];
    expect(cities.length).toBeGreaterThan(0);
    const buildingIds: string[] = [];
    for (const city of cities) {
      await checkLevel(`/cities/${city.id}/geojson`, 1);
      const suburbs = await checkLevel(`/cities/${city.id}/suburbs/geojson`);
      for (const suburb of suburbs) {
        const buildings = await checkLevel(`/suburbs/${suburb.id}/buildings/geojson`);
        buildingIds.push(...buildings.map((b) => String(b.properties?.local_identifier ?? '')));
      }
    }
    const bagIds = buildingIds.filter((id) => id !== '');
    expect(bagIds.length).toBeGreaterThan(1000);
    expect(bagIds.every((id) => /^[0-9]{16}$/.test(id))).toBe(true);
    expect(bagIds).toContain('0503100000004746');
  }, 120_000);
});
