/** What a search result is on the map page (web/map/places.js, a plain browser module without types). */
import { describe, expect, it } from 'vitest';

// A path in a variable: the module is browser JavaScript, outside the TypeScript program.
const modulePath = '../../../../web/map/places.js';
const { boundaryUrl, boxFeature, isArea } = await import(modulePath);

describe('the map page: search results on the map', () => {
  it('fetches an area by its own id at the boundary endpoint of its level', () => {
    expect(boundaryUrl({ type: 'city', id: 'c/1' })).toBe('/cities/c%2F1/geojson?simplify=20');
    expect(boundaryUrl({ type: 'municipality', id: 'm1' })).toBe('/municipalities/m1/geojson?simplify=50');
    expect(boundaryUrl({ type: 'suburb', id: 's1' })).toBe('/suburbs/s1/geojson?simplify=5');
    expect(boundaryUrl({ type: 'province', id: 'p1' })).toBe('/provinces/p1/geojson?simplify=200');
    expect(boundaryUrl({ type: 'country', id: 'n1' })).toBe('/countries/n1/geojson?simplify=2000');
  });

  it('outlines areas only: streets, postcodes and addresses have no boundary of their own', () => {
    expect(['city', 'suburb', 'municipality', 'province', 'country'].every((type) => isArea({ type, id: 'x' }))).toBe(
      true,
    );
    for (const type of ['street', 'postcode', 'address']) expect(isArea({ type, id: 'x' })).toBe(false);
  });

  it("draws a street's extent as its bbox's closed, counter-clockwise rectangle", () => {
    expect(boxFeature([4.3, 52, 4.4, 52.1]).geometry).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [4.3, 52],
          [4.4, 52],
          [4.4, 52.1],
          [4.3, 52.1],
          [4.3, 52],
        ],
      ],
    });
  });
});
