/** Security headers on the pages and on every API answer, errors included. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('security headers', () => {
  it('lets a page run only the service’s own scripts and styles, and never be framed', async () => {
    const page = await api.call('GET', '/map/', { headers: { 'x-api-key': '' } });
    expect(page.status).toBe(200);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("style-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('gives API answers, errors included, a policy that allows nothing', async () => {
    for (const answer of [
      await api.call('GET', '/countries'),
      await api.call('GET', '/countries', { headers: { 'x-api-key': 'wrong' } }),
      await api.call('GET', '/no-such-path'),
    ]) {
      expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });
});
