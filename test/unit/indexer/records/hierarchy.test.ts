import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { bboxOf, centroidOf } from '../../../../indexer/geometry/checks.js';
import { DerivedCities } from '../../../../indexer/derived/derivedCities.js';
import { Hierarchy } from '../../../../indexer/records/hierarchy.js';
import { sourceKey, stableId } from '../../../../indexer/records/ids.js';
import type { AreaLevelName } from '../../../../indexer/base/levels.js';
import { type AreaRecord, type BuildingRecord, emptyParents } from '../../../../indexer/records/records.js';
import { boxPolygon } from '../../../support/geometry.js';

function area(level: AreaLevelName, key: string, geometry: Polygon, extra: Partial<AreaRecord> = {}): AreaRecord {
  const bbox = bboxOf(geometry);
  return {
    level,
    key,
    id: stableId(level, key),
    sourceKey: sourceKey(level, key),
    name: key,
    localIdentifier: key,
    countryCode: '',
    countryCode3: '',
    geometry,
    bbox,
    centroid: centroidOf(geometry, bbox),
    parents: emptyParents(),
    parentId: '',
    ...extra,
  };
}

/** Country 0..10, province 0..5, municipality 0..4, city 0..2, suburb 0..1, building 0.2..0.4. */
function world(): Hierarchy {
  const h = new Hierarchy();
  const nl = area('countries', 'NLD', boxPolygon(0, 0, 10, 10), {
    localIdentifier: 'NL',
    countryCode: 'NL',
    countryCode3: 'NLD',
  });
  h.addAreaLevel('countries', [nl]);
  const pv = h.completeArea(
    area('provinces', 'PV28', boxPolygon(0, 0, 5, 5)),
    h.resolveByCode('countries', 'local_identifier', 'NL').parents,
  );
  h.addAreaLevel('provinces', [pv]);
  const gm = h.completeArea(
    area('municipalities', 'GM0503', boxPolygon(0, 0, 4, 4)),
    h.resolveSpatial('municipalities', 3.5, 3.5).parents,
  );
  h.addAreaLevel('municipalities', [gm]);
  const city = h.completeArea(
    area('cities', '2138', boxPolygon(0, 0, 2, 2)),
    h.resolveSpatial('cities', 1.5, 1.5).parents,
  );
  h.addAreaLevel('cities', [city]);
  const wk = h.completeArea(
    area('suburbs', 'WK050324', boxPolygon(0, 0, 1, 1)),
    h.resolveSpatial('suburbs', 0.5, 0.5).parents,
  );
  h.addAreaLevel('suburbs', [wk]);
  const footprint = boxPolygon(0.2, 0.2, 0.4, 0.4);
  const building: BuildingRecord = {
    id: 'b1',
    sourceKey: 'buildings:1',
    localIdentifier: '1',
    buildingType: 'house',
    geometry: footprint,
    bbox: bboxOf(footprint),
    centroid: { lon: 0.3, lat: 0.3 },
    anchor: [0.3, 0.3],
  };
  h.setBuildings([building]);
  return h;
}

const id = (level: AreaLevelName, key: string) => stableId(level, key);

