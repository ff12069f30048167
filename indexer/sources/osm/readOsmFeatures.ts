/**
 * What an OSM PBF file gives besides addresses and boundaries: its named streets and its place nodes. Two passes,
 * holding only what is returned: the whole file (place nodes with their tags and location; named highway ways of
 * the street classes with their node ids), then the nodes alone (those ids' locations, by walking the sorted ids
 * beside the sorted nodes, as readOsmAreas.ts does). A way keeps up to WAY_POINTS of its nodes, evenly spaced: memory
 * holds a few numbers per way, not the ways' lines.
 *
 * Streets are the ways tagged `highway` with one of STREET_HIGHWAYS and a `name`: the roads people live on and
 * drive (Nominatim ranks these as streets, rank 26-27), not the footways, cycleways, paths, steps and tracks beside
 * them (named ones are mostly trails and park paths, which no address is on) nor motorways and their links
 * (a motorway's "name" is its route: A13). Places are the nodes tagged `place` with one of PLACE_NODES and a name.
 */
import { stat } from 'node:fs/promises';
import type { ReadProgress } from '../types.js';
import type { Tags } from './primitiveBlock.js';
import { scanBlocks } from './pbfScan.js';
import { nodeCoordinates } from './nodeCoordinates.js';

/** `highway` values read as streets (with a `name`). */
export const STREET_HIGHWAYS: ReadonlySet<string> = new Set([
  'trunk',
  'primary',
  'secondary',
  'tertiary',
  'unclassified',
  'residential',
  'living_street',
  'pedestrian',
  'road',
  'service',
]);

/** `place` values of nodes read as places (with a `name`): the first four are localities, the others parts of one. */
export const PLACE_NODES: ReadonlySet<string> = new Set([
  'city',
  'town',
  'village',
  'hamlet',
  'suburb',
  'neighbourhood',
]);

export interface OsmStreetWay {
  id: number;
  name: string;
  /** Names per language (`name:nl`, `name:fr`, `name:de`) where tagged. */
  names: Record<string, string>;
  highway: string;
  /**
   * lon, lat, lon, lat … of up to WAY_POINTS of its nodes, evenly spaced from the first to the last, in order (a node
   * missing from the extract is left out): flat, a few hundred bytes a way.
   */
  coords: Float64Array;
}

export interface OsmPlaceNode {
  id: number;
  name: string;
  names: Record<string, string>;
  place: string;
  lon: number;
  lat: number;
}

export interface OsmFeatures {
  streets: OsmStreetWay[];
  places: OsmPlaceNode[];
}

/** Nodes kept of a way: a street's points are a sample along it (streetDocuments.ts), not its whole line. */
export const WAY_POINTS = 16;

/** Up to `most` of the `count` refs, evenly spaced, the first and the last among them. */
export function evenlySpaced(refs: ArrayLike<number>, count: number, most: number): number[] {
  if (count <= most) return Array.from({ length: count }, (_, i) => refs[i] as number);
  const out: number[] = [];
  for (let i = 0; i < most; i++) out.push(refs[Math.round((i * (count - 1)) / (most - 1))] as number);
  return out;
}

const LANGUAGES = ['nl', 'fr', 'de'] as const;

function namesOf(tags: Tags): Record<string, string> {
  const names: Record<string, string> = {};
  for (const language of LANGUAGES) {
    const name = tags.get(`name:${language}`)?.trim();
    if (name) names[language] = name;
  }
  return names;
}

export async function readOsmFeatures(path: string, progress?: (p: ReadProgress) => void): Promise<OsmFeatures> {
  const reading = { bytesRead: 0, totalBytes: (await stat(path)).size };
  const places: OsmPlaceNode[] = [];
  const pending: { id: number; name: string; names: Record<string, string>; highway: string; refs: Float64Array }[] =
    [];
  const nodeIds: number[] = [];
  const visitor = {
    node(id: number, lon: number, lat: number, tags: Tags) {
      if (tags.count === 0) return;
      const place = tags.get('place');
      if (!place || !PLACE_NODES.has(place)) return;
      const name = tags.get('name')?.trim();
      if (name) places.push({ id, name, names: namesOf(tags), place, lon, lat });
    },
    way(id: number, refs: Float64Array, count: number, tags: Tags) {
      const highway = tags.get('highway');
      if (!highway || !STREET_HIGHWAYS.has(highway)) return;
      const name = tags.get('name')?.trim();
      if (!name) return;
      const nodes = evenlySpaced(refs, count, WAY_POINTS);
      for (const n of nodes) nodeIds.push(n);
      pending.push({ id, name, names: namesOf(tags), highway, refs: Float64Array.from(nodes) });
    },
  };
  for await (const _ of scanBlocks(path, visitor, { progress: reading })) progress?.(reading);
  if (!pending.length) return { streets: [], places };

  const { lons, lats, find } = await nodeCoordinates(path, nodeIds);
  const streets = pending.map(({ refs, ...way }) => {
    const coords = new Float64Array(2 * refs.length);
    let n = 0;
    for (const ref of refs) {
      const i = find(ref);
      if (i < 0 || Number.isNaN(lons[i])) continue;
      coords[n++] = lons[i] as number;
      coords[n++] = lats[i] as number;
    }
    return { ...way, coords: n < coords.length ? coords.slice(0, n) : coords };
  });
  return { streets, places };
}
