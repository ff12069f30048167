/**
 * A client that goes away in the middle of a streamed collection (a map panning on) is not a server failure: one
 * info line with the request's id, no error line, and not counted as a broken answer (test/integration/
 * streamFailure.test.ts is the failure that is).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApi, TEST_API_KEY, type TestApi } from '../../../support/api.js';
import { createTestClient } from '../../../support/elasticsearch.js';

const logged: { level: number; msg: string; request_id?: string }[] = [];
let api: TestApi;
/** The suburb with the most buildings: its footprints take several pages (500 each) from Elasticsearch. */
let suburbId: string;

beforeAll(async () => {
  const client = createTestClient();
  const res = await client.search({
    index: `${inject('samplePrefix')}buildings`,
    size: 0,
    aggs: { suburbs: { terms: { field: 'suburb_id', size: 1 } } },
  });
  await client.close();
  const top = (res.aggregations?.suburbs as { buckets: { key: string; doc_count: number }[] }).buckets[0]!;
  expect(top.doc_count).toBeGreaterThan(1000);
  suburbId = top.key;
  // No body cache: every boundary collection streams from Elasticsearch.
  api = await startTestApi({ bodyCacheBytes: 0, logSink: (line) => logged.push(line as (typeof logged)[number]) });
});
afterAll(() => api.close());

/** Reads the first bytes of the answer, then destroys the socket; resolves with the bytes read. */
function readAndHangUp(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${api.url}${path}`, { headers: { 'x-api-key': TEST_API_KEY, ...headers } }, (res) => {
      expect(res.statusCode).toBe(200);
      res.once('data', (chunk: Buffer) => {
        req.destroy();
        resolve(chunk.length);
      });
    });
    req.once('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}

async function brokenCount(): Promise<number> {
  const metrics = await api.call('GET', '/metrics');
  const counts = [...metrics.text.matchAll(/^geocoder_http_responses_broken_total\{[^}]*\} (\d+)$/gm)];
  return counts.reduce((sum, match) => sum + Number(match[1]), 0);
}

describe('a client that hangs up mid-stream', () => {
  it('is logged as one info line, not an error, and not counted as a broken answer', async () => {
    const before = await brokenCount();
    // Compressed (what browsers ask for) and plain. A plain answer the socket's buffers can take whole is written
    // before the client hangs up (no abort to see): the plain one is a collection that waits for later pages.
    const downloads = [
      ['/countries/geojson?geometry=shape', 'br, gzip'],
      [`/suburbs/${suburbId}/buildings/geojson`, 'br, gzip'],
      [`/suburbs/${suburbId}/buildings/geojson`, 'identity'],
    ] as const;
    for (const [i, [path, encoding]] of downloads.entries()) {
      const requestId = `client-abort-${i}`;
      await readAndHangUp(path, { 'accept-encoding': encoding, 'x-request-id': requestId });
      // The server hears of it when its next write fails or the socket closes: wait for that line.
      await expect
        .poll(() => logged.filter((line) => line.request_id === requestId && line.msg !== 'request'), {
          timeout: 30_000,
        })
        .toEqual([
          expect.objectContaining({ level: 30, msg: 'client closed the connection before the answer was complete' }),
        ]);
    }
    expect(logged.filter((line) => line.level >= 50)).toEqual([]);
    expect(await brokenCount()).toBe(before);
    // The service goes on answering.
    expect((await api.call('GET', '/countries/geojson')).status).toBe(200);
  });
});
