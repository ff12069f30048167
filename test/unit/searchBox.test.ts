/**
 * The search box's decisions that need no Elasticsearch: what the places index is asked once the address search has
 * answered, and how addresses and places are ordered.
 */
import { describe, expect, it } from 'vitest';
import { mergeSearchResults, placeSearchAfter } from '../../src/features/search/searchBox.js';
import type { SearchResult } from '../../src/schemas/responses.js';

describe('placeSearchAfter', () => {
  it('asks for the street of a confident address only, never the typo round (an address text names no place)', () => {
    const confident = { confidence: 0.9 };
    expect(placeSearchAfter([{ confidence: 1 }])).toEqual({ ask: 'street of address', address: { confidence: 1 } });
    expect(placeSearchAfter([{ confidence: 0.5 }, confident])).toEqual({
      ask: 'street of address',
      address: confident,
    });
  });

  it('asks for place names when no address, or only weak ones (another number on the street), was found', () => {
    expect(placeSearchAfter([])).toEqual({ ask: 'names' });
    expect(placeSearchAfter([{ confidence: 0.5 }, { confidence: 0.79 }])).toEqual({ ask: 'names' });
  });
});

describe('mergeSearchResults', () => {
  const address = (confidence: number) => ({ type: 'address', confidence }) as SearchResult;
  const city = { type: 'city', confidence: 1 } as SearchResult;

  it('puts confident addresses first, then places, then weak addresses, at most size', () => {
    const merged = mergeSearchResults([address(0.5), address(0.9)], [city], 10);
    expect(merged.map((r) => [r.type, r.confidence])).toEqual([
      ['address', 0.9],
      ['city', 1],
      ['address', 0.5],
    ]);
    expect(mergeSearchResults([address(0.5), address(0.9)], [city], 2)).toHaveLength(2);
  });
});
