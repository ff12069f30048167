import { describe, expect, it } from 'vitest';
import { prefixOf } from '../../../../src/http/forwardedPrefix.js';

describe('prefixOf (X-Forwarded-Prefix)', () => {
  it('reads a plain path, without its trailing slash, the first of a list', () => {
    expect(prefixOf('/geo')).toBe('/geo');
    expect(prefixOf('/geo/')).toBe('/geo');
    expect(prefixOf('/api/geo-v2/%C3%A9')).toBe('/api/geo-v2/%C3%A9');
    expect(prefixOf('/outer, /inner')).toBe('/outer');
  });

  it('is no prefix when absent, relative, climbing or holding other characters', () => {
    for (const header of ['', '/', 'geo', '/geo/../admin', '/./geo', '/a b', '/a?b=1', '/a#b', '/%zz', 'https://x/y'])
      expect(prefixOf(header)).toBe('');
  });

  it('stays a path on the same host: repeated slashes are one', () => {
    expect(prefixOf('//other.example/geo')).toBe('/other.example/geo');
  });
});
