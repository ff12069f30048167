/**
 * Hostile input at volume: property-based requests (fast-check, fixed seed, bounded runs) to every route the router
 * holds, with hostile path segments, query parameters and JSON bodies: Unicode edge cases (combining marks, RTL
 * marks, NUL, lone surrogates), huge and negative numbers, deep nesting, `__proto__` / `constructor` keys and
 * Elasticsearch query-syntax characters. Whatever is sent: never a 5xx, always the JSON error envelope or a JSON
 * success, never an Elasticsearch message in the body.
 */
import type Router from '@koa/router';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse } from '../../../../src/schemas/responses.js';
import { ENDPOINTS } from '../../../../src/wiring/endpoints.js';
import { startTestApi, type TestApi } from '../../../support/api.js';

const SEED = 20_261_122;
/** Per route: about 25 routes x 300 runs stays within a minute on the shared machines. */
const RUNS_PER_ROUTE = 300;

/** Names the request schemas read, so hostile values reach the parsers and not only "unknown parameter". */
const FIELD_NAMES = [
  'q',
  'streetname',
  'number',
  'suffix',
  'postcode',
  'city',
  'country',
  'country_code',
  'lat',
  'lon',
  'radius',
  'size',
  'bbox',
  'name',
  'geometry',
  'simplify',
  'items',
];
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', '', '$where', '_source'];

const EDGE_CHARACTERS = [
  '\u0000', // NUL
  '\u0301', // combining acute accent
  '\u0308\u0308\u0308', // stacked combining marks
  '\u200f', // right-to-left mark
  '\u202e', // right-to-left override
  '\u200b', // zero-width space
  '\ufeff', // byte order mark
  '\ud800', // lone high surrogate
  '\udfff', // lone low surrogate
  '\ud83d\ude00', // a well-formed pair (emoji)
  'ß',
  'İ',
  '\n',
  '\t',
  '%',
  '%00',
  '%zz',
  '../',
  // Elasticsearch query-string and regex syntax.
  ...['*', '?', '~', '^', ':', '\\', '/', '"', '(', ')', '[', ']', '{', '}', '+', '-', '!', '&&', '||', '<', '>', '='],
  ' OR ',
  ' AND NOT ',
  '_all',
  '.*',
];

const hostileString = fc
  .array(fc.oneof(fc.constantFrom(...EDGE_CHARACTERS), fc.string({ maxLength: 6 }), fc.constantFrom('a', '8', ' ')), {
    maxLength: 12,
  })
  .map((parts) => parts.join(''));

const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, -0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 53, -(2 ** 31), 1e-320),
);

const hostileScalar = fc.oneof(
  hostileString,
  hostileNumber.map(String),
  fc.constantFrom('', ' ', '1e309', '-1', 'NaN', 'Infinity', '0x10', '9'.repeat(400), 'null', 'true', '[]', '{}'),
);

const hostileKey = fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.constantFrom(...HOSTILE_KEYS), hostileString);

/** JSON values with hostile leaves and keys, nested a few levels (deep nesting comes from raw bodies below). */
const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.constantFrom(null, true, false),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** Mostly objects with the API's field names, so requests get past "not an object" into the parsers. */
const hostileBody = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), fc.oneof(hostileJson, hostileScalar), { maxKeys: 5 }),
  fc.dictionary(hostileKey, hostileJson, { maxKeys: 4 }),
  fc.record({ items: fc.array(fc.dictionary(fc.constantFrom(...FIELD_NAMES), hostileJson, { maxKeys: 4 })) }),
  hostileJson,
);

const DEEP = 5_000;
const RAW_BODIES = [
  '['.repeat(DEEP) + ']'.repeat(DEEP),
  '{"a":'.repeat(DEEP) + '1' + '}'.repeat(DEEP),
  '{"__proto__":{"admin":true},"streetname":"Mekelweg","number":"8"}',
  '{"constructor":{"prototype":{"polluted":1}},"streetname":"x"}',
  '{"number":1e999999,"streetname":"Mekelweg"}',
  '{"streetname":"\\ud800","number":"\\u0000"}',
  '{"streetname":"Mekelweg","streetname":"Mekelweg"}',
  '{',
  '',
  'null',
  '"string"',
];

/** Percent-encodes a string as a hostile client would: lone surrogates as their (invalid) three UTF-8 bytes. */
function encodeRaw(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += `%${(0xe0 | (unit >> 12)).toString(16)}%${(0x80 | ((unit >> 6) & 0x3f)).toString(16)}%${(0x80 | (unit & 0x3f)).toString(16)}`;
    } else {
      out += encodeURIComponent(text[i] as string);
    }
  }
  return out;
}

interface RouteSpec {
  method: 'GET' | 'POST';
  path: string;
}

