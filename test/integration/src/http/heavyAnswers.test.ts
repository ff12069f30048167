/**
 * Heavy boundary answers share the service with geocoding (src/http/heavyAnswers.ts), against the real Elasticsearch
 * with the sample: a client gets the same bytes and headers whether the answer was bounded and paced or not, a full
 * queue is a clear 503 (Nominatim's whole outlines included), and map clients that miss the cache at once share one
 * build.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApi, TEST_API_KEY, type TestApi } from '../../../support/api.js';
import { rawGet } from '../../../support/rawGet.js';

const WIRE_HEADERS = ['content-type', 'content-encoding', 'content-length', 'etag', 'vary', 'cache-control'];
const pick = (headers: Record<string, unknown>) => Object.fromEntries(WIRE_HEADERS.map((h) => [h, headers[h]]));

/** Round trips to Elasticsearch so far, from /metrics (loopback needs no key). */
async function roundTrips(api: TestApi): Promise<number> {
  const text = await (await fetch(`${api.url}/metrics`)).text();
  return Number(/^geocoder_elasticsearch_round_trips_total (\d+)/m.exec(text)?.[1]);
}

/**
 * The status of a GET, without reading its body (a heavy answer's status line goes out once it has a slot). The
 * answer is abandoned at once, which frees its slot again.
 */
function statusOf(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'x-api-key': TEST_API_KEY, ...headers } }, (res) => {
      resolve(res.statusCode!);
      res.destroy();
    });
    req.on('error', reject);
    req.end();
  });
}

/** Asking again until a freed slot shows, for as long as a test may take. */
const POLL = { timeout: 100_000, interval: 100 };

/** Every collection heavy; one slot, no queue, and a pace that keeps the first download going while the next asks. */
const ONE_PACED_SLOT = {
  HEAVY_ANSWER_BYTES: '1024',
  HEAVY_ANSWERS_CONCURRENT: '1',
  HEAVY_ANSWERS_QUEUED: '0',
  HEAVY_ANSWER_BYTES_PER_SECOND: '65536',
};

let paced: TestApi;
let unbounded: TestApi;

beforeAll(async () => {
  const indexPrefix = inject('samplePrefix');
  // Every collection of the sample over 1 KiB is heavy here, and paced hard enough that a slot is visibly held.
  paced = await startTestApi({
    indexPrefix,
    env: { HEAVY_ANSWER_BYTES: '1024', HEAVY_ANSWERS_CONCURRENT: '1', HEAVY_ANSWER_BYTES_PER_SECOND: '4000000' },
  });
  unbounded = await startTestApi({ indexPrefix, env: { HEAVY_ANSWERS_CONCURRENT: '0' } });
});

afterAll(async () => {
  await Promise.all([paced?.close(), unbounded?.close()]);
});

