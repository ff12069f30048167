/**
 * The coordinates of a set of nodes, read in one pass over the file's nodes (sorted by id, as the file is): the ids
 * sorted and made distinct, walked beside the file's nodes; a node the file lacks stays NaN. Used by the boundaries'
 * and the named ways' readers (readOsmAreas.ts, readOsmFeatures.ts).
 */
import { scanBlocks } from './pbfScan.js';

/** The values sorted, each once. */
function growSorted(values: number[]): Float64Array {
  const sorted = Float64Array.from(values).sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[n - 1]) sorted[n++] = sorted[i] as number;
  return sorted.subarray(0, n);
}

/** The ways' nodes' coordinates (NaN where the file lacks the node), found by id. */
export interface NodeCoordinates {
  lons: Float64Array;
  lats: Float64Array;
  /** The node's index in `lons`/`lats`, or -1. */
  find: (id: number) => number;
}

export async function nodeCoordinates(path: string, nodeIds: number[]): Promise<NodeCoordinates> {
  const ids = growSorted(nodeIds);
  nodeIds.length = 0;
  const lons = new Float64Array(ids.length).fill(NaN);
  const lats = new Float64Array(ids.length).fill(NaN);
  let at = 0;
  const nodes = {
    node(id: number, lon: number, lat: number) {
      while (at < ids.length && (ids[at] as number) < id) at++;
      if (at < ids.length && ids[at] === id) {
        lons[at] = Math.round(lon * 1e7) / 1e7;
        lats[at] = Math.round(lat * 1e7) / 1e7;
      }
    },
  };
  for await (const _ of scanBlocks(path, nodes, { lastKind: 0 })) void _;
  const find = (id: number): number => {
    let lo = 0;
    let hi = ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid] as number;
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  };
  return { lons, lats, find };
}
