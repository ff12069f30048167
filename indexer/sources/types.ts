import type { Geometry } from 'geojson';

/** One record of a source file, or the reason the file could not yield it. */
export interface SourceItem {
  /** 1-based line (CSV, GeoJSONSeq) or feature number (GeoJSON). */
  position: number;
  props: Record<string, unknown>;
  geometry?: Geometry | null;
  /** Set when the record itself is unreadable (bad CSV quoting, a line that is not JSON). */
  error?: string;
  /** What could be recovered of an unreadable record (raw text, or the CSV fields). */
  raw?: unknown;
}

/** Bytes consumed of the file on disk (compressed, for .gz): the only size known up front. */
export interface ReadProgress {
  bytesRead: number;
  totalBytes: number;
}
