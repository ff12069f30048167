import { describe, expect, it } from 'vitest';
import {
  cellCentre,
  isShortPrefix,
  ShortPrefixCache,
} from '../../../../../src/features/autocomplete/shortPrefixCache.js';

/** A generation lookup whose answer the test moves (a reindex). */
function generations() {
  const state = { live: ['streets-1', 'places-1', 'areas-1'] };
  return { state, of: async () => state.live };
}

describe('the first keystrokes, shared', () => {
  it('shares texts of up to three characters once normalised', () => {
    expect(isShortPrefix('m')).toBe(true);
    expect(isShortPrefix("'s-G")).toBe(true);
    expect(isShortPrefix('Mek')).toBe(true);
    expect(isShortPrefix('Meke')).toBe(false);
    expect(isShortPrefix('--')).toBe(false);
  });

  it('moves a focus to the centre of its cell', () => {
    expect(cellCentre(52.0001)).toBe(52.005);
    expect(cellCentre(52.0099)).toBe(52.005);
    expect(cellCentre(4.3749)).toBe(4.375);
    expect(cellCentre(-0.001)).toBe(-0.005);
  });

  it('computes an answer once per key and generation, and forgets a failure', async () => {
    const g = generations();
    const cache = new ShortPrefixCache<string[]>(g);
    let computed = 0;
    const compute = async () => [`answer ${++computed}`];
    const [a, b] = await Promise.all([cache.get('me', compute), cache.get('me', compute)]);
    expect(a).toEqual(['answer 1']);
    expect(b).toBe(a);
    expect(await cache.get('mo', compute)).toEqual(['answer 2']);
    g.state.live = ['streets-2', 'places-1', 'areas-1'];
    expect(await cache.get('me', compute)).toEqual(['answer 3']);
    await expect(cache.get('mi', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('mi', compute)).toEqual(['answer 4']);
  });
});
