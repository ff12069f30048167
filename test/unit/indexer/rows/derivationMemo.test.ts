/**
 * The derivation memo (indexer/rows/derivationMemo.ts): a derivation taken over from the previous run only for the
 * same input, each time as a fresh copy of what was derived then (not of what that object became later), kept in the
 * row cache file and read back with it; an input JSON cannot write is derived every time.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DerivationMemo } from '../../../../indexer/rows/derivationMemo.js';
import { RowCacheBuilder } from '../../../../indexer/rows/rowCacheBuilder.js';
import { readRowCache, writeRowCache } from '../../../../indexer/rows/rowCacheFile.js';

const ring = (d: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [4.3, 52],
      [4.3 + d, 52],
      [4.3 + d, 52 + d],
      [4.3, 52],
    ],
  ],
});

describe('derivation memo', () => {
  it('takes a derivation over for the same input only, as a fresh copy of what was derived', async () => {
    const first = new DerivationMemo();
    let calls = 0;
    const repair = (d: number) => () => {
      calls++;
      return { ok: true, geometry: ring(d), repairs: { rewound: 1 } };
    };
    const made = first.derive('area', ['municipalities', { code: 'GM0503' }, ring(0.1)], repair(0.1));
    // What the run does to its object afterwards does not reach the memo.
    made.repairs.rewound = 99;
    first.derive('area', ['municipalities', { code: 'GM0518' }, ring(0.2)], repair(0.2));
    expect([calls, first.misses, first.hits]).toEqual([2, 2, 0]);

    const dir = mkdtempSync(join(tmpdir(), 'memo-'));
    const head = { prefix: 'p-', generation: '20261127000000000', context: 'c' };
    await writeRowCache(dir, head, new RowCacheBuilder(), first.entries);
    const read = await readRowCache(dir, 'p-', head.generation);
    if ('missing' in read) throw new Error(read.missing);

    const next = new DerivationMemo(read.memo);
    const again = next.derive('area', ['municipalities', { code: 'GM0503' }, ring(0.1)], repair(0.1));
    expect(calls).toBe(2);
    expect(again).toEqual({ ok: true, geometry: ring(0.1), repairs: { rewound: 1 } });
    // Key order kept: the document built from it digests as the derived one did.
    expect(JSON.stringify(again)).toBe(JSON.stringify({ ok: true, geometry: ring(0.1), repairs: { rewound: 1 } }));
    // A moved boundary, or the same input under another kind, is derived again.
    next.derive('area', ['municipalities', { code: 'GM0518' }, ring(0.25)], repair(0.25));
    next.derive('derived-city-outline', ['municipalities', { code: 'GM0503' }, ring(0.1)], repair(0.1));
    expect([calls, next.hits, next.misses]).toEqual([4, 1, 2]);
    // The next memo holds what this run used: the one taken over and the two derived, not the one left behind.
    expect(next.entries.size).toBe(3);
  });

  it('derives every time what JSON cannot write as a key', () => {
    const memo = new DerivationMemo();
    let calls = 0;
    for (let i = 0; i < 2; i++) memo.derive('area', [BigInt(1)], () => ++calls);
    expect([calls, memo.entries.size]).toEqual([2, 0]);
  });
});
