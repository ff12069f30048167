/**
 * GET /search (free text) and POST /geocode/batch against the sample data (Delft) in a real Elasticsearch.
 * Every body is checked against its zod schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { BatchResponse, ErrorResponse, ForwardResult, SearchResponse } from '../../../../../src/schemas/responses.js';
import { startTestApi, type TestApi, type TestResponse } from '../../../../support/api.js';

let api: TestApi;

function expectShape<S extends z.ZodType>(schema: S, res: TestResponse, status = 200): z.infer<S> {
  expect(res.status, res.text.slice(0, 500)).toBe(status);
  const parsed = schema.safeParse(res.body);
  if (!parsed.success) throw new Error(`not the documented shape: ${parsed.error.message}\n${res.text.slice(0, 500)}`);
  return parsed.data;
}

const search = (params: Record<string, string>) => api.call('GET', `/search?${new URLSearchParams(params)}`);

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

describe('GET /search', () => {
  it.each([
    ['Mekelweg 8, 2628 CD Delft', 'Mekelweg', '8', ''],
    ['mekelweg 8 2628cd delft', 'Mekelweg', '8', ''],
    ['Delft, Mekelweg 8', 'Mekelweg', '8', ''],
    ['Delft Mekelweg 8', 'Mekelweg', '8', ''],
    ['MEKELWEG 8 DELFT', 'Mekelweg', '8', ''],
    ['Rotterdamseweg 139A-1 Delft', 'Rotterdamseweg', '139', 'A-1'],
    ['Rotterdamseweg 139 A-1', 'Rotterdamseweg', '139', 'A-1'],
    ['Mekelweg 8 Dleft', 'Mekelweg', '8', ''],
    ['Mekelwge 8 Delft', 'Mekelweg', '8', ''],
    ['Mekelweg 8, Delft, Nederland', 'Mekelweg', '8', ''],
  ])('%j -> %s %s%s first', async (q, streetname, number, suffix) => {
    const results = expectShape(SearchResponse, await search({ q }));
    expect(results[0]).toMatchObject({ streetname, number, suffix, city: 'Delft' });
  });

  it('reads postcode + number alone', async () => {
    const [first] = expectShape(SearchResponse, await search({ q: '2628CD 8' }));
    expect(first).toMatchObject({ streetname: 'Mekelweg', number: '8', postcode: '2628CD' });
    expect(first?.match).toEqual({ street: 'none', number: 'exact', postcode: 'exact', city: 'none' });
  });

  it('grades like /geocode/forward, lowered for a city it had to guess or ignore', async () => {
    const forward = expectShape(
      ForwardResult,
      await api.call('POST', '/geocode/forward', { body: { streetname: 'Mekelweg', number: '8', city: 'Delft' } }),
    );
    const [exact] = expectShape(SearchResponse, await search({ q: 'Mekelweg 8 Delft' }));
    expect(exact).toEqual({ ...forward, type: 'address', label: 'Mekelweg 8, 2628CD Delft' });
    const [typo] = expectShape(SearchResponse, await search({ q: 'Mekelweg 8 Dleft' }));
    expect(typo?.confidence).toBeLessThan(exact!.confidence);
    const [unknown] = expectShape(SearchResponse, await search({ q: 'Mekelweg 8 Atlantis' }));
    expect(unknown).toMatchObject({ streetname: 'Mekelweg', number: '8' });
    expect(unknown?.confidence).toBeLessThan(typo!.confidence);
  });

  it('returns several candidates best first, each once, at most `size`', async () => {
    const results = expectShape(
      SearchResponse,
      await search({ q: 'Rotterdamseweg 139', size: '5', layers: 'address' }),
    );
    expect(results.length).toBe(5);
    expect(new Set(results.map((r) => r.id)).size).toBe(5);
    expect(results.every((r) => r.type === 'address' && r.number === '139')).toBe(true);
    const confidences = results.map((r) => r.confidence);
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
  });

  it('keeps to the asked country', async () => {
    expect(expectShape(SearchResponse, await search({ q: 'Mekelweg 8 Delft', country: 'NL' })).length).toBeGreaterThan(
      0,
    );
    expect(expectShape(SearchResponse, await search({ q: 'Mekelweg 8 Delft', country: 'BE' }))).toEqual([]);
  });

  it('answers [] when nothing matches; a text without a house number finds no address', async () => {
    expect(expectShape(SearchResponse, await search({ q: 'Qwxzystraat 8 Delft', layers: 'address' }))).toEqual([]);
    expect(expectShape(SearchResponse, await search({ q: 'Mekelweg Delft', layers: 'address' }))).toEqual([]);
  });

  it.each([
    [{}, 'query.q'],
    [{ q: '' }, 'query.q'],
    [{ q: '*' }, 'query.q'],
    [{ q: 'Mekelweg 8', size: '0' }, 'query.size'],
    [{ q: 'Mekelweg 8', size: '51' }, 'query.size'],
    [{ q: 'Mekelweg 8', lat: '52' }, 'query.lat'],
    [{ q: 'Mekelweg 8', lat: '91', lon: '4' }, 'query.lat'],
    [{ q: 'Mekelweg 8', country: 'DE' }, 'query.country'],
    [{ q: 'Mekelweg 8', qq: 'x' }, 'query.qq'],
    [{ q: 'Delft', layers: 'city,town' }, 'query.layers'],
    [{ q: 'Delft', layers: '' }, 'query.layers'],
    [{ q: 'Delft', bbox: '4,52,3' }, 'query.bbox'],
  ])('%j -> 400 naming %s', async (params, path) => {
    const body = expectShape(ErrorResponse, await search(params), 400);
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.details?.map((d) => d.path)).toContain(path);
  });

  it('needs a key', async () => {
    const res = await api.call('GET', '/search?q=Mekelweg%208', { headers: { 'x-api-key': '' } });
    expect(res.status).toBe(401);
  });
});

describe('POST /geocode/batch', () => {
  it('answers every item in input order; a bad item fails only itself', async () => {
    const items = [
      { streetname: 'Mekelweg', number: '8' },
      { streetname: 'Mekelweg', number: 'abc' },
      { streetname: 'Qwxzystraat', number: '8' },
      { number: '8' },
      { streetname: 'rotterdamseweg', number: '139a-1', city: 'Delft' },
      'not an object',
      { streetname: 'Mekelweg', number: '8', colour: 'red' },
    ];
    const { results } = expectShape(BatchResponse, await api.call('POST', '/geocode/batch', { body: { items } }));
    expect(results.map((r) => r.status)).toEqual([200, 400, 404, 400, 200, 400, 400]);
    const forward = await api.call('POST', '/geocode/forward', { body: items[0] });
    expect(results[0]).toEqual({ status: 200, result: forward.body });
    const errorAt = (i: number) => results[i] as { error: { code: string; details?: { path: string }[] } };
    expect(errorAt(1).error.details?.[0]?.path).toBe('body.items.1.number');
    expect(errorAt(2).error.code).toBe('no_match');
    expect(errorAt(3).error.details?.[0]?.path).toBe('body.items.3.streetname');
    expect(results[4]).toMatchObject({ result: { streetname: 'Rotterdamseweg', number: '139', suffix: 'A-1' } });
    expect(errorAt(6).error.details?.[0]?.path).toBe('body.items.6.colour');
  });

  it('geocodes 1,000 items in one request', async () => {
    const known = [
      ['Mekelweg', '2'],
      ['Mekelweg', '4'],
      ['Rotterdamseweg', '41'],
      ['Rotterdamseweg', '43'],
      ['Rotterdamseweg', '139A-1'],
    ] as const;
    const items = Array.from({ length: 1000 }, (_, i) => {
      const [streetname, number] = known[i % known.length]!;
      return { streetname, number };
    });
    const { results } = expectShape(BatchResponse, await api.call('POST', '/geocode/batch', { body: { items } }));
    expect(results).toHaveLength(1000);
    for (const [i, r] of results.entries()) {
      const [streetname, number] = known[i % known.length]!;
      expect(r.status === 200 && `${r.result.streetname} ${r.result.number}${r.result.suffix}`).toBe(
        `${streetname} ${number}`,
      );
    }
  });

  it('searches identical items once, and still names a bad one at its own index', async () => {
    const roundTrips = async () => {
      const metrics = await api.call('GET', '/metrics');
      return Number(/^geocoder_elasticsearch_round_trips_total (\d+)$/m.exec(metrics.text)?.[1]);
    };
    const same = [
      { streetname: 'Mekelweg', number: '8' },
      { streetname: 'Rotterdamseweg', number: '139A-1' },
      { streetname: 'Mekelweg', number: 'abc' },
    ];
    const items = Array.from({ length: 600 }, (_, i) => same[i % same.length]!);
    await api.call('POST', '/geocode/batch', { body: { items: same } });
    const before = await roundTrips();
    const { results } = expectShape(BatchResponse, await api.call('POST', '/geocode/batch', { body: { items } }));
    // Two distinct searchable items: one round trip (600 searches in 16s were 38 before); a few more at most
    // for the index generation's background refresh.
    expect((await roundTrips()) - before).toBeLessThanOrEqual(3);
    expect(results[3]).toEqual(results[0]);
    expect(results[4]).toEqual(results[1]);
    expect(results[0]).toMatchObject({ status: 200, result: { streetname: 'Mekelweg', number: '8' } });
    expect(results[598]).toMatchObject({ status: 200, result: { streetname: 'Rotterdamseweg', suffix: 'A-1' } });
    const errorAt = (i: number) => results[i] as { error: { details?: { path: string }[] } };
    expect(errorAt(2).error.details?.[0]?.path).toBe('body.items.2.number');
    expect(errorAt(599).error.details?.[0]?.path).toBe('body.items.599.number');
  });

  it('refuses more than 1,000 items, an empty list, a body that is not {items: [...]}, and an oversized body', async () => {
    const one = { streetname: 'Mekelweg', number: '8' };
    const tooMany = await api.call('POST', '/geocode/batch', { body: { items: Array(1001).fill(one) } });
    expect(expectShape(ErrorResponse, tooMany, 400).error.details?.[0]?.path).toBe('body.items');
    expectShape(ErrorResponse, await api.call('POST', '/geocode/batch', { body: { items: [] } }), 400);
    expectShape(ErrorResponse, await api.call('POST', '/geocode/batch', { body: [one] }), 400);
    expectShape(ErrorResponse, await api.call('POST', '/geocode/batch', { body: { item: [one] } }), 400);
    const huge = JSON.stringify({ items: [{ streetname: 'x'.repeat(200), number: '1' }] }).replace(
      '"1"',
      `"1"${' '.repeat(2_000_000)}`,
    );
    const res = await api.call('POST', '/geocode/batch', { rawBody: huge });
    expect(expectShape(ErrorResponse, res, 413).error.code).toBe('payload_too_large');
  });

  it('keeps the 16 KiB limit on every other endpoint', async () => {
    const body = JSON.stringify({ streetname: 'Mekelweg', number: '8' }).replace('"8"', `"8"${' '.repeat(20_000)}`);
    expect((await api.call('POST', '/geocode/forward', { rawBody: body })).status).toBe(413);
  });
});
