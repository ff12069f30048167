/** Which requests of the map page carry the API key (web/map/ownUrl.js, a plain browser module without types). */
import { describe, expect, it } from 'vitest';

// A path in a variable: the module is browser JavaScript, outside the TypeScript program.
const modulePath = '../../../../web/map/ownUrl.js';
const { isOwnUrl } = await import(modulePath);

const page = new URL('https://geo.example.org/map/#12/52.0/4.36');

describe('the map page: the key goes to this service only', () => {
  it("sends it with this service's paths and its absolute URLs (TileJSON's tiles)", () => {
    for (const url of [
      '/tiles/boundaries.json',
      '/tiles/boundaries/11/1048/676.mvt',
      'config.json',
      'https://geo.example.org/tiles/boundaries/11/1048/676.mvt',
      'https://GEO.example.org:443/tiles/boundaries.json',
    ]) {
      expect(isOwnUrl(url, page), url).toBe(true);
    }
  });

  it('never sends it to another origin, however the URL is written', () => {
    for (const url of [
      '//tiles.example.net/osm/1/2/3.png',
      '/\\tiles.example.net/osm/1/2/3.png',
      '//geo.example.org@tiles.example.net/x',
      'https://tiles.example.net/osm/1/2/3.png',
      'https://geo.example.org.tiles.example.net/x',
      'http://geo.example.org/tiles/boundaries.json',
      'https://geo.example.org:8443/tiles/boundaries.json',
      'data:application/json,{}',
      'blob:https://tiles.example.net/0c7e',
      'http://[::1',
    ]) {
      expect(isOwnUrl(url, page), url).toBe(false);
    }
  });

  it('never sends it from a page whose own origin is opaque', () => {
    const opaque = { href: 'data:text/html,map', origin: 'null' };
    expect(isOwnUrl('data:application/json,{}', opaque)).toBe(false);
  });
});
