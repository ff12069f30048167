/**
 * Node locations on disk, so memory does not grow with the file: nodes arrive in ascending id order (a PBF sorted by
 * type then id) and are written in pages of PAGE_NODES (id, lon, lat) to a temporary file; memory keeps the first id
 * of each page (8 bytes a page: 1 MB for 500 M nodes) and a few pages read back. A lookup is a binary search over
 * the pages' first ids, one positioned read on a cache miss, and a binary search inside the page. Ways refer to
 * nodes near each other, so most lookups hit a cached page.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PAGE_NODES = 4096;
/** Per page: ids as float64, then lon and lat as int32 in 1e-7 degrees (OSM's own resolution). */
const PAGE_BYTES = PAGE_NODES * 16;
const CACHED_PAGES = 32;

interface Page {
  index: number;
  count: number;
  ids: Float64Array;
  lons: Int32Array;
  lats: Int32Array;
}

function newPage(index: number): Page {
  const buffer = new ArrayBuffer(PAGE_BYTES);
  return {
    index,
    count: 0,
    ids: new Float64Array(buffer, 0, PAGE_NODES),
    lons: new Int32Array(buffer, PAGE_NODES * 8, PAGE_NODES),
    lats: new Int32Array(buffer, PAGE_NODES * 12, PAGE_NODES),
  };
}

export class NodeStore {
  private readonly dir: string;
  private readonly fd: number;
  private firstIds = new Float64Array(1024);
  private pages = 0;
  private writing: Page = newPage(0);
  private lastId = -Infinity;
  private readonly cache = new Map<number, Page>();
  count = 0;

  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'osm-nodes-'));
    this.fd = openSync(join(this.dir, 'nodes.bin'), 'w+');
  }

  /** False when `id` is not above the last one added (the caller reports the file as unsorted). */
  add(id: number, lon: number, lat: number): boolean {
    if (id <= this.lastId) return false;
    this.lastId = id;
    const p = this.writing;
    p.ids[p.count] = id;
    p.lons[p.count] = Math.round(lon * 1e7);
    p.lats[p.count] = Math.round(lat * 1e7);
    p.count++;
    this.count++;
    if (p.count === PAGE_NODES) this.flush();
    return true;
  }

  private flush(): void {
    const p = this.writing;
    if (p.count === 0) return;
    if (this.pages === this.firstIds.length) {
      const bigger = new Float64Array(this.firstIds.length * 2);
      bigger.set(this.firstIds);
      this.firstIds = bigger;
    }
    this.firstIds[this.pages] = p.ids[0] as number;
    writeSync(this.fd, new Uint8Array(p.ids.buffer), 0, PAGE_BYTES, p.index * PAGE_BYTES);
    this.pages++;
    this.writing = newPage(this.pages);
  }

  /** Ends the writing: every node added is findable from now on (nodes added later are refused). */
  seal(): void {
    this.flush();
    this.lastId = Infinity;
  }

  private page(index: number): Page {
    const cached = this.cache.get(index);
    if (cached) return cached;
    const p = newPage(index);
    readSync(this.fd, new Uint8Array(p.ids.buffer), 0, PAGE_BYTES, index * PAGE_BYTES);
    p.count = index === this.pages - 1 ? this.count - index * PAGE_NODES : PAGE_NODES;
    if (this.cache.size >= CACHED_PAGES) this.cache.delete(this.cache.keys().next().value as number);
    this.cache.set(index, p);
    return p;
  }

  /** Writes [lon, lat] of node `id` into `out` at `at`; false when the file has no such node. */
  get(id: number, out: number[] | Float64Array, at = 0): boolean {
    let lo = 0;
    let hi = this.pages - 1;
    if (hi < 0 || id < (this.firstIds[0] as number)) return false;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.firstIds[mid] as number) <= id) lo = mid;
      else hi = mid - 1;
    }
    const p = this.page(lo);
    let a = 0;
    let b = p.count - 1;
    while (a <= b) {
      const mid = (a + b) >>> 1;
      const v = p.ids[mid] as number;
      if (v === id) {
        out[at] = (p.lons[mid] as number) / 1e7;
        out[at + 1] = (p.lats[mid] as number) / 1e7;
        return true;
      }
      if (v < id) a = mid + 1;
      else b = mid - 1;
    }
    return false;
  }

  close(): void {
    closeSync(this.fd);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
