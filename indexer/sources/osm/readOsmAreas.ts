/**
 * Areas from an OSM PBF file: `boundary=administrative` relations assembled into (multi)polygons (rings.ts), each
 * level taking the `admin_level`s adminLevels.ts (or the source) gives it. Three passes, none holding more than the
 * boundaries themselves: the relations (their tags and member ways), then the ways (those members' node ids), then
 * the nodes (those ids' locations, found by walking the sorted ids beside the sorted nodes). The boundaries are
 * assembled once per file and kept for the other levels of the same run.
 *
 * A boundary some member of which is not in the file (a neighbour's cut off by the extract) is skipped and counted
 * as such, not rejected: an extract is expected to hold parts of its neighbours. With a `country`, a boundary whose
 * point on surface lies outside that country's own admin_level 2 boundary (when the file holds it whole) is
 * skipped too: a Geofabrik extract of one country carries its neighbours' municipalities along the border.
 */
import type { MultiPolygon } from 'geojson';
import { stat } from 'node:fs/promises';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { pointOnSurface } from '../../geometry/checks.js';
import type { AreaLevelName } from '../../base/levels.js';
import type { ReadOptions, SourceItem } from '../types.js';
import { adminLevelsFor } from './adminLevels.js';
import { MEMBER_WAY, type Member, type Tags } from './primitiveBlock.js';
import { assembleMultipolygon, type MemberWay } from './rings.js';
import { type ScanMarks, scanBlocks } from './pbfScan.js';
import { type NodeCoordinates, nodeCoordinates } from './nodeCoordinates.js';

export interface Boundary {
  /** The relation's number among the file's objects (1-based): the reject's position. */
  position: number;
  id: number;
  tags: Record<string, string>;
  adminLevel: number;
  geometry?: MultiPolygon;
  /** Why it has no geometry: a member missing from the file (`incomplete`), or rings that do not close. */
  problem?: { kind: 'incomplete' | 'invalid'; detail: string };
}

const ROLES = new Set(['outer', 'inner', '']);

/** Relation types that are areas (a `multilinestring` of border lines is not). */
const AREA_TYPES = new Set(['boundary', 'multipolygon']);

/** A boundary relation of the file, before its ways are read. */
interface PendingBoundary {
  position: number;
  id: number;
  tags: Record<string, string>;
  level: number;
  ways: number[];
}

/** Reads and assembles every administrative boundary of the file. */
export async function readBoundaries(path: string): Promise<Boundary[]> {
  const { pending, marks } = await boundaryRelations(path);
  if (!pending.length || !marks?.ways) return pending.map((p) => incomplete(p, 'no member ways in the file'));
  const { wayNodes, nodeIds } = await memberWays(path, pending, marks.ways);
  const coords = await nodeCoordinates(path, nodeIds);
  return pending.map((p) => assembleBoundary(p, wayNodes, coords));
}

/** The file's administrative boundary relations, numbered by their position in the file, and where its ways begin. */
async function boundaryRelations(path: string): Promise<{ pending: PendingBoundary[]; marks: ScanMarks | undefined }> {
  const pending: PendingBoundary[] = [];
  let position = 0;
  let marks: ScanMarks | undefined;
  const relations = {
    relation(id: number, members: Member[], tags: Tags) {
      position++;
      if (tags.get('boundary') !== 'administrative' || !AREA_TYPES.has(tags.get('type') ?? '')) return;
      const level = Number(tags.get('admin_level'));
      if (!Number.isInteger(level)) return;
      const ways = members.filter((m) => m.type === MEMBER_WAY && ROLES.has(m.role)).map((m) => m.id);
      pending.push({ position, id, tags: tags.toObject(), level, ways });
    },
  };
  for await (const m of scanBlocks(path, relations)) marks = m;
  // The relations' positions count the nodes and ways before them.
  const before = (marks?.nodes ?? 0) + (marks?.wayCount ?? 0);
  for (const p of pending) p.position += before;
  return { pending, marks };
}

/** The node ids of every way the boundaries name, read from the ways' first block on. */
async function memberWays(
  path: string,
  pending: readonly PendingBoundary[],
  from: NonNullable<ScanMarks['ways']>,
): Promise<{ wayNodes: Map<number, number[]>; nodeIds: number[] }> {
  const wanted = new Set(pending.flatMap((p) => p.ways));
  const wayNodes = new Map<number, number[]>();
  const nodeIds: number[] = [];
  const ways = {
    way(id: number, refs: Float64Array, count: number) {
      if (!wanted.has(id)) return;
      const nodes = Array.from(refs.subarray(0, count));
      wayNodes.set(id, nodes);
      for (const n of nodes) nodeIds.push(n);
    },
  };
  for await (const _ of scanBlocks(path, ways, { from, lastKind: 1 })) void _;
  return { wayNodes, nodeIds };
}

