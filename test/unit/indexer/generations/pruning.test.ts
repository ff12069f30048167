import { describe, expect, it } from 'vitest';
import type { GenerationInfo } from '../../../../indexer/generations/generations.js';
import { orphanGenerations, prunableGenerations, rollbackChain } from '../../../../indexer/generations/pruning.js';

/** Newest first, as listGenerations returns them. */
function generations(spec: [string, 'complete' | 'incomplete', 'live'?][]): GenerationInfo[] {
  return spec.map(([generation, state, live]) => ({
    generation,
    indexes: {},
    complete: state === 'complete',
    live: live === 'live',
  }));
}

describe('pruning decisions', () => {
  it('protects the generation live before a run and its predecessor, only when complete', () => {
    const before = generations([
      ['5', 'incomplete'],
      ['4', 'complete'],
      ['3', 'complete', 'live'],
      ['2', 'incomplete'],
      ['1', 'complete'],
    ]);
    expect(rollbackChain(before, '3')).toEqual(['3', '1']);
    expect(rollbackChain(before, '1')).toEqual(['1']);
    expect(rollbackChain(before, null)).toEqual([]);
    // A live generation written before a kind existed is no rollback target: nothing to protect.
    expect(rollbackChain(before, '2')).toEqual([]);
  });

  it('after rollback and a new run, deletes the generation rolled away from whatever --keep says', () => {
    // 1, 2 (predecessor, live before the run), 3 (rolled away from), 4 (the run's own, live now).
    const after = generations([
      ['4', 'complete', 'live'],
      ['3', 'complete'],
      ['2', 'complete'],
      ['1', 'complete'],
    ]);
    const protect = ['4', '2', '1'];
    for (const keep of [1, 2, 3, 4, 10]) expect(prunableGenerations(after, { keep, protect })).toEqual(['3']);
  });

  it('fills --keep down the rollback chain, below the oldest protected generation', () => {
    const after = generations([
      ['6', 'complete', 'live'],
      ['5', 'complete'],
      ['4', 'complete'],
      ['3', 'complete'],
      ['2', 'complete'],
    ]);
    expect(prunableGenerations(after, { keep: 1, protect: ['6', '5', '4'] })).toEqual(['3', '2']);
    expect(prunableGenerations(after, { keep: 4, protect: ['6', '5', '4'] })).toEqual(['2']);
    expect(prunableGenerations(after, { keep: 2, protect: ['6'] })).toEqual(['4', '3', '2']);
  });

  it('never names the live generation, and takes incomplete ones other than live or protected for orphans', () => {
    const state = generations([
      ['9', 'incomplete'],
      ['8', 'complete', 'live'],
      ['7', 'incomplete'],
      ['6', 'incomplete', 'live'],
    ]);
    expect(prunableGenerations(state, { keep: 1, protect: [] })).toEqual([]);
    expect(orphanGenerations(state, ['9'])).toEqual(['7']);
    expect(orphanGenerations(state, [])).toEqual(['9', '7']);
  });
});
