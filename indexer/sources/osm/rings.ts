/**
 * Multipolygon assembly (pure): the member ways of a relation joined end to end into closed rings by their shared
 * end nodes, then nested by containment (a ring inside an odd number of others is a hole of the smallest one around
 * it), whatever the members' roles say. What cannot be closed is refused with the way and node where it stops; the
 * result still goes through the indexer's validation and repair (indexer/geometry/repair.ts) like any polygon.
 */
import type { MultiPolygon, Position } from 'geojson';

export interface MemberWay {
  id: number;
  /** Node ids, in the way's order. */
  nodes: number[];
  /** [lon, lat] per node. */
  coords: Position[];
}

export type Assembly = { ok: true; geometry: MultiPolygon } | { ok: false; detail: string };

interface Ring {
  coords: Position[];
  area: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

function ringOf(coords: Position[]): Ring {
  let area = 0;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < coords.length; i++) {
    const [x, y] = coords[i] as [number, number];
    const [nx, ny] = coords[(i + 1) % coords.length] as [number, number];
    area += x * ny - nx * y;
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return { coords, area: Math.abs(area / 2), minX, minY, maxX, maxY };
}

function inside(x: number, y: number, ring: Position[]): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as [number, number];
    const [xj, yj] = ring[j] as [number, number];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

/** Whether `inner` lies in `outer`: most of its vertices do (rings of one boundary may touch at a vertex). */
function contains(outer: Ring, inner: Ring): boolean {
  if (inner.minX < outer.minX || inner.maxX > outer.maxX || inner.minY < outer.minY || inner.maxY > outer.maxY) {
    return false;
  }
  const step = Math.max(1, Math.floor(inner.coords.length / 7));
  let yes = 0;
  let no = 0;
  for (let i = 0; i < inner.coords.length - 1; i += step) {
    const [x, y] = inner.coords[i] as [number, number];
    if (inside(x, y, outer.coords)) yes++;
    else no++;
  }
  return yes > no;
}

/** Closed rings from the member ways, joined at shared end nodes. */
function closeRings(ways: MemberWay[]): { ok: true; rings: Position[][] } | { ok: false; detail: string } {
  const rings: Position[][] = [];
  const open: MemberWay[] = [];
  for (const w of ways) {
    if (w.nodes.length < 2) continue;
    if (w.nodes[0] === w.nodes[w.nodes.length - 1]) rings.push([...w.coords]);
    else open.push(w);
  }
  const byEnd = new Map<number, number[]>();
  open.forEach((w, i) => {
    for (const end of [w.nodes[0] as number, w.nodes[w.nodes.length - 1] as number]) {
      const list = byEnd.get(end);
      if (list) list.push(i);
      else byEnd.set(end, [i]);
    }
  });
  const used = new Uint8Array(open.length);
  for (let start = 0; start < open.length; start++) {
    if (used[start]) continue;
    used[start] = 1;
    const first = open[start] as MemberWay;
    const nodes = [...first.nodes];
    const coords = [...first.coords];
    let lastWay = first.id;
    while (nodes[0] !== nodes[nodes.length - 1]) {
      const end = nodes[nodes.length - 1] as number;
      const next = (byEnd.get(end) ?? []).find((i) => !used[i]);
      if (next === undefined) {
        return {
          ok: false,
          detail: `ring not closed: way ${lastWay} ends at node ${end}, which no other member way continues`,
        };
      }
      used[next] = 1;
      const w = open[next] as MemberWay;
      const forward = w.nodes[0] === end;
      const wn = forward ? w.nodes : [...w.nodes].reverse();
      const wc = forward ? w.coords : [...w.coords].reverse();
      for (let k = 1; k < wn.length; k++) {
        nodes.push(wn[k] as number);
        coords.push(wc[k] as Position);
      }
      lastWay = w.id;
    }
    rings.push(coords);
  }
  return { ok: true, rings };
}

export function assembleMultipolygon(ways: MemberWay[]): Assembly {
  if (!ways.length) return { ok: false, detail: 'no member ways' };
  const closed = closeRings(ways);
  if (!closed.ok) return closed;
  const rings = closed.rings
    .filter((r) => r.length >= 4)
    .map(ringOf)
    .sort((a, b) => b.area - a.area);
  if (!rings.length) return { ok: false, detail: 'no ring of at least 3 distinct positions' };
  /** Per ring: the index of the smallest ring containing it and how deep it is nested. */
  const parent: number[] = [];
  const depth: number[] = [];
  for (let i = 0; i < rings.length; i++) {
    parent[i] = -1;
    depth[i] = 0;
    for (let j = i - 1; j >= 0; j--) {
      if (contains(rings[j] as Ring, rings[i] as Ring)) {
        parent[i] = j;
        depth[i] = (depth[j] as number) + 1;
        break;
      }
    }
  }
  const polygons = new Map<number, Position[][]>();
  for (let i = 0; i < rings.length; i++) {
    const coords = (rings[i] as Ring).coords;
    if ((depth[i] as number) % 2 === 0) polygons.set(i, [coords]);
    else polygons.get(parent[i] as number)?.push(coords);
  }
  return { ok: true, geometry: { type: 'MultiPolygon', coordinates: [...polygons.values()] } };
}
