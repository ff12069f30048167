import { PARENT_SLOT } from '../base/levels.js';
import type { Parents } from './records.js';

const SEQUENCE_SPAN = 2 ** 32;
const SLOTS = Object.values(PARENT_SLOT);

/**
 * Which of several records with the same full address Elasticsearch keeps (as its external version):
 * the one joined to the most parents (an address point inside its building beats a shop's point on
 * the pavement), then the earliest in the input. Deterministic under concurrent bulk requests.
 */
export function mergePriority(parents: Parents, sequence: number): number {
  let joined = 0;
  for (const slot of SLOTS) {
    if (parents[slot]) joined++;
  }
  return joined * SEQUENCE_SPAN + (SEQUENCE_SPAN - 1 - (sequence % SEQUENCE_SPAN));
}