/** One boundary's rings from its ways, or why it cannot be assembled. */
function assembleBoundary(p: PendingBoundary, wayNodes: Map<number, number[]>, coords: NodeCoordinates): Boundary {
  const { lons, lats, find } = coords;
  const members: MemberWay[] = [];
  for (const wayId of p.ways) {
    const refs = wayNodes.get(wayId);
    if (!refs) return incomplete(p, `its member way ${wayId} is not in the file`);
    const points: [number, number][] = [];
    for (const ref of refs) {
      const i = find(ref);
      if (i < 0 || Number.isNaN(lons[i]))
        return incomplete(p, `node ${ref} of its member way ${wayId} is not in the file`);
      points.push([lons[i] as number, lats[i] as number]);
    }
    members.push({ id: wayId, nodes: refs, coords: points });
  }
  if (!members.length) return incomplete(p, 'no member ways in the file');
  const assembled = assembleMultipolygon(members);
  if (!assembled.ok) {
    return { ...base(p), problem: { kind: 'invalid' as const, detail: `relation ${p.id}: ${assembled.detail}` } };
  }
  return { ...base(p), geometry: assembled.geometry };
}

function base(p: { position: number; id: number; tags: Record<string, string>; level: number }): Boundary {
  return { position: p.position, id: p.id, tags: p.tags, adminLevel: p.level };
}

function incomplete(
  p: { position: number; id: number; tags: Record<string, string>; level: number },
  detail: string,
): Boundary {
  return { ...base(p), problem: { kind: 'incomplete', detail: `relation ${p.id}: ${detail}` } };
}

/** One run's boundaries per file (keyed by path, size and modification time), read once for every level. */
const cache = new Map<string, Promise<Boundary[]>>();

export async function boundariesOf(path: string): Promise<Boundary[]> {
  const s = await stat(path);
  const key = `${path}\0${s.size}\0${s.mtimeMs}`;
  let found = cache.get(key);
  if (!found) {
    found = readBoundaries(path);
    cache.set(key, found);
    found.catch(() => cache.delete(key));
  }
  return found;
}

export interface OsmAreaOptions extends ReadOptions {
  /** The extract's country (ISO 3166-1 alpha-2): its admin_level table, and what lies outside it is skipped. */
  country?: string | undefined;
  adminLevels?: number[] | undefined;
}

function countryCodeOf(tags: Record<string, string>): string {
  return (tags['ISO3166-1:alpha2'] ?? tags['ISO3166-1'] ?? '').toUpperCase();
}

export async function* readOsmAreas(
  path: string,
  level: AreaLevelName,
  options: OsmAreaOptions = {},
): AsyncGenerator<SourceItem> {
  const totalBytes = (await stat(path)).size;
  options.progress?.({ bytesRead: 0, totalBytes });
  const boundaries = await boundariesOf(path);
  options.progress?.({ bytesRead: totalBytes, totalBytes });
  if (options.stats) options.stats.encoding = 'osm-pbf';
  const country = options.country?.toUpperCase();
  const levels = adminLevelsFor(level, country, options.adminLevels);
  const own = country
    ? boundaries.find((b) => b.adminLevel === 2 && b.geometry && countryCodeOf(b.tags) === country)
    : undefined;
  for (const b of boundaries) {
    if (!levels.includes(b.adminLevel)) continue;
    const props: Record<string, unknown> = {
      ...b.tags,
      osm_type: 'relation',
      osm_id: String(b.id),
      osm_object: `relation/${b.id}`,
      osm_key: `r${b.id}`,
    };
    const code = countryCodeOf(b.tags) || (b.adminLevel === 2 && country ? country : '');
    if (code) props.country_code = code;
    if (b.problem?.kind === 'incomplete') {
      yield { position: b.position, props, skip: true };
      continue;
    }
    if (b.problem) {
      yield { position: b.position, props, error: b.problem.detail };
      continue;
    }
    const geometry = b.geometry as MultiPolygon;
    if (own && b !== own && !booleanPointInPolygon(pointOnSurface(geometry), own.geometry as MultiPolygon)) {
      yield { position: b.position, props, skip: true };
      continue;
    }
    yield { position: b.position, props, geometry };
  }
}
