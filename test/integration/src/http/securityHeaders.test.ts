/** Security headers on the pages and on every API answer, errors included. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../../support/api.js';

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

  it('tells the map page of no base map by default, and opens the policy to a configured one’s host only', async () => {
    const plain = await api.call('GET', '/map/config.json', { headers: { 'x-api-key': '' } });
    expect(plain.body).toEqual({ base: null });

    const withBase = await startTestApi({
      env: {
        MAP_BASE_RASTER_URL: 'https://tiles.example.org/osm/{z}/{x}/{y}.png',
        MAP_BASE_ATTRIBUTION: '© OpenStreetMap contributors',
      },
    });
    try {
      const config = await withBase.call('GET', '/map/config.json', { headers: { 'x-api-key': '' } });
      expect(config.body).toEqual({
        base: { raster: 'https://tiles.example.org/osm/{z}/{x}/{y}.png', attribution: '© OpenStreetMap contributors' },
      });
      const page = await withBase.call('GET', '/map/', { headers: { 'x-api-key': '' } });
      const policy = page.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("connect-src 'self' https://tiles.example.org;");
      expect(policy).toContain("script-src 'self';");
      // MapLibre's worker fetches the tiles under the policy its script came with.
      const worker = await withBase.call('GET', '/map/vendor/maplibre/maplibre-gl-worker.mjs', {
        headers: { 'x-api-key': '' },
      });
      expect(worker.headers.get('content-security-policy')).toBe(policy);
    } finally {
      await withBase.close();
    }
  });
});
