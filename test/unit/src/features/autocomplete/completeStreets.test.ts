import { describe, expect, it } from 'vitest';
import {
  parseAutocompleteQuery,
  type StreetPrefixQuery,
} from '../../../../../src/features/autocomplete/autocompleteInput.js';
import type { StreetHit } from '../../../../../src/features/autocomplete/autocompleteBodies.js';
import { streetWordTokens } from '../../../../../indexer/derived/streetDocuments.js';
import { streetKey } from '../../../../../core/text/normalise.js';
import {
  completeStreets,
  refine,
  shorterTexts,
  streetQuality,
} from '../../../../../src/features/autocomplete/completeStreets.js';
import {
  answerBytes,
  CompleteStreetCache,
  MAX_BYTES,
} from '../../../../../src/features/autocomplete/completeStreetCache.js';
import { sources } from '../../../../../src/indexes/paging.js';

const street = (streetname: string, other?: string): StreetHit => ({
  id: `street-${streetKey(streetname)}`,
  streetname,
  city: 'Delft',
  location: { lat: 52, lon: 4.37 },
  address_count: 10,
  street_key: streetKey(streetname),
  street_words: streetWordTokens(streetname),
  ...(other && { other_street_keys: [streetKey(other)], other_street_words: streetWordTokens(other) }),
});

const typed = (q: string, size = 10, focus = false): StreetPrefixQuery => {
  const read = parseAutocompleteQuery({ q, size, ...(focus && { lat: 52, lon: 4.37 }) });
  if (read?.kind !== 'street') throw new Error(`not a street: ${q}`);
  return read;
};

const mekelweg = street('Mekelweg');
const mekelwegpad = street('Mekelwegpad');
const waals = street('Van der Waalsweg');
const nieuw = street('Nieuwstraat', 'Rue Neuve');

describe('completeStreets', () => {
  it('takes an answer with fewer streets than asked for as every street that matches', () => {
    expect(completeStreets(typed('mekel'), [mekelweg, mekelwegpad])).toMatchObject({ text: 'mekel', glued: true });
  });

  it('does not take a full page, nor an answer kept near the focus, as complete', () => {
    expect(completeStreets(typed('mekel', 2), [mekelweg, mekelwegpad])).toBeUndefined();
    expect(completeStreets(typed('me', 10, true), [mekelweg])).toBeUndefined();
    expect(completeStreets(typed('me', 10, false), [mekelweg])).toBeDefined();
  });
});

describe('refine', () => {
  const complete = completeStreets(typed('mekel'), [mekelweg, mekelwegpad])!;

  it('keeps the streets the longer text matches, with the quality the search would score', () => {
    expect(refine(complete, typed('mekelweg'))).toEqual([
      { doc: mekelweg, quality: 'exact' },
      { doc: mekelwegpad, quality: 'starts' },
    ]);
    expect(refine(complete, typed('mekelwegp'))).toEqual([{ doc: mekelwegpad, quality: 'starts' }]);
    expect(refine(complete, typed('mekelwegpad'))).toEqual([{ doc: mekelwegpad, quality: 'exact' }]);
    expect(refine(complete, typed('mekelx'))).toEqual([]);
  });

  it('matches a later word, and the glued name only from five letters typed as one word', () => {
    const van = completeStreets(typed('van de'), [waals])!;
    // `van der w` is a prefix of a word tail, found as a later word's start is.
    expect(refine(van, typed('van der w'))).toEqual([{ doc: waals, quality: 'starts' }]);
    const glued = completeStreets(typed('vande'), [waals])!;
    expect(refine(glued, typed('vanderw'))).toEqual([{ doc: waals, quality: 'starts' }]);
    const waal = completeStreets(typed('waals'), [waals])!;
    expect(refine(waal, typed('waalsw'))).toEqual([{ doc: waals, quality: 'word' }]);
  });

  it('cannot answer a glued text from an answer that did not match glued names', () => {
    // `vand` (four letters) matched word tails only: Van der Waalsweg was not among its streets.
    expect(refine(completeStreets(typed('vand'), [])!, typed('vande'))).toBeUndefined();
    expect(refine(completeStreets(typed('mek'), [mekelweg])!, typed('mekel'))).toBeUndefined();
  });

  it('matches the other language, and scores its key', () => {
    const rue = completeStreets(typed('rue'), [nieuw])!;
    expect(refine(rue, typed('rue neuve'))).toEqual([{ doc: nieuw, quality: 'exact' }]);
    expect(streetQuality(nieuw, 'rueneu')).toBe('starts');
  });

  it('needs the points for a focus, and leaves a smaller page to the search', () => {
    expect(refine(complete, typed('mekelweg', 10, true))).toBeUndefined();
    const withPoints = completeStreets(typed('mekel', 10, true), [mekelweg, mekelwegpad])!;
    expect(refine(withPoints, typed('mekelweg', 10, true))).toHaveLength(2);
    expect(refine(withPoints, typed('mekelweg', 2, true))).toBeUndefined();
  });
});

