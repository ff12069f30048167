/**
 * The rendered-body cache against the real Elasticsearch with the sample: repeated boundary collections come
 * from memory in every encoding, /health reports the cache, and looping map clients leave geocoding fast.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Health } from '../../../../src/schemas/responses.js';
import { startTestApi, type TestApi } from '../../../support/api.js';
import { rawGet } from '../../../support/rawGet.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

describe('rendered-body cache', () => {
  it('serves a repeated boundary collection from memory, in every encoding, and reports its size', async () => {
    const own = await startTestApi({ indexPrefix: inject('samplePrefix') });
    try {
      const path = `${own.url}/countries/geojson`;
      const first = await rawGet(path, { 'accept-encoding': 'gzip' });
      const json = JSON.parse(gunzipSync(first.body).toString());
      expect(json.features.length).toBeGreaterThan(200);
      const cached = Health.parse((await own.call('GET', '/health')).body).body_cache!;
      expect(cached.entries).toBe(1);
      expect(cached.bytes).toBeGreaterThan(1_000_000);
      expect(cached.bytes).toBeLessThanOrEqual(cached.max_bytes);

      const br = await rawGet(path, { 'accept-encoding': 'br' });
      const gzip = await rawGet(path, { 'accept-encoding': 'gzip' });
      const plain = await rawGet(path, {});
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.etag).toBe(first.headers.etag);
      expect(plain.headers['content-type']).toBe(first.headers['content-type']);
      expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(json);
      expect(JSON.parse(gunzipSync(gzip.body).toString())).toEqual(json);
      expect(JSON.parse(plain.body.toString())).toEqual(json);
      const withEncodings = Health.parse((await own.call('GET', '/health')).body).body_cache!;
      expect(withEncodings.entries).toBe(1);
      expect(withEncodings.bytes).toBeGreaterThan(cached.bytes);
    } finally {
      await own.close();
    }
  });
  // Whether boundary clients starve geocoding is measured by `npm run bench` (the mixed scenario), not timed here.
});