describe('Hierarchy', () => {
  it('gives an address every level, inheriting the chain of its nearest parent', () => {
    const h = world();
    const r = h.resolveSpatial('addresses', 0.3, 0.3);
    expect(r.parents).toEqual({
      building_id: 'b1',
      suburb_id: id('suburbs', 'WK050324'),
      city_id: id('cities', '2138'),
      municipality_id: id('municipalities', 'GM0503'),
      province_id: id('provinces', 'PV28'),
      country_id: id('countries', 'NLD'),
    });
    expect(r.unassigned).toEqual([]);
  });

  it('looks levels up directly where the chain leaves them open, and reports the missing ones', () => {
    const h = world();
    const r = h.resolveSpatial('addresses', 3, 3);
    expect(r.parents.city_id).toBe('');
    expect(r.parents.municipality_id).toBe(id('municipalities', 'GM0503'));
    expect(r.parents.country_id).toBe(id('countries', 'NLD'));
    expect(r.unassigned).toEqual(['buildings', 'suburbs', 'cities']);
    expect(h.resolveSpatial('addresses', 50, 50).unassigned).toEqual([
      'buildings',
      'suburbs',
      'cities',
      'municipalities',
      'provinces',
      'countries',
    ]);
  });

  it('fills area documents: parent_id is the nearest found ancestor, country codes are inherited', () => {
    const h = world();
    const wk = h.area(id('suburbs', 'WK050324'));
    expect(wk?.parentId).toBe(id('cities', '2138'));
    expect(wk?.parents).toEqual({
      country_id: id('countries', 'NLD'),
      province_id: id('provinces', 'PV28'),
      municipality_id: id('municipalities', 'GM0503'),
      city_id: id('cities', '2138'),
    });
    expect(wk?.countryCode).toBe('NL');
    expect(wk?.countryCode3).toBe('NLD');
    const pv = h.area(id('provinces', 'PV28'));
    expect(pv?.parentId).toBe(id('countries', 'NLD'));
  });

  it('resolves by code and counts a missing code parent as unassigned', () => {
    const h = world();
    expect(h.resolveByCode('provinces', 'local_identifier', 'PV28').parents.country_id).toBe(id('countries', 'NLD'));
    const missing = h.resolveByCode('provinces', 'local_identifier', 'PV99');
    expect(missing.unassigned).toEqual(['provinces', 'countries']);
    expect(h.findByCode('countries', 'country_code3', 'NLD')?.key).toBe('NLD');
    expect(h.findByCode('countries', 'local_identifier', '')).toBeUndefined();
  });

  it('only counts levels the dataset has', () => {
    const h = new Hierarchy();
    h.addAreaLevel('countries', [area('countries', 'BEL', boxPolygon(0, 0, 10, 10))]);
    expect(h.resolveSpatial('addresses', 1, 1).unassigned).toEqual([]);
    h.markPending('cities');
    expect(h.resolveSpatial('addresses', 1, 1).unassigned).toEqual(['cities']);
  });
});

