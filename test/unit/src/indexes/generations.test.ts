/**
 * The live-generation cache (src/indexes/generations.ts) with a fake client and a fake clock: which requests
 * wait on a lookup, which are answered from the cache while it refreshes in the background, and when what is
 * derived from a generation starts loading.
 */
import type { Client } from '@elastic/elasticsearch';
import { describe, expect, it } from 'vitest';
import { GenerationCache, IndexGenerations } from '../../../../src/indexes/generations.js';

const TTL = 1000;

function setup() {
  const state = { live: 'addresses-a', lookups: 0, clock: 0 };
  const client = {
    indices: {
      async resolveIndex() {
        state.lookups += 1;
        return { aliases: [{ name: 'addresses', indices: [state.live] }], indices: [] };
      },
    },
  };
  const generations = new IndexGenerations(client as unknown as Client, '', TTL, () => state.clock);
  const live = async () => (await generations.of(['addresses']))[0];
  return { state, generations, live };
}

/** Lets the background lookup (a resolved promise chain) finish. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('live index generations', () => {
  it('asks Elasticsearch once per second, and past half of it refreshes without holding the request', async () => {
    const { state, live } = setup();
    expect(await live()).toBe('addresses-a');
    state.clock = 400;
    expect(await live()).toBe('addresses-a');
    expect(state.lookups).toBe(1);

    // A reindex swapped the alias. Past half the TTL the cached answer is still given, and a lookup starts.
    state.live = 'addresses-b';
    state.clock = 600;
    expect(await live()).toBe('addresses-a');
    expect(state.lookups).toBe(2);
    await settle();
    state.clock = 700;
    expect(await live()).toBe('addresses-b');
    expect(state.lookups).toBe(2);
  });

  it('looks up again before answering once the cached generation is older than the TTL (an idle second)', async () => {
    const { state, live } = setup();
    expect(await live()).toBe('addresses-a');
    state.live = 'addresses-b';
    state.clock = TTL;
    expect(await live()).toBe('addresses-b');
  });

  it('tells each new generation once, before the request that noticed it goes on', async () => {
    const { state, generations, live } = setup();
    const told: string[] = [];
    generations.onNewGeneration('addresses', (generation) => told.push(`new ${generation}`));
    told.push(`answered ${await live()}`);
    state.clock = TTL;
    told.push(`answered ${await live()}`);
    state.live = 'addresses-b';
    state.clock = 2 * TTL;
    told.push(`answered ${await live()}`);
    expect(told).toEqual([
      'new addresses-a',
      'answered addresses-a',
      'answered addresses-a',
      'new addresses-b',
      'answered addresses-b',
    ]);
  });

  it('loads what is derived from a generation when the generation is noticed, once', async () => {
    const { state, generations } = setup();
    const loads: string[] = [];
    const cache = new GenerationCache(generations, 'addresses', async (generation) => {
      loads.push(generation);
      return generation.toUpperCase();
    }).loadOnNewGeneration();
    // Another reader of the addresses generation (an ETag) notices it first: the load starts there.
    await generations.of(['addresses']);
    expect(loads).toEqual(['addresses-a']);
    expect(await cache.get()).toBe('ADDRESSES-A');
    expect(loads).toEqual(['addresses-a']);

    state.live = 'addresses-b';
    state.clock = 600;
    await generations.of(['addresses']);
    await settle();
    expect(loads).toEqual(['addresses-a', 'addresses-b']);
    state.clock = 700;
    expect(await cache.get()).toBe('ADDRESSES-B');
    expect(loads).toEqual(['addresses-a', 'addresses-b']);
  });
});
