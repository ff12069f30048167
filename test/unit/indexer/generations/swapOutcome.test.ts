import { describe, expect, it } from 'vitest';
import { INDEX_KINDS, type IndexKind } from '../../../../core/elasticsearch/documents.js';
import { swapOutcome, unknownOutcomeMessage } from '../../../../indexer/generations/swapOutcome.js';

const on = (generation: string) =>
  Object.fromEntries(INDEX_KINDS.map((kind) => [kind, [`${kind}-${generation}`]])) as Record<IndexKind, string[]>;
const targets = Object.fromEntries(INDEX_KINDS.map((kind) => [kind, `${kind}-new`])) as Record<IndexKind, string>;

describe('what a failed alias swap did, from the aliases read back', () => {
  it('every alias on its target alone: applied', () => {
    expect(swapOutcome(on('new'), targets)).toBe('applied');
  });

  it('no alias on its target (as before, or no aliases yet): not applied, the new indexes serve nothing', () => {
    expect(swapOutcome(on('old'), targets)).toBe('not-applied');
    expect(swapOutcome({}, targets)).toBe('not-applied');
  });

  it('some on the target, or a target sharing its alias: mixed (the caller deletes nothing)', () => {
    expect(swapOutcome({ ...on('old'), areas: ['areas-new'] }, targets)).toBe('mixed');
    expect(swapOutcome({ ...on('new'), areas: ['areas-old', 'areas-new'] }, targets)).toBe('mixed');
  });

  it('the message says nothing was deleted and how to check', () => {
    const message = unknownOutcomeMessage('geo-', 'G1', 'socket hang up', 'the aliases could not be read back (503)');
    expect(message).toContain('no index was deleted');
    expect(message).toContain('`npm run index -- status --prefix geo-`');
  });
});