describe('heavy answers', () => {
  it('sends a bounded, paced answer byte for byte as an unbounded one, in every encoding', async () => {
    for (const encoding of ['br', 'gzip', '']) {
      const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
      // The first request builds the body (bounded while it streams), the second is served from the cache (bounded,
      // sliced): the same bytes and headers as an unbounded server's either way.
      for (let i = 0; i < 2; i++) {
        const [a, b] = await Promise.all([
          rawGet(`${paced.url}/countries/geojson`, headers),
          rawGet(`${unbounded.url}/countries/geojson`, headers),
        ]);
        expect(a.status, a.body.toString()).toBe(200);
        expect(b.status, b.body.toString()).toBe(200);
        expect(a.body.length).toBeGreaterThan(100_000);
        expect(a.body.equals(b.body)).toBe(true);
        if (i === 1) expect(pick(a.headers)).toEqual(pick(b.headers));
      }
    }
  });

  it('refuses a heavy answer with a 503 JSON envelope when the slot and the queue are taken', async () => {
    const api = await startTestApi({
      indexPrefix: inject('samplePrefix'),
      env: ONE_PACED_SLOT,
    });
    try {
      const path = `${api.url}/countries/geojson`;
      // A slow download of the answer being built holds the only slot from its status line until the client leaves
      // (uncompressed, so the status line leaves with the first bytes rather than with brotli's first block).
      const holder = request(path, { headers: { 'x-api-key': TEST_API_KEY } });
      const started = new Promise<void>((resolve) => holder.on('response', () => resolve()));
      holder.on('error', () => {});
      holder.end();
      await started;
      // The same answer, kept by then (the build reads Elasticsearch whole, whatever its client's pace): refused.
      const refused = await rawGet(path, { 'accept-encoding': 'br' });
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(refused.body.toString()).error.code).toBe('overloaded');
      // A light answer is never held behind a heavy one.
      expect((await rawGet(`${api.url}/countries?country_code=nld`, {})).status).toBe(200);
      // The client leaving frees the slot, once the service has seen it go: asked again until then (bounded by the
      // test's timeout, not by a guess at how soon a loaded machine notices).
      holder.destroy();
      await expect.poll(() => statusOf(path, { 'accept-encoding': 'gzip' }), POLL).toBe(200);
    } finally {
      await api.close();
    }
  });

  it('bounds answers being built as it bounds kept ones: a parameter that misses the cache skips no limit', async () => {
    const api = await startTestApi({
      indexPrefix: inject('samplePrefix'),
      // Nothing kept: every answer is a first build.
      env: { ...ONE_PACED_SLOT, BODY_CACHE_BYTES: '0' },
    });
    try {
      const holder = request(`${api.url}/countries/geojson?simplify=1000`, { headers: { 'x-api-key': TEST_API_KEY } });
      const started = new Promise<void>((resolve) => holder.on('response', () => resolve()));
      holder.on('error', () => {});
      holder.end();
      await started;
      // Another simplification is another answer, built anew: it waits for the same slot, and the queue is full.
      const refused = await rawGet(`${api.url}/countries/geojson?simplify=1001`, { 'accept-encoding': 'gzip' });
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.body.toString()).error.code).toBe('overloaded');
      // Light answers are not held.
      expect((await rawGet(`${api.url}/countries?country_code=nld`, {})).status).toBe(200);
      holder.destroy();
      await expect.poll(() => statusOf(`${api.url}/countries/geojson?simplify=1002`, {}), POLL).toBe(200);
    } finally {
      await api.close();
    }
  });

  it("bounds Nominatim's outlines as a boundary answer: the same bytes, in their turn, a full queue a 503", async () => {
    const outline = '/nominatim/search?q=Delft&polygon_geojson=1&limit=1&format=jsonv2';
    // Through the bound (every answer over 1 KiB is heavy here) and without it: the same bytes and headers.
    const [a, b] = await Promise.all([rawGet(`${paced.url}${outline}`, {}), rawGet(`${unbounded.url}${outline}`, {})]);
    expect(a.status, a.body.toString()).toBe(200);
    expect(a.body.length).toBeGreaterThan(1024);
    expect(a.body.equals(b.body)).toBe(true);
    expect(pick(a.headers)).toEqual(pick(b.headers));

    const api = await startTestApi({ indexPrefix: inject('samplePrefix'), env: ONE_PACED_SLOT });
    try {
      const holder = request(`${api.url}/countries/geojson`, { headers: { 'x-api-key': TEST_API_KEY } });
      const started = new Promise<void>((resolve) => holder.on('response', () => resolve()));
      holder.on('error', () => {});
      holder.end();
      await started;
      // The only slot is taken and nothing may wait: whole outlines are refused as a boundary collection is, in
      // Nominatim's error shape.
      const refused = await rawGet(`${api.url}${outline}`, {});
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(JSON.parse(refused.body.toString()).error.code).toBe(503);
      // The same search without outlines is light and is never held.
      const points = await rawGet(`${api.url}/nominatim/search?q=Delft&limit=1&format=jsonv2`, {});
      expect(points.status).toBe(200);
      holder.destroy();
    } finally {
      await api.close();
    }
  });

  it('builds a collection once for map clients that miss the cache at the same moment', async () => {
    const indexPrefix = inject('samplePrefix');
    const one = await startTestApi({ indexPrefix });
    const four = await startTestApi({ indexPrefix });
    try {
      const path = '/countries/geojson?geometry=centroid';
      const before = await roundTrips(one);
      const single = await rawGet(`${one.url}${path}`, { 'accept-encoding': 'gzip' });
      const perBuild = (await roundTrips(one)) - before;
      expect(perBuild).toBeGreaterThan(0);

      const start = await roundTrips(four);
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => rawGet(`${four.url}${path}`, { 'accept-encoding': 'gzip' })),
      );
      expect((await roundTrips(four)) - start).toBe(perBuild);
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.headers.etag).toBe(single.headers.etag);
      }
    } finally {
      await Promise.all([one.close(), four.close()]);
    }
  });
});
