/**
 * Type-ahead answers a longer keystroke from a complete shorter one (completeStreets.ts) without searching. On the
 * sample (Delft and a Brussels slice, bilingual street names), in a real Elasticsearch: typed one character at a
 * time, with and without a map focus, every street keystroke gets the same suggestions as from the search alone,
 * and far fewer searches of the streets index go out.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { createElasticsearchClient } from '../../../../../core/elasticsearch/client.js';
import { aliasName } from '../../../../../core/elasticsearch/indexNames.js';
import type { StreetDoc } from '../../../../../core/elasticsearch/documents.js';
import { type Lane, SearchBatcher, type Searcher } from '../../../../../src/elasticsearch/searchBatcher.js';
import { AutocompleteRepository } from '../../../../../src/features/autocomplete/autocompleteRepository.js';
import { CompleteStreetCache } from '../../../../../src/features/autocomplete/completeStreetCache.js';
import { parseAutocompleteQuery } from '../../../../../src/features/autocomplete/autocompleteInput.js';
import { IndexGenerations } from '../../../../../src/indexes/generations.js';
import { testElasticsearchUrl } from '../../../../support/elasticsearch.js';

let client: Client;
let streets: Pick<StreetDoc, 'streetname' | 'street_names' | 'location'>[];
const prefix = () => inject('samplePrefix');

/** A repository whose searches of the streets index are counted. */
function repository(batcher: SearchBatcher, complete?: CompleteStreetCache) {
  const counted = { streetSearches: 0 };
  const searcher: Searcher = {
    search(index, body, lane: Lane = 'exact') {
      if (index.endsWith('streets')) counted.streetSearches++;
      return batcher.search(index, body, lane);
    },
  };
  return { repo: new AutocompleteRepository(searcher, prefix(), complete), counted };
}

beforeAll(async () => {
  client = createElasticsearchClient({ url: testElasticsearchUrl(), requestTimeoutMs: 30_000 });
  const res = await client.search<StreetDoc>({
    index: aliasName(prefix(), 'streets'),
    size: 10_000,
    _source: ['streetname', 'street_names', 'location'],
    sort: [{ street_key: 'asc' }, { city_key: 'asc' }],
  });
  streets = res.hits.hits.map((h) => h._source!);
});
afterAll(async () => {
  await client.close();
});

/** Every keystroke of a name, one character at a time, as a box sends them. */
const keystrokes = (name: string) =>
  Array.from({ length: name.length }, (_, i) => name.slice(0, i + 1)).filter((t) => !t.endsWith(' '));

describe('autocomplete: a longer keystroke from a complete shorter answer', () => {
  it('answers every keystroke of every street as the search does, with fewer searches', async () => {
    const batcher = new SearchBatcher(client, 16);
    const plain = repository(batcher);
    const refining = repository(batcher, new CompleteStreetCache(new IndexGenerations(client, prefix())));
    // Every name of every street in the sample: the Dutch and the French of Brussels' streets, and those of several
    // words also typed as one (`vanderwaalsweg`: the glued name).
    const named = streets.flatMap((street) =>
      [street.streetname, ...Object.values(street.street_names ?? {})].flatMap((name) => [
        { name, street },
        ...(name.includes(' ') ? [{ name: name.replaceAll(' ', ''), street }] : []),
      ]),
    );
    const names = [...new Map(named.map((n) => [n.name, n.street])).entries()];
    expect(names.length).toBeGreaterThan(150);
    let compared = 0;
    for (const [i, [name, street]] of names.entries()) {
      // Half typed on a map centred on the street (the other streets ranked by distance), half without; a few
      // boxes asking for fewer suggestions.
      const focus = i % 2 === 0 ? { lat: street.location.lat, lon: street.location.lon } : {};
      const size = i % 7 === 0 ? 5 : 10;
      for (const text of keystrokes(name)) {
        const q = parseAutocompleteQuery({ q: text, size, ...focus });
        if (q?.kind !== 'street') continue;
        const [expected, got] = [await plain.repo.suggest(q), await refining.repo.suggest(q)];
        expect(got, `${text} ${JSON.stringify(focus)} size ${size}`).toEqual(expected);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1000);
    // Most keystrokes past a street's first few characters are answered without a search.
    expect(refining.counted.streetSearches).toBeLessThan(plain.counted.streetSearches * 0.6);
  }, 180_000);
});
