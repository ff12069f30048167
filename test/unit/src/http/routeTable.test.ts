import { describe, expect, it } from 'vitest';
import { RouteTable } from '../../../../src/http/routeTable.js';

const table = new RouteTable([
  { method: 'get', path: '/health' },
  { method: 'post', path: '/geocode/batch' },
  { method: 'get', path: '/countries/geojson' },
  { method: 'get', path: '/countries/{id}/geojson' },
  { method: 'post', path: '/countries/{id}/geojson' },
  { method: 'delete', path: '/countries/{id}' },
]);

describe('RouteTable', () => {
  it('matches declared paths exactly: no trailing slash, no other case, a parameter is one segment', () => {
    expect(table.resolve('GET', '/health')).toEqual({ kind: 'route' });
    expect(table.resolve('HEAD', '/health')).toEqual({ kind: 'route' });
    expect(table.resolve('GET', '/countries/nl-1/geojson')).toEqual({ kind: 'route' });
    for (const path of ['/health/', '/Health', '/geocode/batch/', '/countries//geojson', '/countries/a/b/geojson']) {
      expect(table.resolve('GET', path), path).toEqual({ kind: 'not_found' });
    }
  });

  it('lists the methods of every pattern a path matches as Allow, in a fixed order', () => {
    expect(table.resolve('POST', '/health')).toEqual({ kind: 'method_not_allowed', allow: 'GET, HEAD' });
    expect(table.resolve('GET', '/geocode/batch')).toEqual({ kind: 'method_not_allowed', allow: 'POST' });
    // `/countries/geojson` is also `/countries/{id}`: the methods of both.
    expect(table.resolve('POST', '/countries/geojson')).toEqual({
      kind: 'method_not_allowed',
      allow: 'GET, HEAD, DELETE',
    });
    expect(table.resolve('DELETE', '/countries/x/geojson')).toEqual({
      kind: 'method_not_allowed',
      allow: 'GET, HEAD, POST',
    });
  });

  it('answers not implemented for a method it does not know, whatever the path', () => {
    expect(table.resolve('PROPFIND', '/health')).toEqual({ kind: 'not_implemented' });
    expect(table.resolve('TRACE', '/nowhere')).toEqual({ kind: 'not_implemented' });
  });
});
