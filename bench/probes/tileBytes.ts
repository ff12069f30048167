/**
 * What a map client pays in bytes for Belgium's municipalities: every zoom-8 tile over Belgium against the
 * equivalent GeoJSON answers (`/provinces/{id}/municipalities/geojson` of each Belgian province), both as the wire
 * carries them (gzip and brotli), through the real API (issue 38's first target: tiles at most 1/5 of the bytes).
 *
 *   ELASTICSEARCH_URL=... INDEX_PREFIX=... npx tsx bench/probes/tileBytes.ts
 *
 * The prefix must hold the sample (or any data with Belgium's municipalities): `npm run index -- --manifest
 * datasets/sample.json` with INDEX_PREFIX set. Not a load benchmark: one client, in order.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { loadConfig, sha256Hex } from '../../src/config/service.js';
import { createApp } from '../../src/wiring/app.js';
import { tilesOver } from '../../test/support/vectorTiles.js';
import { BENCH_API_KEY, elasticsearchUrlFromEnv } from '../support/defaults.js';

/** Belgium's extent (lon/lat): the viewport a client shows its municipalities in. */
const BELGIUM: [number, number, number, number] = [2.54, 49.49, 6.41, 51.51];

function get(url: string, encoding: string): Promise<{ status: number; bytes: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = { 'x-api-key': BENCH_API_KEY, 'accept-encoding': encoding };
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, bytes: body.length, body });
      });
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const config = {
  ...loadConfig({ INDEX_PREFIX: process.env.INDEX_PREFIX ?? '' }),
  apiKeyDigests: [sha256Hex(BENCH_API_KEY)],
};
const client = createElasticsearchClient({ url: elasticsearchUrlFromEnv(), requestTimeoutMs: 30_000 });
const server = createApp({ config, client, logger: pino({ level: 'silent' }) }).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
try {
  const countries = JSON.parse((await get(`${base}/countries?country_code=BE`, 'identity')).body.toString());
  const belgium = countries[0]?.id as string;
  const provinces = JSON.parse((await get(`${base}/countries/${belgium}/provinces`, 'identity')).body.toString());
  const rows: Record<string, unknown>[] = [];
  for (const encoding of ['gzip', 'br']) {
    let geojson = 0;
    let municipalities = 0;
    for (const province of provinces as { id: string }[]) {
      const answer = await get(`${base}/provinces/${province.id}/municipalities/geojson`, encoding);
      geojson += answer.bytes;
      const plain = await get(`${base}/provinces/${province.id}/municipalities/geojson`, 'identity');
      municipalities += JSON.parse(plain.body.toString()).features.length;
    }
    let tiles = 0;
    let tileCount = 0;
    for (const { x, y } of tilesOver(BELGIUM, 8)) {
      const answer = await get(`${base}/tiles/boundaries/8/${x}/${y}.mvt`, encoding);
      if (answer.status !== 200 && answer.status !== 204) throw new Error(`tile 8/${x}/${y}: ${answer.status}`);
      tiles += answer.bytes;
      tileCount++;
    }
    rows.push({
      encoding,
      provinces: provinces.length,
      municipalities,
      geojson_bytes: geojson,
      tiles: tileCount,
      tile_bytes: tiles,
      ratio: Math.round((tiles / geojson) * 1000) / 1000,
    });
  }
  console.table(rows);
} finally {
  server.close();
  await client.close();
}
