/**
 * GeoPackage geometry blobs to GeoJSON geometries (pure). A blob is the GeoPackage binary header (OGC 12-128r18,
 * §2.1.3: magic `GP`, version, flags, srs_id, optional envelope) followed by Well-Known Binary (ISO 13249-3, with the
 * 1000/2000/3000 offsets for Z, M and ZM; the older EWKB high-bit flags are read too). Z and M values are dropped:
 * the index stores planar positions. Nesting (collections and multi-geometries holding geometries) is read to at
 * most `MAX_DEPTH` levels: a blob nested deeper is refused, never left to overflow the stack. Every fault of a blob
 * is a GeometryBlobError: a fault of its row, not of the file.
 */
import type { Geometry, Position } from 'geojson';

export class GeometryBlobError extends Error {
  override name = 'GeometryBlobError';
}

/** How deep geometries may nest: a point inside 32 collections is read, one inside 33 is refused. */
export const MAX_DEPTH = 32;

/** Envelope sizes in bytes by the flags' envelope indicator (0: none, 1: xy, 2: xyz, 3: xym, 4: xyzm). */
const ENVELOPE_BYTES = [0, 32, 48, 48, 64];

export interface BlobHeader {
  srsId: number;
  empty: boolean;
  /** Byte offset of the WKB after the header. */
  wkbOffset: number;
}

export function readBlobHeader(blob: Uint8Array): BlobHeader {
  if (!(blob instanceof Uint8Array)) {
    throw new GeometryBlobError(`the geometry column holds a ${typeof blob} value, not a geometry blob`);
  }
  if (blob[0] !== 0x47 || blob[1] !== 0x50) {
    throw new GeometryBlobError('not a GeoPackage geometry blob (no "GP" magic)');
  }
  if (blob.length < 8)
    throw new GeometryBlobError(`geometry blob of ${blob.length} bytes, shorter than its 8-byte header`);
  const flags = blob[3] as number;
  if (flags & 0x20) throw new GeometryBlobError('extended GeoPackage geometry blobs are not supported');
  const envelope = (flags >> 1) & 0x07;
  const envelopeBytes = ENVELOPE_BYTES[envelope];
  if (envelopeBytes === undefined) throw new GeometryBlobError(`invalid envelope indicator ${envelope}`);
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const srsId = view.getInt32(4, (flags & 0x01) === 1);
  const wkbOffset = 8 + envelopeBytes;
  if (wkbOffset > blob.length) {
    throw new GeometryBlobError(`geometry blob of ${blob.length} bytes, shorter than its ${wkbOffset}-byte header`);
  }
  return { srsId, empty: (flags & 0x10) !== 0, wkbOffset };
}

class WkbReader {
  private readonly view: DataView;
  private offset: number;
  constructor(blob: Uint8Array, offset: number) {
    this.view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
    this.offset = offset;
  }

  private need(bytes: number): void {
    if (this.offset + bytes > this.view.byteLength) {
      throw new GeometryBlobError(
        `WKB ends before its geometry does (${bytes} bytes needed at byte ${this.offset} of ${this.view.byteLength})`,
      );
    }
  }

  /** A geometry `depth` levels inside collections or multi-geometries (0: the blob's own). */
  geometry(depth = 0): Geometry {
    if (depth > MAX_DEPTH) throw new GeometryBlobError(`WKB nested deeper than ${MAX_DEPTH} levels`);
    this.need(5);
    const little = this.view.getUint8(this.offset) === 1;
    const raw = this.view.getUint32(this.offset + 1, little);
    this.offset += 5;
    let dims = 2;
    if (raw & 0x80000000) dims++; // EWKB Z
    if (raw & 0x40000000) dims++; // EWKB M
    if (raw & 0x20000000) {
      this.need(4);
      this.offset += 4; // EWKB SRID
    }
    const iso = raw & 0x0fffffff;
    const base = iso % 1000;
    const variant = Math.floor(iso / 1000);
    if (variant === 1 || variant === 2) dims = 3;
    else if (variant === 3) dims = 4;
    const p = () => this.position(little, dims);
    const ring = () => this.list(little, p);
    switch (base) {
      case 1:
        return { type: 'Point', coordinates: p() };
      case 2:
        return { type: 'LineString', coordinates: ring() };
      case 3:
        return { type: 'Polygon', coordinates: this.list(little, ring) };
      case 4:
        return { type: 'MultiPoint', coordinates: this.members(little, 'Point', depth) };
      case 5:
        return { type: 'MultiLineString', coordinates: this.members(little, 'LineString', depth) };
      case 6:
        return { type: 'MultiPolygon', coordinates: this.members(little, 'Polygon', depth) };
      case 7:
        return { type: 'GeometryCollection', geometries: this.list(little, () => this.geometry(depth + 1)) };
      default:
        throw new GeometryBlobError(`unsupported WKB geometry type ${raw}`);
    }
  }

  private position(little: boolean, dims: number): Position {
    this.need(8 * dims);
    const x = this.view.getFloat64(this.offset, little);
    const y = this.view.getFloat64(this.offset + 8, little);
    this.offset += 8 * dims;
    return [x, y];
  }

  private list<T>(little: boolean, item: () => T): T[] {
    this.need(4);
    const n = this.view.getUint32(this.offset, little);
    this.offset += 4;
    // Every item takes at least 4 bytes: a count beyond what is left is a damaged blob, not an allocation.
    if (n * 4 > this.view.byteLength - this.offset) throw new GeometryBlobError('WKB count beyond the blob');
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(item());
    return out;
  }

  private members<T extends 'Point' | 'LineString' | 'Polygon'>(little: boolean, type: T, depth: number) {
    return this.list(little, () => {
      const g = this.geometry(depth + 1);
      if (g.type !== type) throw new GeometryBlobError(`a Multi${type} holds a ${g.type}`);
      return g.coordinates;
    }) as never;
  }
}

/** Fast path for the commonest blob (every verblijfsobject): a 2D point, read without the general reader. */
function plainPoint(blob: Uint8Array, offset: number): Geometry | undefined {
  if (blob.length !== offset + 21) return undefined;
  const view = new DataView(blob.buffer, blob.byteOffset + offset, 21);
  const little = view.getUint8(0) === 1;
  if (view.getUint32(1, little) !== 1) return undefined;
  return { type: 'Point', coordinates: [view.getFloat64(5, little), view.getFloat64(13, little)] };
}

/** The blob's geometry in its own SRS, or null for an empty geometry (flag set, or a NULL column value). */
export function parseGeometryBlob(blob: Uint8Array | null | undefined): { srsId: number; geometry: Geometry | null } {
  if (!blob) return { srsId: 0, geometry: null };
  const header = readBlobHeader(blob);
  if (header.empty) return { srsId: header.srsId, geometry: null };
  const point = plainPoint(blob, header.wkbOffset);
  if (point) return { srsId: header.srsId, geometry: point };
  return { srsId: header.srsId, geometry: new WkbReader(blob, header.wkbOffset).geometry() };
}
