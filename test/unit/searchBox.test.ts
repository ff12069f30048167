/**
 * The search box's decisions that need no Elasticsearch: what the places index is asked after the first round, and how
 * addresses and places are ordered.
 */
import { describe, expect, it } from 'vitest';
import { mergeSearchResults, placeFollowUp } from '../../src/features/search/searchBox.js';
import type { PlaceResult } from '../../src/features/search/placeRecords.js';
import type { SearchResult } from '../../src/schemas/responses.js';

const place = { type: 'city', name: 'Delft', match: 'exact', confidence: 1 } as PlaceResult;

describe('placeFollowUp', () => {
  it('asks for the street of a confident address instead of the typo round (an address text is no misspelt place)', () => {
    const confident = { confidence: 0.9 };
    expect(placeFollowUp([{ confidence: 1 }], [])).toEqual({ ask: 'street of address', address: { confidence: 1 } });
    expect(placeFollowUp([{ confidence: 0.5 }, confident], [])).toEqual({
      ask: 'street of address',
      address: confident,
    });
  });

  it('asks nothing more when a place matched exactly or by prefix', () => {
    expect(placeFollowUp([], [place])).toEqual({ ask: 'nothing' });
    expect(placeFollowUp([{ confidence: 1 }], [place])).toEqual({ ask: 'nothing' });
  });

  it('sends the typo round when nothing was found, or only weak addresses (another number on the street)', () => {
    expect(placeFollowUp([], [])).toEqual({ ask: 'typos' });
    expect(placeFollowUp([{ confidence: 0.5 }, { confidence: 0.79 }], [])).toEqual({ ask: 'typos' });
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
