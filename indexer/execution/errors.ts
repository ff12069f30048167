/** How a run fails: always with the summary so far, so the CLI can still print what happened. */
import type { RunSummary } from './summary.js';

export class IndexingError extends Error {
  override name = 'IndexingError';
  constructor(
    message: string,
    public summary?: RunSummary,
  ) {
    super(message);
  }
}

export class IndexingAbortedError extends IndexingError {
  override name = 'IndexingAbortedError';
  constructor(readonly signalName: string) {
    super(`indexing aborted by ${signalName}`);
  }
}
