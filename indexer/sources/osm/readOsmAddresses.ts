/**
 * Addresses from an OSM PBF file: every node, way and relation with `addr:housenumber`, in one streaming pass
 * (plus a pass over the ways alone when relations carry addresses, for their member ways). Nodes are where they are;
 * a closed way is at a point on its surface, an open one at its middle node; a relation at a point on the surface of
 * its assembled outer ways. Node locations go to an on-disk store (nodeStore.ts), never to memory. An object that
 * cannot be placed (a node of its way not in the file, a relation without member ways) is still yielded, as an
 * unreadable record with the reason, so read = indexed + rejected holds for every address object of the file.
 */
import type { Position } from 'geojson';
import { pointOnSurface } from '../../geometry/checks.js';
import type { ReadOptions, SourceItem } from '../types.js';
import { NodeStore } from './nodeStore.js';
import { MEMBER_WAY, type Member, type Tags } from './primitiveBlock.js';
import { assembleMultipolygon, type MemberWay } from './rings.js';
import { type ScanMarks, scanBlocks, unsortedError } from './pbfScan.js';
import { stat } from 'node:fs/promises';

export const HOUSENUMBER = 'addr:housenumber';

/** The props every OSM record carries besides its tags. */
export function osmProps(type: 'node' | 'way' | 'relation', id: number, tags: Tags): Record<string, unknown> {
  const props: Record<string, unknown> = tags.toObject();
  props.osm_type = type;
  props.osm_id = String(id);
  props.osm_object = `${type}/${id}`;
  return props;
}

/** Where a way's address is: a point on the surface of a closed way, the middle node of an open one. */
function wayPoint(coords: Position[], closed: boolean): Position {
  if (closed && coords.length >= 4) return pointOnSurface({ type: 'Polygon', coordinates: [coords] });
  return coords[Math.floor((coords.length - 1) / 2)] as Position;
}

/** The way's coordinates from the store, or the first node missing. */
export function wayCoords(
  store: NodeStore,
  refs: ArrayLike<number>,
  count: number,
): { coords: Position[] } | { missing: number } {
  const coords: Position[] = [];
  const out = [0, 0];
  for (let i = 0; i < count; i++) {
    const ref = refs[i] as number;
    if (!store.get(ref, out)) return { missing: ref };
    coords.push([out[0] as number, out[1] as number]);
  }
  return { coords };
}

interface PendingRelation {
  position: number;
  props: Record<string, unknown>;
  ways: number[];
}

export async function* readOsmAddresses(path: string, options: ReadOptions = {}): AsyncGenerator<SourceItem> {
  const progress = { bytesRead: 0, totalBytes: (await stat(path)).size };
  const store = new NodeStore();
  const out: SourceItem[] = [];
  const pending: PendingRelation[] = [];
  let position = 0;
  let sealed = false;
  let marks: ScanMarks | undefined;
  try {
    const visitor = {
      node(id: number, lon: number, lat: number, tags: Tags) {
        position++;
        if (!store.add(id, lon, lat)) {
          throw unsortedError(path, { index: -1, offset: progress.bytesRead }, `node ${id} out of order`);
        }
        if (tags.count === 0 || !tags.has(HOUSENUMBER)) return;
        const props = osmProps('node', id, tags);
        props.lon = lon;
        props.lat = lat;
        out.push({ position, props });
      },
      way(id: number, refs: Float64Array, count: number, tags: Tags) {
        position++;
        if (!sealed) {
          store.seal();
          sealed = true;
        }
        if (!tags.has(HOUSENUMBER)) return;
        const props = osmProps('way', id, tags);
        const found = wayCoords(store, refs, count);
        if ('missing' in found) {
          out.push({ position, props, error: `way ${id}: its node ${found.missing} is not in the file` });
          return;
        }
        if (!found.coords.length) {
          out.push({ position, props, error: `way ${id} has no nodes` });
          return;
        }
        const [lon, lat] = wayPoint(found.coords, count >= 4 && refs[0] === refs[count - 1]);
        props.lon = lon;
        props.lat = lat;
        out.push({ position, props });
      },
      relation(id: number, members: Member[], tags: Tags) {
        position++;
        if (!tags.has(HOUSENUMBER)) return;
        const props = osmProps('relation', id, tags);
        const ways = members.filter((m) => m.type === MEMBER_WAY && m.role !== 'inner').map((m) => m.id);
        if (!ways.length) {
          out.push({ position, props, error: `relation ${id} has no member ways in the file to place it` });
          return;
        }
        pending.push({ position, props, ways });
      },
    };
    options.progress?.(progress);
    for await (const m of scanBlocks(path, visitor, { progress })) {
      marks = m;
      if (out.length) yield* out.splice(0);
      options.progress?.(progress);
    }
    if (!sealed) store.seal();
    if (pending.length) yield* placeRelations(path, store, pending, marks);
  } finally {
    store.close();
  }
  if (options.stats) options.stats.encoding = 'osm-pbf';
}

/** A second pass over the ways alone: the relations' member ways, then each relation at its surface. */
async function* placeRelations(
  path: string,
  store: NodeStore,
  pending: PendingRelation[],
  marks: ScanMarks | undefined,
): AsyncGenerator<SourceItem> {
  const wanted = new Set(pending.flatMap((p) => p.ways));
  const ways = new Map<number, number[]>();
  if (marks?.ways) {
    const visitor = {
      way(id: number, refs: Float64Array, count: number) {
        if (wanted.has(id)) ways.set(id, Array.from(refs.subarray(0, count)));
      },
    };
    for await (const _ of scanBlocks(path, visitor, { from: marks.ways, lastKind: 1 })) void _;
  }
  for (const p of pending) {
    const members: MemberWay[] = [];
    let problem = '';
    for (const id of p.ways) {
      const nodes = ways.get(id);
      if (!nodes) {
        problem = `its member way ${id} is not in the file`;
        break;
      }
      const found = wayCoords(store, nodes, nodes.length);
      if ('missing' in found) {
        problem = `node ${found.missing} of its member way ${id} is not in the file`;
        break;
      }
      members.push({ id, nodes, coords: found.coords });
    }
    const assembled = problem ? undefined : assembleMultipolygon(members);
    if (!assembled?.ok) {
      const detail = problem || (assembled && !assembled.ok ? assembled.detail : '');
      yield { position: p.position, props: p.props, error: `relation ${String(p.props.osm_id)}: ${detail}` };
      continue;
    }
    const [lon, lat] = pointOnSurface(assembled.geometry);
    yield { position: p.position, props: { ...p.props, lon, lat } };
  }
}
