import type { Geometry } from 'geojson';

/** One record of a source file, or the reason the file could not yield it. */
export interface SourceItem {
  /** 1-based line (CSV, GeoJSONSeq; for CSV the record's first line) or feature number (GeoJSON). */
  position: number;
  props: Record<string, unknown>;
  geometry?: Geometry | null;
  /** Set when the record itself is unreadable (bad CSV quoting, a line that is not JSON). */
  error?: string;
  /** What could be recovered of an unreadable record (raw text, or the CSV fields). */
  raw?: unknown;
  /**
   * CSV: the physical lines the record (or the unreadable stretch) covers, when more than one: a quoted field
   * spanning lines, or a quote never closed that swallowed the lines after it.
   */
  lines?: number;
  /** Read but not for loading: a status the source's format skips (BAG, BeST). Counted as skipped. */
  skip?: boolean;
  /**
   * Set when the record's geometry cannot be read (a GeoPackage blob cut short, nested too deep, in another SRS, a
   * polygon without rings): the record is rejected as `invalid_geometry` with this reason, and the file read on.
   */
  invalidGeometry?: string;
  /** GeoPackage: the feature table and fid (its rowid) the record was read from; rejects name them. */
  table?: string;
  fid?: number;
}

/** Bytes consumed of the file on disk (compressed, for .gz): the only size known up front. */
export interface ReadProgress {
  bytesRead: number;
  totalBytes: number;
}

/** What a reader reports of a whole file once it has read it. */
export interface ReadStats {
  /** Physical lines of the (decoded) text; undefined for a GeoJSON FeatureCollection, where lines mean nothing. */
  lines?: number;
  encoding: string;
  /** Formats that filter by status (BAG, BeST): the records per status kept and skipped. */
  statuses?: StatusCounts;
}

export interface StatusCounts {
  kept: Record<string, number>;
  skipped: Record<string, number>;
}

/** How to read one source file. */
export interface ReadOptions {
  encoding?: string | undefined;
  progress?: ((p: ReadProgress) => void) | undefined;
  /** Filled in once the whole file has been read. */
  stats?: ReadStats | undefined;
}

/**
 * A source file that cannot be read on (damaged gzip, invalid UTF-8, not JSON): the run stops. The message names
 * the file, the position and what was read before it.
 */
export class SourceFileError extends Error {
  override name = 'SourceFileError';
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}
