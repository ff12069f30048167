import { describe, expect, it } from 'vitest';
import { parseCli, UsageError } from '../../../indexer/cli.js';
import { leaseOfSeconds, lockIndexName } from '../../../indexer/generations/runLock.js';
import { INDEX_KINDS } from '../../../core/elasticsearch/documents.js';
import { aliasName } from '../../../core/elasticsearch/indexNames.js';

describe('run lock options', () => {
  it('--lease takes whole seconds and is renewed four times per lease', () => {
    expect(parseCli(['--manifest', 'm.json', '--lease', '30'], { indexPrefix: '' }).leaseSeconds).toBe(30);
    expect(parseCli(['rollback', '--lease', '5'], { indexPrefix: '' }).leaseSeconds).toBe(5);
    expect(parseCli(['--manifest', 'm.json'], { indexPrefix: '' })).not.toHaveProperty('leaseSeconds');
    for (const bad of ['0', '1.5', 'x']) {
      expect(() => parseCli(['--manifest', 'm.json', '--lease', bad], { indexPrefix: '' })).toThrow(UsageError);
    }
    expect(leaseOfSeconds(120)).toEqual({ leaseMs: 120_000, renewEveryMs: 30_000 });
  });

  it('names a lock index that no alias or generation index of any kind can take', () => {
    const lock = lockIndexName('p-');
    expect(lock).toBe('p-indexer-lock');
    for (const kind of INDEX_KINDS) {
      expect(lock).not.toBe(aliasName('p-', kind));
      expect(lock.startsWith(`${aliasName('p-', kind)}-`)).toBe(false);
    }
  });
});
