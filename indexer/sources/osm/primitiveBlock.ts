/**
 * Decodes one PrimitiveBlock (wiki "PBF Format") into calls on a visitor (pure): plain and dense nodes (delta-coded
 * ids and coordinates, the keys_vals list), ways (delta-coded node refs) and relations (members). Strings are read
 * from the block's string table only when asked for, so a node without tags costs no string at all. Groups of a
 * kind the visitor does not take are skipped undecoded.
 */
import { BYTES, ProtoReader, ProtobufError, VARINT, utf8 } from './protobuf.js';

/** The block's string table, decoded one entry at a time on first use. */
export class StringTable {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly cache: (string | undefined)[] = [];

  constructor(
    private readonly buf: Uint8Array,
    start: number,
    end: number,
  ) {
    const r = new ProtoReader(buf, start, end);
    while (!r.done) {
      const { field, wire } = r.key();
      if (field === 1 && wire === BYTES) {
        const [s, e] = r.bytes();
        this.starts.push(s);
        this.ends.push(e);
      } else r.skip(wire);
    }
  }

  get size(): number {
    return this.starts.length;
  }

  get(i: number): string {
    const cached = this.cache[i];
    if (cached !== undefined) return cached;
    if (i < 0 || i >= this.starts.length) {
      throw new ProtobufError(`string index ${i} outside the block's table of ${this.starts.length}`);
    }
    const s = utf8(this.buf, this.starts[i] as number, this.ends[i] as number);
    this.cache[i] = s;
    return s;
  }
}

/** An object's tags as indexes into the block's string table (reused between objects: read it during the call). */
export class Tags {
  keys: number[] = [];
  vals: number[] = [];
  count = 0;
  strings!: StringTable;

  reset(): void {
    this.count = 0;
  }

  push(k: number, v: number): void {
    this.keys[this.count] = k;
    this.vals[this.count] = v;
    this.count++;
  }

  key(i: number): string {
    return this.strings.get(this.keys[i] as number);
  }

  value(i: number): string {
    return this.strings.get(this.vals[i] as number);
  }

  /** The value of `key`, or undefined. */
  get(key: string): string | undefined {
    for (let i = 0; i < this.count; i++) if (this.key(i) === key) return this.value(i);
    return undefined;
  }

  has(key: string): boolean {
    for (let i = 0; i < this.count; i++) if (this.key(i) === key) return true;
    return false;
  }

  toObject(): Record<string, string> {
    const out: Record<string, string> = {};
    for (let i = 0; i < this.count; i++) out[this.key(i)] = this.value(i);
    return out;
  }
}

export const MEMBER_NODE = 0;
export const MEMBER_WAY = 1;
export const MEMBER_RELATION = 2;

export interface Member {
  type: number;
  id: number;
  role: string;
}

export interface BlockVisitor {
  /** `lon`/`lat` in degrees. */
  node?: (id: number, lon: number, lat: number, tags: Tags) => void;
  /** `refs[0..count)`: the way's node ids (the array is reused: copy what is kept). */
  way?: (id: number, refs: Float64Array, count: number, tags: Tags) => void;
  relation?: (id: number, members: Member[], tags: Tags) => void;
}

/** What one block held, for the reader's counts and its order check. */
export interface BlockCounts {
  nodes: number;
  ways: number;
  relations: number;
}

interface BlockFrame {
  strings: StringTable | undefined;
  stringRange: [number, number] | undefined;
  granularity: number;
  latOffset: number;
  lonOffset: number;
}

const GROUP_NODES = 1;
const GROUP_DENSE = 2;
const GROUP_WAYS = 3;
const GROUP_RELATIONS = 4;

let refs = new Float64Array(2048);
const tags = new Tags();

/**
 * Decodes `data` (a PrimitiveBlock), calling the visitor's methods; objects of a kind it has no method for are
 * counted but not decoded (a way's or relation's group is skipped whole).
 */
