/** The boundary tiles' pure parts: the pyramid, a level's index and its bound, the encoding, TileJSON. */
import type { Feature, Geometry } from 'geojson';
import { describe, expect, it } from 'vitest';
import { encodeTile } from '../../../../../src/features/tiles/encodeTile.js';
import {
  INDEX_MAX_ZOOM,
  LevelTiles,
  REQUEST_COST,
  withoutCollapsedRings,
} from '../../../../../src/features/tiles/levelTiles.js';
import { areaProperties, type TileProperties } from '../../../../../src/features/tiles/tileFeatures.js';
import { tileJson } from '../../../../../src/features/tiles/tileJson.js';
import { Attribution, UNRECORDED_SOURCES } from '../../../../../src/indexes/attribution.js';
import {
  AREA_TOLERANCE,
  LABEL_LAYER,
  levelsAt,
  MAX_ZOOM,
  outsidePyramid,
} from '../../../../../src/features/tiles/zoomTable.js';
import type { AreaDoc } from '../../../../../core/elasticsearch/documents.js';
import { boxPolygon } from '../../../../support/geometry.js';
import { decodeTile, featuresOf } from '../../../../support/vectorTiles.js';

const props: TileProperties = {
  id: 'a1',
  name: 'Elsene',
  'name:fr': 'Ixelles',
  local_identifier: '21009',
  level: 'municipality',
};
const square: Feature<Geometry, TileProperties>[] = [
  { type: 'Feature', geometry: boxPolygon(4, 50, 5, 51), properties: props },
  { type: 'Feature', geometry: { type: 'Point', coordinates: [4.5, 50.5] }, properties: props },
];

describe('the pyramid', () => {
  it('names the parameter outside it', () => {
    expect(outsidePyramid(0, 0, 0)).toBeUndefined();
    expect(outsidePyramid(MAX_ZOOM, 2 ** MAX_ZOOM - 1, 0)).toBeUndefined();
    expect(outsidePyramid(MAX_ZOOM + 1, 0, 0)).toBe('z');
    expect(outsidePyramid(-1, 0, 0)).toBe('z');
    expect(outsidePyramid(3, 8, 0)).toBe('x');
    expect(outsidePyramid(3, 0, 8)).toBe('y');
  });

  it('shows each level from its zoom on', () => {
    expect(levelsAt(0).map((l) => l.layer)).toEqual(['countries']);
    expect(levelsAt(7).map((l) => l.layer)).toEqual(['countries', 'provinces']);
    expect(levelsAt(8).map((l) => l.layer)).toEqual(['countries', 'provinces', 'municipalities']);
    expect(levelsAt(MAX_ZOOM).map((l) => l.layer)).toContain('buildings');
    expect(levelsAt(MAX_ZOOM - 1).map((l) => l.layer)).not.toContain('buildings');
  });
});

describe('a level’s tiles', () => {
  it('splits shapes from label points', () => {
    const { shapes, labels } = new LevelTiles(square, 100, AREA_TOLERANCE).tile(6, 32, 21);
    expect(shapes).toHaveLength(1);
    expect(labels).toHaveLength(1);
    expect(new LevelTiles(square, 100, AREA_TOLERANCE).tile(6, 0, 0)).toEqual({ shapes: [], labels: [] });
  });

  it('is built anew once charged its budget below the index zoom, answering the same', () => {
    const z = INDEX_MAX_ZOOM + 3;
    const probe = new LevelTiles(square, Infinity, AREA_TOLERANCE);
    const first = JSON.stringify(probe.tile(z, 131, 86));
    const charge = probe.stats.cost;
    // The tile's points and label, and what the tiles cut on the way down stand for.
    expect(charge).toBeGreaterThan(REQUEST_COST);
    const tiles = new LevelTiles(square, 3 * charge, AREA_TOLERANCE);
    for (let i = 0; i < 3; i++) tiles.tile(z, 131, 86);
    expect(tiles.stats.rebuilds).toBe(0);
    expect(JSON.stringify(tiles.tile(z, 131, 86))).toBe(first);
    expect(tiles.stats).toMatchObject({ rebuilds: 1, cost: charge });
    // Tiles down to the index zoom were cut when it was built, and an empty tile adds nothing: neither is charged.
    tiles.tile(INDEX_MAX_ZOOM, 16, 10);
    tiles.tile(z, 0, 0);
    expect(tiles.stats.cost).toBe(charge);
  });
});

