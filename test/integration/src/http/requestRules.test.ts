/**
 * What a client hears about a request the service cannot take: a missing field says it is required and of which
 * type, a body nested deeper than the limit is a 400 (never a stack overflow), and the path and method are judged
 * before the body is read (404, 405 with Allow, 501), by the same exact-path rule the key and body-size rules use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse } from '../../../../src/schemas/responses.js';
import { startTestApi, type TestApi, type TestResponse } from '../../../support/api.js';

const anonymous = { 'x-api-key': '' };
const logged: { level: number; msg: string }[] = [];
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ logSink: (line) => logged.push(line as { level: number; msg: string }) });
});
afterAll(() => api.close());

function expectError(res: TestResponse, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = ErrorResponse.parse(res.body);
  expect(body.error.code).toBe(code);
  return body.error;
}

const errorLines = () => logged.filter((line) => line.level >= 50);

describe('a missing required field', () => {
  it('is named as required, with the type it expects, in the body and the query', async () => {
    const body = expectError(
      await api.call('POST', '/geocode/forward', { body: { streetname: 'x' } }),
      400,
      'invalid_request',
    );
    expect(body.details).toContainEqual({ path: 'body.number', message: 'Required (expected string or number)' });
    const query = expectError(await api.call('GET', '/reverse'), 400, 'invalid_request');
    expect(query.details).toContainEqual({
      path: 'query.lat',
      message: expect.stringMatching(/^Required \(expected /),
    });
    // A field of the wrong type keeps zod's own message (it says what it got).
    const wrong = expectError(
      await api.call('POST', '/geocode/forward', { body: { streetname: 'x', number: [] } }),
      400,
      'invalid_request',
    );
    expect(wrong.details?.find((d) => d.path === 'body.number')?.message).not.toMatch(/^Required/);
  });
});

describe('a deeply nested body', () => {
  const deepArray = '['.repeat(4000) + ']'.repeat(4000);
  const deepObject = '{"a":'.repeat(2000) + '1' + '}'.repeat(2000);
  // The text names `__proto__`, so every level is searched for the key (the walk that overflowed before).
  const deepProto = '['.repeat(4000) + '{"__proto__":1}' + ']'.repeat(4000);

  it('is a 400 naming the depth limit, never a 500, and logs no error', async () => {
    for (const rawBody of [deepArray, deepObject, deepProto]) {
      const health = await api.call('POST', '/health', { rawBody, headers: anonymous });
      expect(health.status).toBeLessThan(500);
      for (const [path, headers] of [
        ['/geocode/forward', {}],
        ['/geocode/batch', {}],
        ['/lookup/street', {}],
      ] as const) {
        const error = expectError(await api.call('POST', path, { rawBody, headers }), 400, 'invalid_request');
        expect(error.message).toMatch(/nested deeper than 64 levels/);
      }
    }
    // Chunked (no Content-Length): the other reader gives the same answer.
    const chunked = await fetch(`${api.url}/geocode/forward`, {
      method: 'POST',
      headers: { 'x-api-key': 'test-key-0123456789', 'content-type': 'application/json' },
      body: new Blob([deepObject]).stream(),
      duplex: 'half',
    });
    expect(chunked.status).toBe(400);
    expect(((await chunked.json()) as { error: { message: string } }).error.message).toMatch(/64 levels/);
    expect(errorLines()).toEqual([]);
  });

  it('at the limit (64 levels) is read, one more is refused', async () => {
    const atLimit = '{"a":'.repeat(63) + '[]' + '}'.repeat(63);
    const error = expectError(await api.call('POST', '/geocode/forward', { rawBody: atLimit }), 400, 'invalid_request');
    expect(error.message).toBe('Invalid request body');
    const over = '{"a":'.repeat(64) + '[]' + '}'.repeat(64);
    const refused = expectError(await api.call('POST', '/geocode/forward', { rawBody: over }), 400, 'invalid_request');
    expect(refused.message).toMatch(/64 levels/);
  });
});

describe('the path and method, judged before the body', () => {
  it('answers 404 for an unknown path and 405 with Allow for a known one, whatever the body', async () => {
    for (const headers of [{}, { 'content-type': 'text/plain' }] as Record<string, string>[]) {
      expectError(await api.call('POST', '/no/such/endpoint', { rawBody: 'x', headers }), 404, 'not_found');
      const wrong = await api.call('POST', '/countries', { rawBody: 'x', headers });
      expectError(wrong, 405, 'method_not_allowed');
      expect(wrong.headers.get('allow')).toBe('GET, HEAD');
      const put = await api.call('PUT', '/geocode/forward', { rawBody: '{}', headers });
      expectError(put, 405, 'method_not_allowed');
      expect(put.headers.get('allow')).toBe('POST');
    }
    // An open path takes no key for its 405 either.
    const health = await api.call('POST', '/health', { rawBody: '{}', headers: anonymous });
    expectError(health, 405, 'method_not_allowed');
    expect(health.headers.get('allow')).toBe('GET, HEAD');
    // OPTIONS without a CORS preflight's headers: the path's methods.
    const options = await api.call('OPTIONS', '/countries');
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD');
    // Unknown paths without a key stay 401: which paths exist is not told to anonymous callers.
    expectError(await api.call('POST', '/no/such/endpoint', { body: {}, headers: anonymous }), 401, 'unauthorized');
  });

  it('answers 501 in the JSON envelope for a method it does not implement', async () => {
    for (const path of ['/geocode/forward', '/health', '/no/such/endpoint']) {
      const res = await api.call('PROPFIND', path, { rawBody: '{}' });
      expectError(res, 501, 'not_implemented');
    }
  });

  it('knows one spelling of each path: a trailing slash or another case is not found, for every rule', async () => {
    for (const path of ['/health/', '/Health', '/HEALTH/']) {
      expectError(await api.call('GET', path), 404, 'not_found');
    }
    // Without a key: an open path with a trailing slash is a 404 too (no key would make it a route); another case is
    // not an open path, and gets the same answer as any unknown path.
    expectError(await api.call('GET', '/health/', { headers: anonymous }), 404, 'not_found');
    for (const path of ['/Health', '/HEALTH/']) {
      expectError(await api.call('GET', path, { headers: anonymous }), 401, 'unauthorized');
    }
    // A batch body over the single-request limit but under the batch one: not a 413 at another spelling, a 404.
    const items = Array.from({ length: 500 }, (_, i) => ({ streetname: 'Mekelweg', number: String(i + 1) }));
    const rawBody = JSON.stringify({ items });
    expect(rawBody.length).toBeGreaterThan(16 * 1024);
    expect((await api.call('POST', '/geocode/batch', { rawBody })).status).toBe(200);
    for (const path of ['/geocode/batch/', '/Geocode/Batch']) {
      expectError(await api.call('POST', path, { rawBody }), 404, 'not_found');
    }
    // The pages keep their folder redirect.
    const folder = await fetch(`${api.url}/map`, { redirect: 'manual' });
    expect(folder.status).toBe(301);
    expect(folder.headers.get('location')).toBe('/map/');
    expect((await api.call('GET', '/map/', { headers: anonymous })).status).toBe(200);
  });
});
