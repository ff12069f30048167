import { describe, expect, it } from 'vitest';
import { splitPathKey } from '../../../../src/http/pathKey.js';

describe('splitPathKey', () => {
  it('cuts /k/<key> off the path, the key percent-decoded', () => {
    expect(splitPathKey('/k/abc123/nominatim/search')).toEqual({ key: 'abc123', rest: '/nominatim/search' });
    expect(splitPathKey('/k/a%2Bb%20c/photon/api')).toEqual({ key: 'a+b c', rest: '/photon/api' });
  });

  it('leaves other paths alone', () => {
    expect(splitPathKey('/nominatim/search')).toBeUndefined();
    expect(splitPathKey('/kk/abc/search')).toBeUndefined();
    expect(splitPathKey('/k')).toBeUndefined();
  });

  it('an empty or malformed key is no key, and is still cut off the path', () => {
    expect(splitPathKey('/k//nominatim/search')).toEqual({ key: '', rest: '/nominatim/search' });
    expect(splitPathKey('/k/%E0%A4%A/nominatim/search')).toEqual({ key: '', rest: '/nominatim/search' });
    expect(splitPathKey('/k/abc')).toEqual({ key: 'abc', rest: '/' });
  });
});
