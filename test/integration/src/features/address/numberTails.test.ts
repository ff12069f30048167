/**
 * House-number tails (issue 36) through GET /search and POST /geocode/forward against the sample in a real
 * Elasticsearch: each form with register values the sample holds (the Brussels slice's boxes as the register wrote
 * them: `2.16`, `b3.3`, `7 RC`, `A 10`, `RCà2`, `.2E`, `RC+1`; Delft's OSM additions `139A-1`, `1-II`), and the city
 * typed holding whatever the tail is read as.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SearchResponse } from '../../../../../src/schemas/responses.js';
import { HeldSuffixRepository } from '../../../../../src/features/address/heldSuffixes.js';
import { IndexGenerations } from '../../../../../src/indexes/generations.js';
import { startTestApi, type TestApi } from '../../../../support/api.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

async function first(q: string) {
  const res = await api.call('GET', `/search?${new URLSearchParams({ q, size: '3' })}`);
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  return SearchResponse.parse(res.body)[0];
}

describe('a house-number tail in the search box reads as the unit the register holds', () => {
  it.each([
    // `b` and a four-digit number, no other postcode: the house letter and the postcode (Elizastraat 45B; 45 has no
    // box 1050).
    ['elizastraat 45 b 1050 elsene', 'Elizastraat', '45', 'B'],
    // Box words with and without a dot (the register: Nieuwstraat 8 + b003).
    ['Nieuwstraat 8 bt 3, 1000 Brussel', 'Nieuwstraat', '8', '-B003'],
    ['Nieuwstraat 8 bt. 3 Brussel', 'Nieuwstraat', '8', '-B003'],
    ['Nieuwstraat 8 bte. 3, 1000 Brussel', 'Nieuwstraat', '8', '-B003'],
    ['Nieuwstraat 8 b. 3 Brussel', 'Nieuwstraat', '8', '-B003'],
    // The register's own box strings after `bus`.
    ['Nieuwstraat 11 bus 2.16, 1000 Brussel', 'Nieuwstraat', '11', '-216'],
    ['Idaliestraat 19 bus b3.3, 1050 Elsene', 'Idaliestraat', '19', '-B33'],
    ['Isidore Verheydenstraat 5 bus 7 RC, 1050 Elsene', 'Isidore Verheydenstraat', '5', '-7RC'],
    ['Isidore Verheydenstraat 5 bus 7 2 Elsene', 'Isidore Verheydenstraat', '5', '-72'],
    ['Italiëlaan 36 bus A 10, 1050 Elsene', 'Italiëlaan', '36', '-A10'],
    ['Elizastraat 25 bus RCà2, 1050 Elsene', 'Elizastraat', '25', '-RCA2'],
    ['Elizastraat 51 bus .2E Elsene', 'Elizastraat', '51', '-2E'],
    ['Elizastraat 9 bus RC+1, 1050 Elsene', 'Elizastraat', '9', '-RC1'],
    // A bare word after the number, lower case.
    ['elizastraat 5 rc 1050 elsene', 'Elizastraat', '5', '-RC'],
    ['elizastraat 5 3e 1050 elsene', 'Elizastraat', '5', '-3E'],
    ['nieuwstraat 8 b003 1000 brussel', 'Nieuwstraat', '8', '-B003'],
    ['elizastraat 13 arrm 1050 elsene', 'Elizastraat', '13', '-ARRM'],
    ['notarisstraat 76 1à3e 1050 elsene', 'Notarisstraat', '76', '-1A3E'],
    // A four-digit box right before the postcode; a box the register writes after a dot.
    ['idaliestraat 8 6002 1050 elsene', 'Idaliestraat', '8', '-6002'],
    ['elizastraat 51 .2e 1050 elsene', 'Elizastraat', '51', '-2E'],
    // A lone dash and a spaced dash.
    ['Elizastraat 117 -1 Elsene', 'Elizastraat', '117', '-1'],
    ['Elizastraat 117 - 3e, Elsene', 'Elizastraat', '117', '-3E'],
    ['Rotterdamseweg 139A - 1, Delft', 'Rotterdamseweg', '139', 'A-1'],
    ['Cornelis Trompstraat 1 - II, Delft', 'Cornelis Trompstraat', '1', '-II'],
  ])('%j', async (q, streetname, number, suffix) => {
    const answer = await first(q);
    expect(answer).toMatchObject({ type: 'address', streetname: expect.any(String), number, suffix });
    if (answer?.type !== 'address') return;
    expect(answer.names?.streetname?.nl ?? answer.streetname).toBe(streetname);
    expect(answer.match.number).toBe('exact');
  });

  it('answers the number itself when the spaced dash names no addition it has (a range)', async () => {
    const answer = await first('Mekelweg 8 - 10, Delft');
    expect(answer).toMatchObject({ type: 'address', streetname: 'Mekelweg', number: '8', suffix: '', city: 'Delft' });
    if (answer?.type !== 'address') return;
    expect(answer.match.number).toBe('other_suffix');
  });

  it('keeps the city typed, whatever the tail is read as', async () => {
    // Mekelweg is Delft's: typed with Brussel, the tail must not drop the city and answer Delft.
    for (const q of ['Mekelweg 8 - 10, Brussel', 'Mekelweg 8 ~ 10, Brussel', 'Mekelweg 8 bt 3, 1000 Brussel']) {
      const res = await api.call('GET', `/search?${new URLSearchParams({ q, size: '5' })}`);
      const cities = SearchResponse.parse(res.body).flatMap((r) => (r.type === 'address' ? [r.city] : []));
      expect(cities, q).not.toContain('Delft');
    }
    const answer = await first('Elizastraat 117 ~ 3, Elsene');
    expect(answer).toMatchObject({ type: 'address', number: '117', city: 'Elsene' });
  });

  it('reads the same tails in /geocode/forward', async () => {
    for (const [number, suffix] of [
      ['8 bt. 3', '-B003'],
      ['11 bus 2.16', '-216'],
      ['117 -1', '-1'],
    ] as const) {
      const streetname = number.startsWith('117') ? 'Elizastraat' : 'Nieuwstraat';
      const res = await api.call('POST', '/geocode/forward', { body: { streetname, number } });
      expect(res.status, res.text).toBe(200);
      expect(res.body, number).toMatchObject({ suffix, match: { number: 'exact' } });
    }
  });
});

describe("the suffix keys the index holds (a box's spellings are narrowed to them)", () => {
  it('reads every suffix key of the live generation, as the register wrote it', async () => {
    const generations = new IndexGenerations(api.client, inject('samplePrefix'));
    const held = await new HeldSuffixRepository(api.client, generations).held();
    // Nieuwstraat 8's box b003 and Delft's 139A-1, but no spelling nobody wrote.
    expect(held).toBeDefined();
    expect([...held!].filter((key) => ['b003', 'a1', '', 'bus0003'].includes(key)).sort()).toEqual(['', 'a1', 'b003']);
  });
});
