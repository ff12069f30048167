/**
 * The interleaved rounds of the benches that set builds (or variants) side by side on a shared machine: every one
 * measured once per round, one at a time, round after round, so the machine's noise falls on each alike.
 *
 * How the order changes from round to round:
 * - `rotate`: each round starts one later (round r measures r, r+1, ... modulo their count), so none is always
 *   first (bench:cost, bench:batch);
 * - `alternate`: as given on even rounds, reversed on odd ones (bench:tail);
 * - `same`: as given every round (bench:mixed).
 */
export type RoundOrder = 'rotate' | 'alternate' | 'same';

export interface InterleaveOptions {
  rounds: number;
  order: RoundOrder;
  /** Called as each round ends, with its number (from 0): a progress line, the load average. */
  afterRound?: (round: number) => void;
}

/** The items in the order round `round` measures them. */
export function roundOrder<T>(items: readonly T[], round: number, order: RoundOrder): T[] {
  if (order === 'alternate') return round % 2 ? [...items].reverse() : [...items];
  if (order === 'same') return [...items];
  return items.map((_, k) => items[(round + k) % items.length]!);
}

/** Measures every item once per round, in that round's order, each measurement finished before the next starts. */
export async function interleave<T>(
  items: readonly T[],
  options: InterleaveOptions,
  measure: (item: T, round: number) => Promise<void>,
): Promise<void> {
  for (let round = 0; round < options.rounds; round++) {
    for (const item of roundOrder(items, round, options.order)) await measure(item, round);
    options.afterRound?.(round);
  }
}