describe('shorterTexts', () => {
  it('lists the shorter prefixes longest first, none ending in a space, none of two characters', () => {
    expect(shorterTexts(typed('van der w'))).toEqual(['van der', 'van de', 'van d', 'van']);
  });
});

describe('CompleteStreetCache', () => {
  const generations = (live: string) => ({ of: async () => [live] });
  const hit = (doc: StreetHit, index: string) => ({ _index: index, _id: doc.street_key, _source: doc });
  const answer = (hits: ReturnType<typeof hit>[], failed = 0) => ({
    took: 1,
    timed_out: false,
    _shards: { total: 1, successful: 1 - failed, failed },
    hits: { hits },
  });

  it('answers a longer keystroke from a complete shorter one of the same generation only', async () => {
    const cache = new CompleteStreetCache(generations('streets-1'));
    cache.remember('streets-1', typed('mekel'), answer([hit(mekelweg, 'streets-1'), hit(mekelwegpad, 'streets-1')]));
    expect(cache.find('streets-1', typed('mekelwegp'))).toEqual([{ doc: mekelwegpad, quality: 'starts' }]);
    // A reindex: the old generation's answers serve no keystroke of the new one.
    expect(cache.find('streets-2', typed('mekelwegp'))).toBeUndefined();
    // Not the same text (that is a cache of answers, which this is not), nor a shorter one.
    expect(cache.find('streets-1', typed('mekel'))).toBeUndefined();
    expect(cache.find('streets-1', typed('meke'))).toBeUndefined();
  });

  it('files an answer under the generation its hits came from, not the one looked up before the search', async () => {
    const cache = new CompleteStreetCache(generations('streets-1'));
    // The alias moved between the look-up (still cached as streets-1) and the search.
    cache.remember('streets-1', typed('mekel'), answer([hit(mekelweg, 'streets-2')]));
    expect(cache.find('streets-1', typed('mekelw'))).toBeUndefined();
    expect(cache.find('streets-2', typed('mekelw'))).toHaveLength(1);
    expect(await cache.generation()).toBe('streets-1');
  });

  it('remembers answers up to a bound in bytes, not only in count: long answers push the oldest out sooner', () => {
    const cache = new CompleteStreetCache(generations('streets-1'));
    // A text of letters only per answer (`straatbaa`...), nine long street names under it, each with its 16 points.
    const prefix = (i: number) =>
      `straat${[2, 1, 0].map((p) => String.fromCharCode(97 + (Math.floor(i / 26 ** p) % 26))).join('')}`;
    const points = Array.from({ length: 16 }, (_, k) => ({ lat: 52 + k / 1e4, lon: 4.3 + k / 1e4 }));
    const answerOf = (i: number) =>
      answer(
        'abcdefghi'.split('').map((letter) => {
          const doc = { ...street(`${prefix(i)}wegvandeburgemeestervannispenstraat${letter}`), points };
          return hit(doc, 'streets-1');
        }),
      );
    const answers = 1800;
    const first = answerOf(0);
    expect(answerBytes(completeStreets(typed(prefix(0)), sources(first.hits.hits))!) * answers).toBeGreaterThan(
      MAX_BYTES * 1.2,
    );
    for (let i = 0; i < answers; i++) cache.remember('streets-1', typed(prefix(i)), i === 0 ? first : answerOf(i));
    // Fewer than the 2,000 answers the count allows, more bytes than the bound: the first ones are forgotten.
    expect(cache.find('streets-1', typed(`${prefix(answers - 1)}w`))).toHaveLength(9);
    expect(cache.find('streets-1', typed(`${prefix(0)}w`))).toBeUndefined();
  });

  it('remembers no full page, and no answer a shard failed to give', () => {
    const cache = new CompleteStreetCache(generations('streets-1'));
    cache.remember('streets-1', typed('mekel', 2), answer([hit(mekelweg, 'streets-1'), hit(mekelwegpad, 'streets-1')]));
    expect(cache.find('streets-1', typed('mekelw', 2))).toBeUndefined();
    cache.remember('streets-1', typed('mekel'), answer([hit(mekelweg, 'streets-1')], 1));
    expect(cache.find('streets-1', typed('mekelw'))).toBeUndefined();
  });
});
