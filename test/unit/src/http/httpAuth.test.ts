import { describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../../../src/http/auth.js';

describe('keyFingerprint', () => {
  it('is short, stable and does not contain the key', () => {
    const fp = keyFingerprint('secret-key-123');
    expect(fp).toMatch(/^[0-9a-f]{8}$/);
    expect(keyFingerprint('secret-key-123')).toBe(fp);
    expect(keyFingerprint('secret-key-124')).not.toBe(fp);
  });
});
