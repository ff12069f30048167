/** The API key in the query string (src/http/queryKey.ts): read where a route allows it, and gone from the URL. */
import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { splitQueryKey, takeQueryKey } from '../../../../src/http/queryKey.js';

const contextOf = (path: string, querystring: string) => ({ path, querystring, state: {} }) as unknown as Context;

describe('key in the query string', () => {
  it('takes api_key or key out of the query string, keeping the rest in order', () => {
    expect(splitQueryKey('q=delft&api_key=s3cret&limit=5')).toEqual({ key: 's3cret', rest: 'q=delft&limit=5' });
    expect(splitQueryKey('key=s3cret&q=delft')).toEqual({ key: 's3cret', rest: 'q=delft' });
    // Both given: api_key is the one read, and neither stays in the URL.
    expect(splitQueryKey('api_key=a&key=b&q=x')).toEqual({ key: 'a', rest: 'q=x' });
    expect(splitQueryKey('q=keyboard')).toEqual({ key: undefined, rest: 'q=keyboard' });
    expect(splitQueryKey('api_key=&q=x')).toEqual({ key: undefined, rest: 'q=x' });
  });

  it('reads it only on routes that accept it, and leaves nothing of it in the request', () => {
    const accepts = (path: string) => path.startsWith('/nominatim/');
    const dialect = contextOf('/nominatim/search', 'q=delft&api_key=s3cret');
    expect(takeQueryKey(dialect, accepts)).toBe('s3cret');
    expect(dialect.querystring).toBe('q=delft');
    // Asked again in the same request (the anonymous gate, then authentication): the same answer.
    expect(takeQueryKey(dialect, accepts)).toBe('s3cret');
    const native = contextOf('/search', 'q=delft&api_key=s3cret');
    expect(takeQueryKey(native, accepts)).toBeUndefined();
    expect(native.querystring).toBe('q=delft&api_key=s3cret');
  });
});
