import { IndexingError } from '../execution/errors.js';

/** `update` will not apply this snapshot (too large a change, a live generation it cannot start from): nothing swapped. */
export class UpdateRefusedError extends IndexingError {
  override name = 'UpdateRefusedError';
}
