/**
 * How a run is stopped: by the caller's signal (or a lost lock), or by SIGINT/SIGTERM while it is in progress. Up to
 * the alias swap either way the run's own signal aborts and the run deletes the indexes it created. `commit()`, right
 * before the swap, is the one point where that is decided: an abort noticed by then is thrown there (the run then
 * deletes its indexes and never swaps); one arriving later lets the swap finish, and the run says so.
 */
import { IndexingAbortedError } from './errors.js';
import type { Logger } from '../base/logger.js';

export interface RunAbort {
  readonly signal: AbortSignal;
  /**
   * The point of no return, right before the alias swap: throws the abort's reason if the run was stopped (so it
   * deletes its indexes instead of swapping). From here on neither the caller's signal nor a lost lock aborts, and
   * the first SIGINT/SIGTERM is only noted (`late`) and logged while the run finishes; a second one ends the
   * process as Node does by default.
   */
  commit(): void;
  /** The signal received after commit(), if any: the run finished its swap and is to say so. */
  readonly late: NodeJS.Signals | undefined;
  /** Detach from everything; call once the run has ended. */
  release(): void;
}

export function watchAbort(external: AbortSignal | undefined, handleSignals: boolean, log: Logger): RunAbort {
  const controller = new AbortController();
  const onExternalAbort = () => controller.abort(external?.reason ?? new IndexingAbortedError('signal'));
  external?.addEventListener('abort', onExternalAbort, { once: true });
  if (external?.aborted) onExternalAbort();
  let late: NodeJS.Signals | undefined;
  const signalHandlers: [NodeJS.Signals, () => void][] = [];
  const listen = (handler: (sig: NodeJS.Signals) => void) => {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      const listener = () => handler(sig);
      process.on(sig, listener);
      signalHandlers.push([sig, listener]);
    }
  };
  const releaseSignals = () => {
    for (const [sig, handler] of signalHandlers) process.off(sig, handler);
    signalHandlers.length = 0;
  };
  if (handleSignals) {
    listen((sig) => {
      log.warn({ signal: sig }, 'interrupted: deleting this run’s indexes');
      controller.abort(new IndexingAbortedError(sig));
    });
  }
  return {
    signal: controller.signal,
    get late() {
      return late;
    },
    commit() {
      // Synchronous from the check to the new handlers: no signal falls between them.
      if (controller.signal.aborted) throw controller.signal.reason;
      external?.removeEventListener('abort', onExternalAbort);
      if (!handleSignals) return;
      releaseSignals();
      listen((sig) => {
        late = sig;
        // Once: a second signal finds no listener and ends the process.
        releaseSignals();
        log.warn({ signal: sig }, 'interrupted after the alias swap began: finishing the swap, then exiting');
      });
    },
    release() {
      releaseSignals();
      external?.removeEventListener('abort', onExternalAbort);
    },
  };
}
