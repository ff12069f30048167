import { describe, expect, it } from 'vitest';
import { dialectPath } from '../../../../src/http/dialectSlash.js';

const isDialect = (path: string) => ['/photon/api', '/nominatim/search'].includes(path);

describe('dialectPath', () => {
  it("reads a dialect's path with one trailing slash as its path", () => {
    expect(dialectPath('/photon/api/', isDialect)).toBe('/photon/api');
    expect(dialectPath('/nominatim/search/', isDialect)).toBe('/nominatim/search');
  });

  it('leaves every other path as it is', () => {
    for (const path of ['/photon/api', '/health/', '/photon/api//', '/', '/photon/', '/Photon/api/'])
      expect(dialectPath(path, isDialect)).toBe(path);
  });
});
