/** The map page's optional base map: configuration, what the page is told, and the page policy it opens. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src/config/service.js';
import { mapBaseOrigins } from '../../../../src/config/mapBase.js';
import { pagePolicy, PAGE_POLICY } from '../../../../src/http/securityHeaders.js';

describe('the base map', () => {
  it('is off by default: the page policy fetches from this service only', () => {
    expect(loadConfig({}).mapBase).toBeUndefined();
    expect(mapBaseOrigins(undefined)).toEqual([]);
    expect(PAGE_POLICY).toContain("connect-src 'self';");
  });

  it('is a raster tile URL with its attribution, whose host the page may then fetch from', () => {
    const mapBase = loadConfig({
      MAP_BASE_RASTER_URL: 'https://tiles.example.org/osm/{z}/{x}/{y}.png',
      MAP_BASE_ATTRIBUTION: '© OpenStreetMap contributors',
    }).mapBase;
    expect(mapBase).toEqual({
      raster: 'https://tiles.example.org/osm/{z}/{x}/{y}.png',
      attribution: '© OpenStreetMap contributors',
    });
    const policy = pagePolicy(mapBaseOrigins(mapBase));
    expect(policy).toContain("connect-src 'self' https://tiles.example.org;");
    expect(policy).toContain("img-src 'self' data: blob: https://tiles.example.org;");
  });

  it('is a style URL', () => {
    const mapBase = loadConfig({ MAP_BASE_STYLE_URL: 'https://maps.example.org:8443/style.json' }).mapBase;
    expect(mapBase).toEqual({ style: 'https://maps.example.org:8443/style.json' });
    expect(mapBaseOrigins(mapBase)).toEqual(['https://maps.example.org:8443']);
  });

  it('refuses a raster URL without {z}/{x}/{y}, a URL that is not http(s), and both at once', () => {
    expect(() => loadConfig({ MAP_BASE_RASTER_URL: 'https://tiles.example.org/osm.png' })).toThrow(
      /MAP_BASE_RASTER_URL/,
    );
    expect(() => loadConfig({ MAP_BASE_STYLE_URL: 'javascript:alert(1)' })).toThrow(/MAP_BASE_STYLE_URL/);
    expect(() =>
      loadConfig({
        MAP_BASE_STYLE_URL: 'https://maps.example.org/style.json',
        MAP_BASE_RASTER_URL: 'https://tiles.example.org/{z}/{x}/{y}.png',
      }),
    ).toThrow(/not both/);
  });
});
