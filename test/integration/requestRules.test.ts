/**
 * What a client hears about a request the service cannot take: a missing field says it is required and of which
 * type, and a body nested deeper than the limit is a 400 (never a stack overflow).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse } from '../../src/schemas/responses.js';
import { startTestApi, type TestApi, type TestResponse } from '../support/api.js';

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
    } as RequestInit);
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
