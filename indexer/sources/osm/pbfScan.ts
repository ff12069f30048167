/**
 * One pass over a PBF file's data blocks (pbfBlobs.ts, primitiveBlock.ts) with the checks every reader needs: the
 * OSMHeader first and supported, damaged blocks reported with the blob's number and offset, and the order the
 * readers rely on (nodes, then ways, then relations, each by ascending id: what `osmium sort` writes and Geofabrik
 * publishes) checked as the objects go by. It yields after every block, so a reader can hand on what the block gave.
 */
import { OsmPbfError, pbfFailure, readBlobs, readPbfHeader } from './pbfBlobs.js';
import { type BlockCounts, type BlockVisitor, decodePrimitiveBlock, type Member, type Tags } from './primitiveBlock.js';
import { ProtobufError } from './protobuf.js';

/** Where a kind's first block starts: a later pass over ways or relations alone begins there. */
export interface BlobMark {
  offset: number;
  index: number;
}

export interface ScanMarks {
  ways?: BlobMark;
  relations?: BlobMark;
  /** Objects of each kind in the blocks read. */
  nodes: number;
  wayCount: number;
  relationCount: number;
}

export interface ScanOptions {
  /** Begin at this block (a mark of an earlier pass): the header is then not read again. */
  from?: BlobMark | undefined;
  /** Stop before the first block holding objects of a later kind than this (0 nodes, 1 ways, 2 relations). */
  lastKind?: number | undefined;
  progress?: { bytesRead: number; totalBytes: number } | undefined;
}

const KIND_NAMES = ['node', 'way', 'relation'];

export function unsortedError(path: string, blob: BlobMark, what: string): OsmPbfError {
  return pbfFailure(
    path,
    blob.index,
    blob.offset,
    `${what}: the file is not sorted by type then id; sort it first (osmium sort IN -o OUT.osm.pbf)`,
  );
}

/**
 * Reads the file's blocks, calling the visitor; yields the marks after each block. The visitor's methods see the
 * objects they take in checked order (a block may hold groups of several kinds: the last nodes and the first ways).
 */
export async function* scanBlocks(
  path: string,
  visitor: BlockVisitor,
  options: ScanOptions = {},
): AsyncGenerator<ScanMarks> {
  const marks: ScanMarks = { nodes: 0, wayCount: 0, relationCount: 0 };
  let kind = 0;
  let lastId = -Infinity;
  let blob: BlobMark = { offset: 0, index: 0 };
  const order = (k: number, id: number) => {
    if (k < kind) throw unsortedError(path, blob, `${KIND_NAMES[k]} ${id} after the ${KIND_NAMES[kind]}s`);
    if (k > kind) {
      kind = k;
      lastId = -Infinity;
    }
    if (id <= lastId) throw unsortedError(path, blob, `${KIND_NAMES[k]} ${id} after ${KIND_NAMES[k]} ${lastId}`);
    lastId = id;
  };
  const checked: BlockVisitor = {
    ...(visitor.node && {
      node: (id: number, lon: number, lat: number, tags: Tags) => {
        order(0, id);
        visitor.node?.(id, lon, lat, tags);
      },
    }),
    ...(visitor.way && {
      way: (id: number, refs: Float64Array, count: number, tags: Tags) => {
        order(1, id);
        visitor.way?.(id, refs, count, tags);
      },
    }),
    ...(visitor.relation && {
      relation: (id: number, members: Member[], tags: Tags) => {
        order(2, id);
        visitor.relation?.(id, members, tags);
      },
    }),
  };
  const from = options.from;
  for await (const b of readBlobs(path, { from: from?.offset, fromIndex: from?.index, progress: options.progress })) {
    blob = { offset: b.offset, index: b.index };
    if (b.index === 0 && !from) {
      readPbfHeader(path, b);
      continue;
    }
    if (b.type !== 'OSMData') throw pbfFailure(path, b.index, b.offset, `a second ${b.type} block`);
    let counts: BlockCounts;
    try {
      // A block past the last kind wanted ends the pass before it is decoded further than its groups' kinds.
      counts = decodePrimitiveBlock(
        b.data,
        options.lastKind !== undefined ? withinKinds(checked, options.lastKind) : checked,
      );
    } catch (error) {
      if (error instanceof ProtobufError) throw pbfFailure(path, b.index, b.offset, `damaged block (${error.message})`);
      throw error;
    }
    if (counts.ways && !marks.ways) marks.ways = blob;
    if (counts.relations && !marks.relations) marks.relations = blob;
    marks.nodes += counts.nodes;
    marks.wayCount += counts.ways;
    marks.relationCount += counts.relations;
    if (options.lastKind !== undefined) {
      const highest = counts.relations ? 2 : counts.ways ? 1 : 0;
      if (highest > options.lastKind) {
        yield marks;
        return;
      }
    }
    yield marks;
  }
}

/** The visitor without the kinds past `last` (their objects are counted, not decoded). */
function withinKinds(visitor: BlockVisitor, last: number): BlockVisitor {
  return {
    ...(visitor.node && { node: visitor.node }),
    ...(last >= 1 && visitor.way && { way: visitor.way }),
    ...(last >= 2 && visitor.relation && { relation: visitor.relation }),
  };
}
