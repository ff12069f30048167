import { describe, expect, it } from 'vitest';
import { interleave, roundOrder } from '../../../../bench/support/interleave.js';

describe('interleaved rounds of the build-against-build benches', () => {
  const builds = ['a', 'b', 'c'];

  it('rotates the order so no build is always measured first', () => {
    expect([0, 1, 2, 3].map((round) => roundOrder(builds, round, 'rotate'))).toEqual([
      ['a', 'b', 'c'],
      ['b', 'c', 'a'],
      ['c', 'a', 'b'],
      ['a', 'b', 'c'],
    ]);
  });

  it('alternates the order, reversed on odd rounds, or keeps it', () => {
    expect([0, 1, 2].map((round) => roundOrder(builds, round, 'alternate'))).toEqual([
      ['a', 'b', 'c'],
      ['c', 'b', 'a'],
      ['a', 'b', 'c'],
    ]);
    expect(roundOrder(builds, 1, 'same')).toEqual(['a', 'b', 'c']);
  });

  it('measures one build at a time, every build once per round, and reports each round as it ends', async () => {
    const log: string[] = [];
    let running = 0;
    await interleave(
      ['a', 'b'],
      { rounds: 2, order: 'rotate', afterRound: (round) => log.push(`round ${round} done`) },
      async (build, round) => {
        running++;
        expect(running).toBe(1);
        await new Promise((r) => setTimeout(r, 1));
        log.push(`${build}${round}`);
        running--;
      },
    );
    expect(log).toEqual(['a0', 'b0', 'round 0 done', 'b1', 'a1', 'round 1 done']);
  });

  it('measures nothing for no builds or no rounds', async () => {
    const seen: string[] = [];
    await interleave([], { rounds: 3, order: 'rotate' }, async (b: string) => void seen.push(b));
    await interleave(['a'], { rounds: 0, order: 'rotate' }, async (b) => void seen.push(b));
    expect(seen).toEqual([]);
  });
});
