/**
 * The one point where an interrupt stops being an abort: `commit()`, right before the alias swap. A signal before it
 * aborts (commit throws, the run deletes its indexes); one after it is noted and logged while the run finishes, and
 * a second one is left to Node's default (no listener).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { IndexingAbortedError } from '../../../../indexer/execution/errors.js';
import { type RunAbort, watchAbort } from '../../../../indexer/execution/runAbort.js';

const listeners = () => process.listenerCount('SIGINT') + process.listenerCount('SIGTERM');

function watched(external?: AbortSignal) {
  const warnings: string[] = [];
  const log = { info() {}, warn: (_o: object | string, msg?: string) => void warnings.push(String(msg)), error() {} };
  return { abort: watchAbort(external, true, log), warnings };
}

let abort: RunAbort | undefined;
afterEach(() => {
  abort?.release();
  expect(listeners()).toBe(0);
});

describe('watchAbort', () => {
  it('a signal before commit aborts the run, and commit throws it', () => {
    const w = watched();
    abort = w.abort;
    process.emit('SIGTERM', 'SIGTERM');
    expect(abort.signal.aborted).toBe(true);
    expect(() => abort?.commit()).toThrow(IndexingAbortedError);
    expect(w.warnings).toEqual(['interrupted: deleting this run’s indexes']);
  });

  it('a signal after commit is noted, not an abort; a second one finds no listener', () => {
    const w = watched();
    abort = w.abort;
    abort.commit();
    process.emit('SIGINT', 'SIGINT');
    expect(abort.signal.aborted).toBe(false);
    expect(abort.late).toBe('SIGINT');
    expect(w.warnings).toEqual(['interrupted after the alias swap began: finishing the swap, then exiting']);
    expect(listeners()).toBe(0);
  });

  it("the caller's signal (or a lost lock) aborts up to commit, not after it", () => {
    const before = new AbortController();
    abort = watched(before.signal).abort;
    before.abort(new Error('lock lost'));
    expect(() => abort?.commit()).toThrow('lock lost');
    abort.release();

    const after = new AbortController();
    abort = watched(after.signal).abort;
    abort.commit();
    after.abort(new Error('lock lost'));
    expect(abort.signal.aborted).toBe(false);
  });
});
