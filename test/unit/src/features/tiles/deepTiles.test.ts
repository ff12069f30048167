/**
 * A level's tiles past REGION_ZOOM (the zooms a panning map asks most, each tile new): cut from the region around
 * them, not from the whole level's index, so that they neither grow that index nor make it be built anew (a stall of
 * every request while it is), with what they hold bounded; and the same shapes the whole level's index cuts.
 */
import { GeoJSONVT, type GeoJSONVTFeature } from '@maplibre/geojson-vt';
import type { Feature, Geometry, Position } from 'geojson';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../../indexer/base/seededRandom.js';
import { geojsonVtOptions, LevelTiles, ringArea2 } from '../../../../../src/features/tiles/levelTiles.js';
import { regionBudget } from '../../../../../src/features/tiles/regionTiles.js';
import type { TileProperties } from '../../../../../src/features/tiles/tileFeatures.js';
import { AREA_TOLERANCE } from '../../../../../src/features/tiles/zoomTable.js';
import { tilesOver } from '../../../../support/vectorTiles.js';

const props: TileProperties = { id: 'm1', name: 'Ronde', local_identifier: '0001', level: 'municipality' };

/** A circle of `n` points around lon/lat (a boundary with a point every ~100 m at this radius), and its label point. */
function circle(lon: number, lat: number, radius: number, n: number): Feature<Geometry, TileProperties>[] {
  const ring: Position[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    ring.push([lon + radius * Math.cos(a) * 1.6, lat + radius * Math.sin(a)]);
  }
  ring.push(ring[0]!);
  return [
    { type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: props },
    { type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties: props },
  ];
}

const features = circle(5, 52, 0.5, 4000);
const box: [number, number, number, number] = [4.1, 51.45, 5.9, 52.55];
const area = (shapes: GeoJSONVTFeature[]) =>
  shapes.reduce((sum, f) => sum + (f.geometry as [number, number][][]).reduce((s, ring) => s + ringArea2(ring), 0), 0);

describe('tiles past the region zoom', () => {
  it('leave the level’s index alone and hold no more than the budget, however many are asked', () => {
    const maxCost = 5_000;
    const tiles = new LevelTiles(features, maxCost, AREA_TOLERANCE).build();
    const random = seededRandom(38);
    const deep = [12, 13, 14].flatMap((z) => tilesOver(box, z).map(({ x, y }) => ({ z, x, y })));
    for (let i = 0; i < 3000; i++) {
      const { z, x, y } = deep[Math.floor(random() * deep.length)]!;
      tiles.tile(z, x, y);
    }
    expect(tiles.stats.rebuilds).toBe(0);
    expect(tiles.stats.regions).toBeGreaterThan(0);
    expect(tiles.stats.regionCost).toBeLessThanOrEqual(regionBudget(maxCost));
  });

  it('hold the shapes the whole level’s index cuts, edges and interior', () => {
    const tiles = new LevelTiles(features, Infinity, AREA_TOLERANCE).build();
    const whole = new GeoJSONVT({ type: 'FeatureCollection', features }, geojsonVtOptions(AREA_TOLERANCE));
    let compared = 0;
    for (const z of [11, 12, 13, 14]) {
      // A band across the circle's western edge, through its interior.
      for (const { x, y } of tilesOver([4.05, 51.98, 4.6, 52.02], z)) {
        const ours = tiles.tile(z, x, y);
        const theirs = whole.getTile(z, x, y)?.features ?? [];
        const theirShapes = theirs.filter((f: GeoJSONVTFeature) => f.type === 3);
        expect(ours.shapes.length).toBe(theirShapes.length);
        expect(ours.labels.length).toBe(theirs.length - theirShapes.length);
        if (theirShapes.length === 0) continue;
        compared++;
        expect(Math.abs(area(ours.shapes) - area(theirShapes))).toBeLessThanOrEqual(area(theirShapes) * 0.01);
      }
    }
    expect(compared).toBeGreaterThan(20);
  });
});