describe('DerivedCities', () => {
  it('makes one city per normalised name within a municipality, aggregating centre and extent', () => {
    const h = world();
    const derived = new DerivedCities(h);
    const p1 = h.resolveSpatialParents('addresses', 3, 3);
    const p2 = h.resolveSpatialParents('addresses', 3.5, 2.5);
    const p3 = h.resolveSpatialParents('addresses', 4.5, 4.5);
    expect(derived.assign('Den Hoorn', { lon: 3, lat: 3 }, p1)).toBe(true);
    expect(derived.assign('den  hoorn', { lon: 3.5, lat: 2.5 }, p2)).toBe(true);
    expect(derived.assign('Den Hoorn', { lon: 4.5, lat: 4.5 }, p3)).toBe(true);
    expect(derived.assign('', { lon: 4.5, lat: 4.5 }, h.resolveSpatialParents('addresses', 4.5, 4.5))).toBe(false);
    expect(p1.city_id).toBe(p2.city_id);
    // Same name outside the municipality (only in the province): a different city.
    expect(p3.city_id).not.toBe(p1.city_id);
    expect(p1.city_id).toBe(stableId('cities', 'den hoorn@municipalities:GM0503'));
    const { records: cities, remap } = derived.finish();
    expect(cities).toHaveLength(2);
    // 1.5° apart: two places that share a name, not one place split by a border.
    expect(remap.size).toBe(0);
    const c = cities.find((x) => x.id === p1.city_id);
    expect(c).toMatchObject({ name: 'Den Hoorn', parentId: id('municipalities', 'GM0503'), countryCode: 'NL' });
    expect(c?.geometry.type).toBe('Polygon');
    // The outline covers its addresses and has an area even for two points.
    for (const p of [
      [3, 3],
      [3.5, 2.5],
    ]) {
      expect(booleanPointInPolygon(p, c!.geometry)).toBe(true);
    }
    expect(booleanPointInPolygon([c!.centroid.lon, c!.centroid.lat], c!.geometry)).toBe(true);
    expect(c!.bbox.min_lon).toBeLessThan(3);
    expect(c!.bbox.max_lat).toBeGreaterThan(3);
    const other = cities.find((x) => x.id === p3.city_id);
    expect(other?.parentId).toBe(id('provinces', 'PV28'));
    expect(other?.parents.municipality_id).toBe('');
  });

  it('folds the addresses of one place across a border into the municipality holding most of them', () => {
    const h = world();
    const derived = new DerivedCities(h);
    const inside = [...Array(30).keys()].map((i) => {
      const p = h.resolveSpatialParents('addresses', 3.9 + (i % 6) * 0.015, 3.9 + Math.floor(i / 6) * 0.02);
      derived.assign('Ypenburg', { lon: 3.9 + (i % 6) * 0.015, lat: 3.9 + Math.floor(i / 6) * 0.02 }, p);
      return p;
    });
    // Just over the (simplified) municipality border: only the province holds these.
    const outside = [4.01, 4.02].map((lon) => {
      const p = h.resolveSpatialParents('addresses', lon, 3.95);
      derived.assign('Ypenburg', { lon, lat: 3.95 }, p);
      return p;
    });
    expect(outside[0]!.municipality_id).toBe('');
    expect(outside[0]!.city_id).not.toBe(inside[0]!.city_id);
    const { records, remap } = derived.finish();
    expect(records).toHaveLength(1);
    const city = records[0]!;
    expect(city.id).toBe(inside[0]!.city_id);
    expect(city.parents.municipality_id).toBe(id('municipalities', 'GM0503'));
    expect(remap.get(outside[0]!.city_id)).toEqual({ ...city.parents, city_id: city.id });
    // A concave hull of every address (both sides of the border), not a box.
    for (const lon of [3.9, 3.975, 4.02]) expect(booleanPointInPolygon([lon, 3.95], city.geometry)).toBe(true);
    expect(booleanPointInPolygon([4.05, 4.05], city.geometry)).toBe(false);
  });

  it('leaves a city found by polygon alone', () => {
    const h = world();
    const derived = new DerivedCities(h);
    const p = h.resolveSpatialParents('addresses', 1.5, 1.5);
    expect(derived.assign('Elsewhere', { lon: 1.5, lat: 1.5 }, p)).toBe(true);
    expect(p.city_id).toBe(id('cities', '2138'));
    expect(derived.size).toBe(0);
  });
});

describe('resolveByCodeThenSpatially (addresses joined by a code, BeST NIS)', () => {
  it('takes the coded parent and its chain even where the point lies outside it, the rest by point-in-polygon', () => {
    const h = world();
    const gm = h.findByCode('municipalities', 'local_identifier', 'GM0503');
    // A point at 4.5, 4.5 is outside the municipality (0..4) but inside the province: the code wins.
    const outside = h.resolveByCodeThenSpatially(
      'addresses',
      { level: 'municipalities', field: 'local_identifier', value: 'GM0503' },
      4.5,
      4.5,
    );
    expect(outside).toMatchObject({ municipality_id: gm?.id, province_id: gm?.parents.province_id, city_id: '' });
    const inside = h.resolveByCodeThenSpatially(
      'addresses',
      { level: 'municipalities', field: 'local_identifier', value: 'GM0503' },
      1.5,
      1.5,
    );
    expect(inside.city_id).toBe(h.findByCode('cities', 'local_identifier', '2138')?.id);
    // An unknown code leaves the join to the point.
    const unknown = h.resolveByCodeThenSpatially(
      'addresses',
      { level: 'municipalities', field: 'local_identifier', value: 'GM9999' },
      1.5,
      1.5,
    );
    expect(unknown.municipality_id).toBe(gm?.id);
  });
});
