import { describe, expect, it } from 'vitest';
import { contentDigest, withContentDigest } from '../../../../indexer/base/contentDigest.js';
import { tooLarge } from '../../../../indexer/update/changeSet.js';
import { DigestTable } from '../../../../indexer/update/digestTable.js';
import { ChangeLimitError, KindChanges } from '../../../../indexer/update/kindChanges.js';
import { stableId } from '../../../../indexer/records/ids.js';
import { bySourceId, stableSourceId } from '../../../../indexer/update/sourceIdChanges.js';

const id = (n: number) => stableId('addresses', `street|${n}`);
const d = (text: string) => contentDigest(text);

function live(entries: [string, string][]): DigestTable {
  const table = new DigestTable(entries.length);
  for (const [i, digest] of entries) table.add(i, digest);
  return table;
}

describe('DigestTable', () => {
  it('finds every id it holds, UUIDs and others, and gives them back exactly', () => {
    const ids = [...Array.from({ length: 500 }, (_, n) => id(n)), 'postcode:NL:2628CD'];
    const table = live(ids.map((i) => [i, d(i)]));
    expect(table.size).toBe(501);
    for (const i of ids) {
      const at = table.indexOf(i);
      expect(at).toBeGreaterThanOrEqual(0);
      expect(table.idAt(at)).toBe(i);
      expect(table.digestEquals(at, d(i))).toBe(true);
      expect(table.digestEquals(at, d(`${i}x`))).toBe(false);
    }
    expect(table.indexOf(id(9999))).toBe(-1);
    expect(table.indexOf('postcode:BE:1050')).toBe(-1);
  });
});

describe('withContentDigest', () => {
  it('appends the digest of the document as serialised, so equal documents get equal digests', () => {
    const a = withContentDigest({ id: 'x', n: 1 });
    expect(JSON.parse(a.json)).toEqual({ id: 'x', n: 1, content_hash: a.digest });
    expect(withContentDigest({ id: 'x', n: 1 }).digest).toBe(a.digest);
    expect(withContentDigest({ id: 'x', n: 2 }).digest).not.toBe(a.digest);
  });
});

describe('KindChanges', () => {
  it('sends what is added or changed, keeps back what is equal, and lists what is gone', () => {
    const changes = new KindChanges('addresses', live([id(1), id(2), id(3)].map((i) => [i, d(i)])));
    expect(changes.offer(id(1), d(id(1)), undefined)).toBe(false);
    expect(changes.offer(id(2), d('other'), undefined)).toBeUndefined();
    expect(changes.offer(id(4), d(id(4)), undefined)).toBeUndefined();
    expect(changes.counts()).toEqual({ added: 1, changed: 1, removed: 1, unchanged: 1 });
    expect([...changes.removedIds()]).toEqual([id(3)]);
  });

  it('of documents sharing an id, considers only a new best version, as Elasticsearch keeps the highest', () => {
    const changes = new KindChanges('addresses', live([[id(1), d('live')]]), Infinity, 1000);
    // A lower candidate that differs is sent (with the offset)...
    expect(changes.offer(id(1), d('loser'), 5)).toBe(1005);
    // ...so the better one, equal to the live copy, must be sent too to win over it.
    expect(changes.offer(id(1), d('live'), 7)).toBe(1007);
    // A worse one after the best is never sent.
    expect(changes.offer(id(1), d('worse'), 6)).toBe(false);
    expect(changes.counts()).toEqual({ added: 0, changed: 0, removed: 0, unchanged: 1 });
    expect(changes.superseded).toBe(2);
    const fresh = new KindChanges('addresses', live([[id(1), d('live')]]));
    expect(fresh.offer(id(1), d('live'), 7)).toBe(false);
    expect(fresh.offer(id(1), d('loser'), 5)).toBe(false);
    expect(fresh.counts().unchanged).toBe(1);
  });

  it('stops at once when more documents are new than the change limit allows', () => {
    const changes = new KindChanges('addresses', live([[id(1), d('x')]]), 2);
    changes.offer(id(2), d('a'), undefined);
    changes.offer(id(3), d('b'), undefined);
    expect(() => changes.offer(id(4), d('c'), undefined)).toThrow(ChangeLimitError);
  });
});

describe('tooLarge', () => {
  const zero = { added: 0, changed: 0, removed: 0, unchanged: 0 };
  it('names the kind and the numbers above the ratio; derived kinds are not limited', () => {
    const counts = {
      areas: zero,
      buildings: zero,
      addresses: { added: 5, changed: 3, removed: 4, unchanged: 88 },
      streets: { added: 50, changed: 0, removed: 0, unchanged: 50 },
      places: zero,
    };
    const out = tooLarge(counts, () => 100, 0.1);
    expect(out).toEqual([
      'addresses: 12 changes (5 added, 3 changed, 4 removed) of 100 live documents = 12.00 % > --max-change-ratio 0.1',
    ]);
    expect(tooLarge(counts, () => 100, 0.2)).toEqual([]);
  });
});

describe('bySourceId', () => {
  it('counts a removed and an added document of one source id as one changed address', () => {
    expect(stableSourceId({ bag_pand: 'p1', bag_nummeraanduiding: 'n1' })).toBe('bag_nummeraanduiding:n1');
    expect(stableSourceId({ bag_pand: 'p1' })).toBeUndefined();
    const counts = { added: 3, changed: 1, removed: 4, unchanged: 10 };
    const added = new Map([
      ['new-1', 'best_address:1'],
      ['new-2', 'best_address:2'],
    ]);
    const removed = new Map([
      ['old-1', 'best_address:1'],
      ['old-3', 'best_address:3'],
    ]);
    expect(bySourceId(counts, added, removed)).toEqual({ added: 2, changed: 2, removed: 3, unchanged: 10 });
  });
});