export function decodePrimitiveBlock(data: Uint8Array, visitor: BlockVisitor): BlockCounts {
  const frame: BlockFrame = {
    strings: undefined,
    stringRange: undefined,
    granularity: 100,
    latOffset: 0,
    lonOffset: 0,
  };
  const groups: [number, number][] = [];
  const r = new ProtoReader(data);
  while (!r.done) {
    const { field, wire } = r.key();
    if (field === 1 && wire === BYTES) frame.stringRange = r.bytes();
    else if (field === 2 && wire === BYTES) groups.push(r.bytes());
    else if (field === 17 && wire === VARINT) frame.granularity = r.int();
    else if (field === 19 && wire === VARINT) frame.latOffset = signed64(r.varint());
    else if (field === 20 && wire === VARINT) frame.lonOffset = signed64(r.varint());
    else r.skip(wire);
  }
  const counts: BlockCounts = { nodes: 0, ways: 0, relations: 0 };
  const stringsOf = (): StringTable => {
    if (!frame.strings) {
      const [s, e] = frame.stringRange ?? [0, 0];
      frame.strings = new StringTable(data, s, e);
    }
    return frame.strings;
  };
  for (const [start, end] of groups) {
    const g = new ProtoReader(data, start, end);
    while (!g.done) {
      const { field, wire } = g.key();
      if (wire !== BYTES) {
        g.skip(wire);
        continue;
      }
      const [s, e] = g.bytes();
      if (field === GROUP_DENSE) counts.nodes += denseNodes(data, s, e, frame, visitor, stringsOf);
      else if (field === GROUP_NODES) {
        counts.nodes++;
        if (visitor.node) plainNode(data, s, e, frame, visitor, stringsOf());
      } else if (field === GROUP_WAYS) {
        counts.ways++;
        if (visitor.way) way(data, s, e, visitor, stringsOf());
      } else if (field === GROUP_RELATIONS) {
        counts.relations++;
        if (visitor.relation) relation(data, s, e, visitor, stringsOf());
      }
    }
  }
  return counts;
}

/** An int64 varint (two's complement: ten bytes for a negative value) as a number. */
function signed64(n: number): number {
  return n >= 2 ** 63 ? n - 2 ** 64 : n;
}

function readTags(data: Uint8Array, keys: [number, number] | undefined, vals: [number, number] | undefined): void {
  tags.reset();
  if (!keys || !vals) return;
  const k = new ProtoReader(data, keys[0], keys[1]);
  const v = new ProtoReader(data, vals[0], vals[1]);
  while (!k.done) {
    if (v.done) throw new ProtobufError('an object has more tag keys than values');
    tags.push(k.varint(), v.varint());
  }
  if (!v.done) throw new ProtobufError('an object has more tag values than keys');
}

function plainNode(
  data: Uint8Array,
  start: number,
  end: number,
  f: BlockFrame,
  visitor: BlockVisitor,
  strings: StringTable,
): void {
  const r = new ProtoReader(data, start, end);
  let id = 0;
  let lat = 0;
  let lon = 0;
  let keys: [number, number] | undefined;
  let vals: [number, number] | undefined;
  while (!r.done) {
    const { field, wire } = r.key();
    if (field === 1 && wire === VARINT) id = r.svarint();
    else if (field === 2 && wire === BYTES) keys = r.bytes();
    else if (field === 3 && wire === BYTES) vals = r.bytes();
    else if (field === 8 && wire === VARINT) lat = r.svarint();
    else if (field === 9 && wire === VARINT) lon = r.svarint();
    else r.skip(wire);
  }
  readTags(data, keys, vals);
  tags.strings = strings;
  // Divided, not multiplied by 1e-9: the nearest double to the decimal, as a text reader would give.
  visitor.node?.(id, (f.lonOffset + f.granularity * lon) / 1e9, (f.latOffset + f.granularity * lat) / 1e9, tags);
}

