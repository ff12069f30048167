/**
 * The search box's decisions that need no Elasticsearch: what the places index is asked once the address search has
 * answered, and how addresses and places are ordered.
 */
import { describe, expect, it } from 'vitest';
import { mergeSearchResults, placeSearchAfter } from '../../../../../src/features/search/searchBox.js';
import type { SearchResult } from '../../../../../src/schemas/responses.js';
import type { MatchCodes } from '../../../../../src/features/address/matchQuality.js';

describe('placeSearchAfter', () => {
  const graded = (
    confidence: number,
    number: MatchCodes['number'] = 'exact',
    street: MatchCodes['street'] = 'exact',
  ) => ({
    confidence,
    match: { street, number, postcode: 'none' as const, city: 'none' as const },
  });

  it('asks for the street of a confident address only, never the typo round (an address text names no place)', () => {
    const confident = graded(0.9);
    expect(placeSearchAfter([graded(1)])).toEqual({
      ask: 'street of address',
      address: graded(1),
      numberMissing: false,
    });
    expect(placeSearchAfter([graded(0.5, 'nearest', 'fuzzy'), confident])).toEqual({
      ask: 'street of address',
      address: confident,
      numberMissing: false,
    });
  });

  it('asks for place names when no address, or only weak ones (a look-alike street), was found', () => {
    expect(placeSearchAfter([])).toEqual({ ask: 'names' });
    expect(placeSearchAfter([graded(0.6, 'exact', 'fuzzy'), graded(0.79, 'exact', 'fuzzy')])).toEqual({ ask: 'names' });
    expect(placeSearchAfter([graded(0.377, 'nearest', 'fuzzy')])).toEqual({ ask: 'names' });
  });

  it('asks for the street itself when the right street lacks the number typed (issue 49: the street answers first)', () => {
    const nearest = graded(0.5, 'nearest');
    expect(placeSearchAfter([nearest])).toEqual({ ask: 'street of address', address: nearest, numberMissing: true });
    const normalized = graded(0.485, 'nearest', 'normalized');
    expect(placeSearchAfter([normalized])).toMatchObject({ ask: 'street of address', numberMissing: true });
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
