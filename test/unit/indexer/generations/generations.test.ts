import { describe, expect, it } from 'vitest';
import {
  flattenIndexSettings,
  generationOf,
  loadingSettings,
  newGeneration,
  restoredSettings,
} from '../../../../indexer/generations/generationIndexes.js';
import { indexDefinition } from '../../../../core/elasticsearch/mappings.js';

describe('generations (pure parts)', () => {
  it('names generations by sortable UTC timestamp', () => {
    expect(newGeneration(new Date('2025-03-04T05:06:07.089Z'))).toBe('20250304050607089');
    const a = newGeneration(new Date('2025-12-31T23:59:59.999Z'));
    const b = newGeneration(new Date('2026-01-01T00:00:00.000Z'));
    expect(a < b).toBe(true);
  });

  it('recognises only its own generation indexes', () => {
    expect(generationOf('p-', 'areas', 'p-areas-20250304050607089')).toBe('20250304050607089');
    expect(generationOf('p-', 'areas', 'p-addresses-20250304050607089')).toBeUndefined();
    expect(generationOf('p-', 'areas', 'p-areas-2025')).toBeUndefined();
    expect(generationOf('', 'areas', 'x-areas-20250304050607089')).toBeUndefined();
  });

  it('loads without refreshes or replicas and restores what the mapping file says', () => {
    const def = indexDefinition('addresses');
    const loading = loadingSettings(def);
    expect(loading['index.refresh_interval']).toBe('-1');
    expect(loading['index.number_of_replicas']).toBe(0);
    expect(loading['index.auto_expand_replicas']).toBeUndefined();
    expect(loading['index.number_of_shards']).toBe(1);
    const restored = restoredSettings(def);
    expect(restored).toEqual({ 'index.refresh_interval': '1s', 'index.auto_expand_replicas': '0-1' });
  });

  it('flattens nested and dotted settings alike', () => {
    expect(flattenIndexSettings({ index: { a: 1, b: { c: 'x' } }, 'index.d': 2, e: 3 })).toEqual({
      'index.a': 1,
      'index.b.c': 'x',
      'index.d': 2,
      'index.e': 3,
    });
    expect(restoredSettings({ settings: { number_of_replicas: 2 }, mappings: {} })).toEqual({
      'index.refresh_interval': null,
      'index.number_of_replicas': 2,
    });
  });
});
