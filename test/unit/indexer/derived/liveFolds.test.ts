/** What `update` moves of the addresses the live generation holds folded (indexer/derived/liveFolds.ts). */
import { describe, expect, it } from 'vitest';
import type { ParentIds } from '../../../../core/elasticsearch/documents.js';
import { LiveFolds } from '../../../../indexer/derived/liveFolds.js';

const city = (id: string, municipality = 'm1'): ParentIds => ({
  country_id: 'nl',
  province_id: 'p1',
  municipality_id: municipality,
  city_id: id,
});
const own = (group: string) => city(group, `m-${group}`);

describe('LiveFolds', () => {
  it('moves nothing where this run folds the group into the same city', () => {
    const folds = new LiveFolds(new Map([['g1', city('t')]]));
    folds.note('a1', 'g1', 1);
    expect(folds.moves(folds.changed(new Map([['g1', city('t')]])), own).size).toBe(0);
  });

  it("moves a group's addresses to the city this run folds it into, or to its own where it folds it no more", () => {
    const folds = new LiveFolds(
      new Map([
        ['g1', city('t')],
        ['g2', city('t')],
      ]),
    );
    folds.note('a1', 'g1', 1);
    folds.note('a2', 'g2', 2);
    expect(folds.has('g1')).toBe(true);
    expect(folds.has('t')).toBe(false);
    const moves = folds.moves(folds.changed(new Map([['g1', city('u', 'm2')]])), own);
    expect(moves).toEqual(
      new Map([
        ['a1', city('u', 'm2')],
        ['a2', own('g2')],
      ]),
    );
  });

  it('moves every noted address when the live generation did not keep where it folded (made before)', () => {
    const folds = new LiveFolds(new Map([['g1', undefined]]));
    folds.note('a1', 'g1', 1);
    expect(folds.moves(folds.changed(new Map([['g1', city('t')]])), own)).toEqual(new Map([['a1', city('t')]]));
  });

  it("takes a shared id's group from its highest version, as Elasticsearch keeps it", () => {
    const folds = new LiveFolds(
      new Map([
        ['g1', city('t')],
        ['g2', city('t')],
      ]),
    );
    folds.note('a1', 'g2', 5);
    folds.note('a1', 'g1', 3);
    expect(folds.moves(folds.changed(new Map([['g1', city('u')]])), own)).toEqual(new Map([['a1', own('g2')]]));
  });
});
