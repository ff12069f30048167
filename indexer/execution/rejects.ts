/**
 * The rejects file: one JSON line per record that was not indexed, so bad input never goes missing
 * silently. Opened on the first reject only, so a clean run leaves no empty file behind.
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { LevelName } from '../base/levels.js';
import type { RejectReason } from '../base/rejectReasons.js';

export interface RejectEntry {
  level: LevelName;
  source: string;
  /** 1-based line (CSV, GeoJSONSeq) or feature number (GeoJSON); null when it could not be traced. */
  line: number | null;
  reason: RejectReason;
  detail: string;
  record: unknown;
  /** Physical lines the record covered, when more than one (each counted as a reject). */
  lines?: number;
  /** A GeoPackage row's feature table and fid (`line` is then the row's number in the reader's order). */
  table?: string;
  fid?: number;
}

const MAX_RECORD_CHARS = 20_000;

/** Keeps a reject line readable: a huge broken polygon is summarised rather than copied whole. */
export function boundedRecord(record: unknown): unknown {
  const text = JSON.stringify(record);
  if (text === undefined || text.length <= MAX_RECORD_CHARS) return record;
  return { truncated: true, json: text.slice(0, MAX_RECORD_CHARS) };
}

export class RejectsWriter {
  private stream: WriteStream | undefined;
  private opening: Promise<void> | undefined;
  readonly byReason: Partial<Record<RejectReason, number>> = {};
  count = 0;

  constructor(readonly path: string) {}

  async write(entry: RejectEntry): Promise<void> {
    const weight = entry.lines ?? 1;
    this.count += weight;
    this.byReason[entry.reason] = (this.byReason[entry.reason] ?? 0) + weight;
    if (!this.stream) {
      this.opening ??= mkdir(dirname(this.path), { recursive: true }).then(() => {
        this.stream = createWriteStream(this.path, { flags: 'w' });
      });
      await this.opening;
    }
    const line = `${JSON.stringify({ ...entry, record: boundedRecord(entry.record) })}\n`;
    if (!(this.stream as WriteStream).write(line)) await once(this.stream as WriteStream, 'drain');
  }

  /** For callbacks that cannot await (the bulk helper's onDrop): writes are ordered anyway. */
  writeLater(entry: RejectEntry): void {
    this.pending = this.pending.then(() => this.write(entry));
  }

  private pending: Promise<void> = Promise.resolve();

  get written(): boolean {
    return this.count > 0;
  }

  async close(): Promise<void> {
    await this.pending;
    if (this.opening) await this.opening;
    const stream = this.stream;
    if (!stream) return;
    await new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
}