describe('rings rounding collapsed', () => {
  // Exterior rings have a positive surveyor's area with y down; holes a negative one.
  const exterior: [number, number][] = [
    [0, 0],
    [10, 0],
    [10, 10],
    [0, 10],
    [0, 0],
  ];
  const hole: [number, number][] = [
    [2, 2],
    [2, 4],
    [4, 4],
    [4, 2],
    [2, 2],
  ];
  const flat: [number, number][] = [
    [5, 5],
    [6, 5],
    [5, 5],
    [5, 5],
  ];
  const shape = (...geometry: [number, number][][]) => ({ type: 3 as const, tags: props, geometry });

  it('leaves a polygon whose rings all have an area as it is', () => {
    const polygon = shape(exterior, hole);
    expect(withoutCollapsedRings(polygon)).toBe(polygon);
  });

  it('drops rings without area, and holes with no exterior ring before them', () => {
    expect(withoutCollapsedRings(shape(flat, exterior, hole))?.geometry).toEqual([exterior, hole]);
    expect(withoutCollapsedRings(shape(flat, hole, exterior))?.geometry).toEqual([exterior]);
    expect(withoutCollapsedRings(shape(flat))).toBeUndefined();
  });
});

describe('encoding', () => {
  it('is undefined for an empty tile', () => {
    expect(encodeTile([{ layer: 'countries', tile: { shapes: [], labels: [] } }])).toBeUndefined();
  });

  it('writes a layer per level with shapes and one label layer, with the properties', () => {
    const tile = new LevelTiles(square, 100, AREA_TOLERANCE).tile(6, 32, 21);
    const decoded = decodeTile(
      encodeTile([
        { layer: 'municipalities', tile },
        { layer: 'provinces', tile: { shapes: [], labels: [] } },
      ])!,
    );
    expect(Object.keys(decoded.layers).sort()).toEqual([LABEL_LAYER, 'municipalities']);
    const [shape] = featuresOf(decoded, 'municipalities');
    expect(shape?.type).toBe(3);
    expect(shape?.properties).toEqual(props);
    expect(featuresOf(decoded, LABEL_LAYER)[0]?.type).toBe(1);
  });

  it('carries the names per language an area has, and no other', () => {
    const doc = {
      id: 'x',
      name: 'Elsene',
      names: { nl: 'Elsene', fr: 'Ixelles' },
      local_identifier: '21009',
      level: 'municipality',
    };
    expect(areaProperties(doc as unknown as AreaDoc)).toEqual({
      id: 'x',
      name: 'Elsene',
      'name:nl': 'Elsene',
      'name:fr': 'Ixelles',
      local_identifier: '21009',
      level: 'municipality',
    });
  });
});

describe('TileJSON', () => {
  const none = new Attribution([]);

  it('puts the caller’s query key into the tile URL, encoded, and none for a header key', () => {
    const withKey = tileJson('https://geo.example', 'a b&c', undefined, none);
    expect(withKey.tiles).toEqual(['https://geo.example/tiles/boundaries/{z}/{x}/{y}.mvt?api_key=a+b%26c']);
    expect(tileJson('https://geo.example', undefined, undefined, none).tiles).toEqual([
      'https://geo.example/tiles/boundaries/{z}/{x}/{y}.mvt',
    ]);
  });

  it('keeps the bounds inside web mercator', () => {
    const { bounds } = tileJson('o', undefined, { minLon: -180, minLat: -90, maxLon: 180, maxLat: 83.6 }, none);
    expect(bounds).toEqual([-180, -85.0511, 180, 83.6]);
  });

  it('credits the sources of what the tiles draw, once each, as escaped HTML with OpenStreetMap linked', () => {
    const attribution = new Attribution([
      { level: 'countries', text: 'Made with Natural Earth' },
      { level: 'cities', countries: ['NL'], text: '© OpenStreetMap contributors, ODbL 1.0' },
      { level: 'buildings', countries: ['NL'], text: '© OpenStreetMap contributors, ODbL 1.0' },
      { level: 'municipalities', countries: ['BE'], text: 'Statbel <Belgium> & co' },
      // Addresses are not drawn.
      { level: 'addresses', countries: ['BE'], text: 'BeST Address' },
    ]);
    expect(tileJson('o', undefined, undefined, attribution).attribution).toBe(
      'Made with Natural Earth · <a href="https://www.openstreetmap.org/copyright">© OpenStreetMap contributors</a>, ' +
        'ODbL 1.0 · Statbel &lt;Belgium&gt; &amp; co',
    );
    expect(tileJson('o', undefined, undefined, none).attribution).toBe(UNRECORDED_SOURCES);
  });
});
