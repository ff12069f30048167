/**
 * How a run is stopped: by the caller's signal, or by SIGINT/SIGTERM while it is in progress. Either
 * way the run's own signal aborts and the run deletes the indexes it created.
 */
import { IndexingAbortedError } from './errors.js';
import type { Logger } from './logger.js';

export interface RunAbort {
  readonly signal: AbortSignal;
  /** Stop catching SIGINT/SIGTERM: from the alias swap on, the run is a success. */
  releaseSignals(): void;
  /** Detach from everything; call once the run has ended. */
  release(): void;
}

export function watchAbort(external: AbortSignal | undefined, handleSignals: boolean, log: Logger): RunAbort {
  const controller = new AbortController();
  const onExternalAbort = () => controller.abort(external?.reason ?? new IndexingAbortedError('signal'));
  external?.addEventListener('abort', onExternalAbort, { once: true });
  if (external?.aborted) onExternalAbort();
  const signalHandlers: [NodeJS.Signals, () => void][] = [];
  if (handleSignals) {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      const handler = () => {
        log.warn({ signal: sig }, 'interrupted: deleting this run’s indexes');
        controller.abort(new IndexingAbortedError(sig));
      };
      process.on(sig, handler);
      signalHandlers.push([sig, handler]);
    }
  }
  const releaseSignals = () => {
    for (const [sig, handler] of signalHandlers) process.off(sig, handler);
    signalHandlers.length = 0;
  };
  return {
    signal: controller.signal,
    releaseSignals,
    release() {
      releaseSignals();
      external?.removeEventListener('abort', onExternalAbort);
    },
  };
}
