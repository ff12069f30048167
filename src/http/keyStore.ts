/**
 * The accepted API keys (as sha256 digests), read by the auth middleware on every request. With API_KEYS_FILE
 * the file's part is reloaded on SIGHUP and whenever the file's folder changes (debounced), without a restart:
 * a reload swaps one array, so a request already past the key check is unaffected and the next one sees the
 * new keys. A reload that fails (file unreadable, bad `sha256:` line, zero bytes: perhaps caught mid-write) keeps
 * the current keys and logs an error; a file that says it holds no keys (only comments) revokes all of its keys.
 */
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from 'pino';
import { readKeyFile } from '../config/service.js';

/** Editors and secret managers replace a file in several steps (write, rename, symlink swap): one reload for all. */
export const RELOAD_DEBOUNCE_MS = 100;

export interface KeyFile {
  path: string;
  /** Keys accepted whatever the file holds (API_KEYS). */
  fixed: readonly string[];
  logger: Logger;
}

export class KeyStore {
  private digests: readonly Buffer[];
  private watcher: FSWatcher | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private readonly onHangup = () => this.reload();

  /** @param initial the digests accepted now (hex); `file`: where to reload the rest from. */
  constructor(
    initial: readonly string[],
    private readonly file?: KeyFile,
  ) {
    this.digests = toBuffers(initial);
  }

  accepted(): readonly Buffer[] {
    return this.digests;
  }

  /** Reads the file again; true when the keys were replaced. */
  reload(): boolean {
    if (!this.file) return false;
    try {
      const fromFile = readKeyFile(this.file.path);
      if (fromFile.length === 0) {
        this.file.logger.warn({ file: this.file.path }, 'API keys file holds no keys: every key it held is revoked');
      }
      const next = toBuffers([...new Set([...this.file.fixed, ...fromFile])]);
      const changed = !sameKeys(next, this.digests);
      this.digests = next;
      if (changed) this.file.logger.info({ keys: next.length, file: this.file.path }, 'API keys reloaded');
      return true;
    } catch (error) {
      this.file.logger.error(
        { err: error, file: this.file.path },
        'API keys reload failed; the previous keys stay in force',
      );
      return false;
    }
  }

  /** Reloads on SIGHUP and on changes in the file's folder (so a replaced or re-linked file is seen too). */
  watch(): this {
    if (!this.file || this.watcher) return this;
    const name = basename(this.file.path);
    this.watcher = watch(dirname(this.file.path), (_event, changed) => {
      // Kubernetes swaps a `..data` symlink, not the file: any change in the folder may be ours.
      if (changed && changed !== name && !changed.startsWith('..')) return;
      clearTimeout(this.debounce);
      this.debounce = setTimeout(() => this.reload(), RELOAD_DEBOUNCE_MS);
    });
    this.watcher.on('error', (error) => this.file?.logger.error({ err: error }, 'API keys file watch failed'));
    this.watcher.unref();
    process.on('SIGHUP', this.onHangup);
    return this;
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
    clearTimeout(this.debounce);
    process.off('SIGHUP', this.onHangup);
  }
}

function toBuffers(hex: readonly string[]): Buffer[] {
  return hex.map((digest) => Buffer.from(digest, 'hex'));
}

function sameKeys(a: readonly Buffer[], b: readonly Buffer[]): boolean {
  const seen = new Set(b.map((digest) => digest.toString('hex')));
  return a.length === b.length && a.every((digest) => seen.has(digest.toString('hex')));
}
