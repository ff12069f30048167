/**
 * The matching tiers of POST /geocode/forward and POST /lookup/street against the real Delft sample, indexed by
 * the real indexer: exact, normalised, fuzzy, nearest number, postcode + number, suffix preference, no_match and
 * focus ranking. The Elasticsearch client is wrapped to count round trips per request.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@elastic/elasticsearch';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../../../../src/wiring/app.js';
import { loadConfig, sha256Hex } from '../../../../../src/config/service.js';
import { createElasticsearchClient } from '../../../../../core/elasticsearch/client.js';
import { ErrorResponse, ForwardResult, LookupResponse, SearchResponse } from '../../../../../src/schemas/responses.js';
import { testElasticsearchUrl } from '../../../../support/elasticsearch.js';
import { countingRoundTrips } from '../../../../support/roundTrips.js';

const KEY = 'search-tiers-key';
let server: Server;
let base: string;
let client: Client;
let counting: ReturnType<typeof countingRoundTrips>;

beforeAll(async () => {
  client = createElasticsearchClient({ url: testElasticsearchUrl(), requestTimeoutMs: 10_000 });
  counting = countingRoundTrips(client);
  const app = createApp({
    config: {
      ...loadConfig({}),
      apiKeyDigests: [sha256Hex(KEY)],
      corsOrigins: [],
      indexPrefix: inject('samplePrefix'),
    },
    client: counting.client,
    logger: pino({ level: 'silent' }),
  });
  server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The known city names (in every language) load once per index generation, with the first request; the
  // round trips counted below are those of a request on a warm service.
  await post('/geocode/forward', { streetname: 'Mekelweg', number: '8' });
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await client?.close();
});

beforeEach(() => counting.reset());

async function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function forward(body: Record<string, unknown>) {
  const res = await post('/geocode/forward', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ForwardResult.parse(res.body);
}

async function lookup(body: Record<string, unknown>) {
  const res = await post('/lookup/street', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return LookupResponse.parse(res.body);
}

const numbers = (rows: { number: string; suffix: string }[]) => rows.map((r) => `${r.number}${r.suffix}`);
const trips = () => counting.roundTrips.search + counting.roundTrips.msearch;

describe('tier 1: exact normalised street + number', () => {
  it('answers an exact spelling in one round trip with confidence 1', async () => {
    const hit = await forward({ streetname: 'Mekelweg', number: '8' });
    expect(hit).toMatchObject({ streetname: 'Mekelweg', number: '8', suffix: '', postcode: '2628CD', city: 'Delft' });
    expect(hit.match).toEqual({ street: 'exact', number: 'exact', postcode: 'none', city: 'none' });
    expect(hit.confidence).toBe(1);
    expect(trips()).toBe(1);
  });

  it('lookup answers in one round trip', async () => {
    expect(numbers(await lookup({ streetname: 'Mekelweg', number: '8' }))).toEqual(['8']);
    expect(trips()).toBe(1);
  });
});

describe('tier 1, normalised: case, diacritics, punctuation and abbreviations', () => {
  it.each([
    ['MEKELWEG', 'Mekelweg', '8'],
    ['mekel-weg.', 'Mekelweg', '8'],
    ['Mekelwg', 'Mekelweg', '8'],
    ['Rontgenweg', 'Röntgenweg', '2'],
    ['Prof. Burgershof', 'Professor Burgershof', '3'],
    ['Balthasar v.d. Polweg', 'Balthasar van der Polweg', '4'],
    ['Kon. Emmalaan', 'Koningin Emmalaan', '1'],
  ])('%j finds %s %s in one round trip, marked normalized', async (streetname, stored, number) => {
    const hit = await forward({ streetname, number });
    expect(hit).toMatchObject({ streetname: stored, number });
    expect(hit.match.street).toBe('normalized');
    expect(hit.confidence).toBe(0.97);
    expect(trips()).toBe(1);
    expect(numbers(await lookup({ streetname, number }))).toContain(number);
  });
});

describe('tier 1, alternative readings of an ambiguous abbreviation', () => {
  it('reads "vd" as "van den" when no "van der" street exists, in the same single round trip', async () => {
    const hit = await forward({ streetname: 'vd Broekweg', number: '4' });
    expect(hit).toMatchObject({ streetname: 'Van den Broekweg', number: '4' });
    expect(hit.match).toEqual({ street: 'normalized', number: 'exact', postcode: 'none', city: 'none' });
    expect(hit.confidence).toBe(0.93);
    expect(trips()).toBe(1);
    const rows = await lookup({ streetname: 'v.d. Broekweg', number: '10' });
    expect(rows.map((r) => `${r.streetname} ${r.number}${r.suffix}`)).toEqual([
      'Van den Broekweg 10',
      'Van den Broekweg 10A',
    ]);
  });
});

describe('tier 2: fuzzy street + number', () => {
  it('corrects one typo, with a confidence below a normalised match', async () => {
    const hit = await forward({ streetname: 'Mekelwef', number: '8' });
    expect(hit).toMatchObject({ streetname: 'Mekelweg', number: '8' });
    expect(hit.match).toEqual({ street: 'fuzzy', number: 'exact', postcode: 'none', city: 'none' });
    expect(hit.confidence).toBeGreaterThanOrEqual(0.6);
    expect(hit.confidence).toBeLessThan(0.9);
  });

  it('corrects two typos in a long name', async () => {
    const hit = await forward({ streetname: 'Balthasar van der Ploweeg', number: '4' });
    expect(hit).toMatchObject({ streetname: 'Balthasar van der Polweg', number: '4' });
    expect(hit.match.street).toBe('fuzzy');
  });

  it('lookup answers the addresses of the one closest street', async () => {
    const rows = await lookup({ streetname: 'Mekelwef', number: '8' });
    expect(rows.map((r) => r.streetname)).toEqual(['Mekelweg']);
    expect(numbers(rows)).toEqual(['8']);
  });
});

describe('tier 3 (forward only): the nearest existing number', () => {
  it('answers the nearest number on the exactly-named street with a lower confidence', async () => {
    // Mekelweg has 6 and 8, not 7: a tie goes to the lower number.
    const hit = await forward({ streetname: 'Mekelweg', number: '7' });
    expect(hit).toMatchObject({ streetname: 'Mekelweg', number: '6' });
    expect(hit.match).toEqual({ street: 'exact', number: 'nearest', postcode: 'none', city: 'none' });
    expect(hit.confidence).toBe(0.5);
  });

  it('combines a fuzzy street with its nearest number', async () => {
    const hit = await forward({ streetname: 'Mekelwef', number: '7' });
    expect(hit).toMatchObject({ streetname: 'Mekelweg', number: '6' });
    expect(hit.match).toMatchObject({ street: 'fuzzy', number: 'nearest' });
    expect(hit.confidence).toBeLessThan(0.5);
  });

  it('lookup has no nearest tier, and does not substitute a look-alike street for an existing one', async () => {
    expect(await lookup({ streetname: 'Mekelweg', number: '7' })).toEqual([]);
  });
});

describe('postcode + number without a street', () => {
  it.each(['2628 CD', '2628cd', '2628-CD'])('%j + 8 is Mekelweg 8', async (postcode) => {
    const hit = await forward({ postcode, number: '8' });
    expect(hit).toMatchObject({ streetname: 'Mekelweg', number: '8', postcode: '2628CD' });
    expect(hit.match).toEqual({ street: 'none', number: 'exact', postcode: 'exact', city: 'none' });
    expect(hit.confidence).toBe(1);
    expect(numbers(await lookup({ postcode, number: 8 }))).toEqual(['8']);
  });

  it('with a street, a postcode that does not fit is reported as ignored', async () => {
    const hit = await forward({ streetname: 'Mekelweg', number: '8', postcode: '2611AA' });
    expect(hit).toMatchObject({ streetname: 'Mekelweg', number: '8', postcode: '2628CD' });
    expect(hit.match.postcode).toBe('ignored');
    expect(hit.confidence).toBe(0.9);
  });
});

describe('suffixes: exact suffix > another suffix of the number > nothing', () => {
  it.each([[{ number: '10a' }], [{ number: '10 A' }], [{ number: '10-a' }], [{ number: '10', suffix: 'A' }]])(
    '%j answers 10A exactly',
    async (spelling) => {
      const hit = await forward({ streetname: 'Minervaweg', ...spelling });
      expect(hit).toMatchObject({ number: '10', suffix: 'A' });
      expect(hit.match.number).toBe('exact');
      expect(hit.confidence).toBe(1);
    },
  );

  it('a bare number prefers the address without a suffix', async () => {
    const hit = await forward({ streetname: 'Minervaweg', number: '10' });
    expect(hit).toMatchObject({ number: '10', suffix: '' });
    expect(hit.match.number).toBe('exact');
  });

  it('a suffix that does not exist answers the number with another suffix, marked other_suffix', async () => {
    const hit = await forward({ streetname: 'Minervaweg', number: '10b' });
    expect(hit.number).toBe('10');
    expect(hit.match.number).toBe('other_suffix');
    expect(hit.confidence).toBe(0.9);
  });

  it('lookup: a bare number returns every suffix, a named suffix only that one', async () => {
    expect(numbers(await lookup({ streetname: 'Minervaweg', number: '10' }))).toEqual(['10', '10A']);
    expect(numbers(await lookup({ streetname: 'Minervaweg', number: '10 A' }))).toEqual(['10A']);
    expect(await lookup({ streetname: 'Minervaweg', number: '10b' })).toEqual([]);
  });
});

describe('a street that matches nothing closely', () => {
  it.each([
    'Qwertyuiopstraat',
    // 3 edits from Van Embdenstraat: word-by-word fuzzy matching used to let it through
    'Vna Embdenstraj',
    'Zonnebloemsingel',
  ])('%j answers no_match and an empty lookup', async (streetname) => {
    const res = await post('/geocode/forward', { streetname, number: '1' });
    expect(res.status).toBe(404);
    expect(ErrorResponse.parse(res.body).error.code).toBe('no_match');
    expect(await lookup({ streetname, number: '1' })).toEqual([]);
  });
});

describe('lat/lon focus', () => {
  // Westlandseweg 13 is in the data twice (once without postcode and city), a few metres apart.
  it('ranks equal candidates by distance to the focus, and without a focus lowers the confidence', async () => {
    const both = await lookup({ streetname: 'Westlandseweg', number: '13' });
    expect(both).toHaveLength(2);
    for (const target of both) {
      const hit = await forward({
        streetname: 'Westlandseweg',
        number: '13',
        lat: target.latitude,
        lon: target.longitude,
      });
      expect(hit.id).toBe(target.id);
      expect(hit.confidence).toBe(1);
    }
    const unfocused = await forward({ streetname: 'Westlandseweg', number: '13' });
    expect(unfocused.confidence).toBeLessThan(1);
  });
});

describe('free text: the fuzzy tiers only when a look-alike street could rank first', () => {
  async function search(q: string) {
    const res = await fetch(`${base}/search?${new URLSearchParams({ q, size: '3' })}`, {
      headers: { 'x-api-key': KEY },
    });
    expect(res.status).toBe(200);
    return SearchResponse.parse(await res.json());
  }

  it('a range the building lacks answers the number without looking for look-alikes of another reading', async () => {
    // Read as street "Delft Mekelweg" (nothing) and as Mekelweg in Delft (8, without an addition 10: 0.9). No
    // look-alike of "Delft Mekelweg" can grade as high, so the exact searches and the street's place search are all.
    const [first] = await search('Delft Mekelweg 8 - 10');
    expect(first).toMatchObject({ type: 'address', streetname: 'Mekelweg', number: '8', suffix: '', city: 'Delft' });
    expect(first!.confidence).toBe(0.9);
    expect(trips()).toBe(2);
  });
});
