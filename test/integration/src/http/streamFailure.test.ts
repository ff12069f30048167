/**
 * A GeoJSON collection whose later page fails after the status line went out: the client must see an error
 * (the connection is closed mid-body), never a truncated document under 200, and the failure is logged with the
 * request's id and counted in /metrics. Elasticsearch is reached through a proxy that answers the first page and then refuses the point
 * in time the later pages need.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApi, type TestApi } from '../../../support/api.js';
import { createTestClient, testElasticsearchUrl } from '../../../support/elasticsearch.js';

let proxy: Server;
let api: TestApi;
const logged: { msg: string; request_id?: string }[] = [];

beforeAll(async () => {
  const target = new URL(testElasticsearchUrl());
  proxy = createServer((req, res) => {
    if (req.url?.includes('/_pit')) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":{"type":"proxy_refused","reason":"point in time refused by the test proxy"},"status":500}');
      return;
    }
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  api = await startTestApi({
    elasticsearchUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    logSink: (line) => logged.push(line),
  });
});

afterAll(async () => {
  await api.close();
  await new Promise((resolve) => proxy.close(resolve));
});

describe('a streamed collection that fails after the first page', () => {
  it('closes the connection (the client sees an error, not a short 200 document) and logs the request id', async () => {
    // The suburb with the most buildings: more than one page (500) of features.
    const client = createTestClient();
    const res = await client.search({
      index: `${inject('samplePrefix')}buildings`,
      size: 0,
      aggs: { suburbs: { terms: { field: 'suburb_id', size: 1 } } },
    });
    await client.close();
    const suburbId = (res.aggregations?.suburbs as { buckets: { key: string; doc_count: number }[] }).buckets[0]!;
    expect(suburbId.doc_count).toBeGreaterThan(500);

    // Compressed (what browsers ask for) and plain: both must fail visibly.
    for (const [i, encoding] of ['br, gzip', 'identity'].entries()) {
      // Whether the status line made it out before the failure depends on buffering: either way the client
      // must see an error, never a complete-looking body.
      const outcome = await fetch(`${api.url}/suburbs/${suburbId.key}/buildings/geojson`, {
        headers: {
          'x-api-key': 'test-key-0123456789',
          'x-request-id': `stream-failure-${i}`,
          'accept-encoding': encoding,
        },
      }).then(
        (answer) =>
          answer.text().then(
            () => `complete ${answer.status}`,
            () => 'body failed',
          ),
        () => 'connection failed',
      );
      expect(outcome, encoding).not.toMatch(/^complete/);
      const line = logged.find(
        (l) =>
          l.msg === 'response failed after the status line: connection closed' &&
          l.request_id === `stream-failure-${i}`,
      );
      expect(line, encoding).toBeDefined();
    }
    // Monitoring sees it too: the request counter says 200 for these, this counter says they broke.
    const metrics = await (await fetch(`${api.url}/metrics`)).text();
    expect(metrics).toMatch(/^geocoder_http_responses_broken_total\{route="\/suburbs\/:id\/buildings\/geojson"\} 2$/m);
  });
});