function denseNodes(
  data: Uint8Array,
  start: number,
  end: number,
  f: BlockFrame,
  visitor: BlockVisitor,
  stringsOf: () => StringTable,
): number {
  const r = new ProtoReader(data, start, end);
  let ids: [number, number] | undefined;
  let lats: [number, number] | undefined;
  let lons: [number, number] | undefined;
  let kvs: [number, number] | undefined;
  while (!r.done) {
    const { field, wire } = r.key();
    if (wire !== BYTES) {
      r.skip(wire);
      continue;
    }
    const range = r.bytes();
    if (field === 1) ids = range;
    else if (field === 8) lats = range;
    else if (field === 9) lons = range;
    else if (field === 10) kvs = range;
  }
  if (!ids) return 0;
  const idr = new ProtoReader(data, ids[0], ids[1]);
  if (!visitor.node) {
    let n = 0;
    while (!idr.done) {
      idr.varint();
      n++;
    }
    return n;
  }
  if (!lats || !lons) throw new ProtobufError('dense nodes without coordinates');
  const latr = new ProtoReader(data, lats[0], lats[1]);
  const lonr = new ProtoReader(data, lons[0], lons[1]);
  const kvr = kvs ? new ProtoReader(data, kvs[0], kvs[1]) : undefined;
  const strings = stringsOf();
  tags.strings = strings;
  const granularity = f.granularity;
  const latOffset = f.latOffset;
  const lonOffset = f.lonOffset;
  let id = 0;
  let lat = 0;
  let lon = 0;
  let n = 0;
  while (!idr.done) {
    if (latr.done || lonr.done) throw new ProtobufError('dense nodes with fewer coordinates than ids');
    id += idr.svarint();
    lat += latr.svarint();
    lon += lonr.svarint();
    tags.reset();
    if (kvr) {
      for (;;) {
        if (kvr.done) throw new ProtobufError('dense nodes whose keys_vals end before their ids');
        const k = kvr.varint();
        if (k === 0) break;
        tags.push(k, kvr.varint());
      }
    }
    visitor.node(id, (lonOffset + granularity * lon) / 1e9, (latOffset + granularity * lat) / 1e9, tags);
    n++;
  }
  return n;
}

function way(data: Uint8Array, start: number, end: number, visitor: BlockVisitor, strings: StringTable): void {
  const r = new ProtoReader(data, start, end);
  let id = 0;
  let keys: [number, number] | undefined;
  let vals: [number, number] | undefined;
  let count = 0;
  while (!r.done) {
    const { field, wire } = r.key();
    if (field === 1 && wire === VARINT) id = r.int();
    else if (field === 2 && wire === BYTES) keys = r.bytes();
    else if (field === 3 && wire === BYTES) vals = r.bytes();
    else if (field === 8 && wire === BYTES) {
      const [s, e] = r.bytes();
      const refr = new ProtoReader(data, s, e);
      let ref = 0;
      while (!refr.done) {
        ref += refr.svarint();
        if (count === refs.length) {
          const bigger = new Float64Array(refs.length * 2);
          bigger.set(refs);
          refs = bigger;
        }
        refs[count++] = ref;
      }
    } else r.skip(wire);
  }
  readTags(data, keys, vals);
  tags.strings = strings;
  visitor.way?.(id, refs, count, tags);
}

function relation(data: Uint8Array, start: number, end: number, visitor: BlockVisitor, strings: StringTable): void {
  const r = new ProtoReader(data, start, end);
  let id = 0;
  let keys: [number, number] | undefined;
  let vals: [number, number] | undefined;
  const roles: number[] = [];
  const ids: number[] = [];
  const types: number[] = [];
  while (!r.done) {
    const { field, wire } = r.key();
    if (field === 1 && wire === VARINT) id = r.int();
    else if (field === 2 && wire === BYTES) keys = r.bytes();
    else if (field === 3 && wire === BYTES) vals = r.bytes();
    else if (field === 8 && wire === BYTES) {
      const [s, e] = r.bytes();
      const m = new ProtoReader(data, s, e);
      while (!m.done) roles.push(signed64(m.varint()));
    } else if (field === 9 && wire === BYTES) {
      const [s, e] = r.bytes();
      const m = new ProtoReader(data, s, e);
      let memberId = 0;
      while (!m.done) ids.push((memberId += m.svarint()));
    } else if (field === 10 && wire === BYTES) {
      const [s, e] = r.bytes();
      const m = new ProtoReader(data, s, e);
      while (!m.done) types.push(m.varint());
    } else r.skip(wire);
  }
  if (roles.length !== ids.length || types.length !== ids.length) {
    throw new ProtobufError(
      `relation ${id} has ${ids.length} members, ${roles.length} roles and ${types.length} types`,
    );
  }
  readTags(data, keys, vals);
  tags.strings = strings;
  const members: Member[] = ids.map((memberId, i) => ({
    type: types[i] as number,
    id: memberId,
    role: strings.get(roles[i] as number),
  }));
  visitor.relation?.(id, members, tags);
}