function routesOf(api: TestApi): RouteSpec[] {
  const dispatch = api.app.middleware.find((fn) => (fn as { router?: Router }).router);
  const router = (dispatch as unknown as { router: Router }).router;
  // The pages' files (/map, /docs) are served before the router (src/http/staticFiles.ts): the last test below.
  return router.stack.flatMap((layer) =>
    layer.methods
      .filter((m): m is 'GET' | 'POST' => m === 'GET' || m === 'POST')
      .map((method) => ({ method, path: String(layer.path) })),
  );
}

const OWN_FORMAT = new Map([
  ['/health', /^application\/json/],
  ['/metrics', /^text\/plain/],
  // The API description talks about Elasticsearch (503 causes) by design.
  ['/openapi.json', /^application\/json/],
  // Nominatim's status is text (`format=json`: JSON).
  ['/nominatim/status', /^(text\/plain|application\/json)/],
]);
/** The routes whose errors take a compatibility dialect's shape, and that shape's schema. */
const ERROR_SHAPES = new Map(ENDPOINTS.flatMap((e) => (e.errorShape ? [[e.path, e.errorShape.schema] as const] : [])));
const ELASTICSEARCH_WORDS = /exception|elasticsearch|lucene|shard|query_shard|search_phase|x_content|painless/i;

describe('hostile input on every route', () => {
  let api: TestApi;
  let routes: RouteSpec[];

  beforeAll(async () => {
    api = await startTestApi();
    routes = routesOf(api);
  });

  afterAll(() => api.close());

  async function expectSafe(method: string, path: string, rawBody: string | undefined): Promise<void> {
    const res = await api.call(method, path, rawBody === undefined ? {} : { rawBody });
    const where = `${method} ${path} ${rawBody?.slice(0, 200) ?? ''}`;
    expect(res.status, where).toBeLessThan(500);
    // /health reports on Elasticsearch by design (its shape names it); /metrics is Prometheus text; see OWN_FORMAT.
    const own = OWN_FORMAT.get(path.split('?')[0] as string);
    if (!own) expect(res.text, where).not.toMatch(ELASTICSEARCH_WORDS);
    if (res.status === 304) return;
    expect(res.headers.get('content-type'), where).toMatch(own ?? /^application\/(geo\+)?json/);
    if ((path.startsWith('/metrics') || path.startsWith('/nominatim/status')) && res.status === 200) return;
    expect(res.body, where).toBeDefined();
    const errorSchema = ERROR_SHAPES.get(path.split('?')[0] as string) ?? ErrorResponse;
    if (res.status >= 400) expect(errorSchema.safeParse(res.body).success, where).toBe(true);
  }

  it('lists the routes from the router', () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routes).toContainEqual({ method: 'POST', path: '/geocode/forward' });
    expect(routes).toContainEqual({ method: 'GET', path: '/addresses/:id' });
  });

  it('never answers 5xx, always the envelope or JSON, never an Elasticsearch message', async () => {
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const request = fc.record({
        params: fc.array(hostileScalar, { minLength: 4, maxLength: 4 }),
        query: fc.array(fc.tuple(hostileKey, hostileScalar), { maxLength: 5 }),
        body: hostileBody,
      });
      await fc.assert(
        fc.asyncProperty(request, async ({ params, query, body }) => {
          let i = 0;
          const path = route.path.replace(/:[A-Za-z_]+/g, () => encodeRaw(params[i++] ?? ''));
          const qs = query.map(([k, v]) => `${encodeRaw(k)}=${encodeRaw(v)}`).join('&');
          const url = qs ? `${path}?${qs}` : path;
          await expectSafe(route.method, url, route.method === 'POST' ? JSON.stringify(body) : undefined);
        }),
        { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
    }
  }, 300_000);

  it('survives deeply nested, duplicate-key, prototype-polluting and broken raw bodies', async () => {
    for (const route of routes.filter((r) => r.method === 'POST')) {
      for (const rawBody of RAW_BODIES) await expectSafe('POST', route.path, rawBody);
    }
    // No prototype was polluted by any body.
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it('serves the pages their own files whatever the query string, without a key', async () => {
    const hostileQuery = `?${encodeRaw('\u0308\ud800 OR 1=1')}=${encodeRaw('../../etc/passwd')}&__proto__=x`;
    for (const [path, type] of [
      ['/map/', /^text\/html/],
      ['/docs/', /^text\/html/],
      ['/map/main.js', /^text\/javascript/],
    ] as const) {
      const res = await fetch(`${api.url}${path}${hostileQuery}`);
      await res.arrayBuffer();
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(type);
    }
    const traversal = await fetch(`${api.url}/map/..%2f..%2fpackage.json`);
    expect(traversal.status).toBe(404);
    expect(await traversal.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});
