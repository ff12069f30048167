import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, defaultAttemptTimeoutMs, loadConfig, sha256Hex } from '../../../../src/config/service.js';

describe('loadConfig', () => {
  it('has defaults that work on a laptop', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      bodyLimitBytes: 16384,
      indexPrefix: '',
      esRequestTimeoutMs: 5000,
      shutdownGraceMs: 10_000,
      shutdownNoticeMs: 1000,
    });
    expect(config.apiKeyDigests).toEqual([]);
    expect(loadConfig({ SHUTDOWN_NOTICE_MS: '2500' }).shutdownNoticeMs).toBe(2500);
    expect(() => loadConfig({ SHUTDOWN_NOTICE_MS: '0' })).toThrow(/SHUTDOWN_NOTICE_MS/);
  });

  it('hashes API_KEYS and reads API_KEYS_FILE with plain and sha256 entries', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keys-'));
    const file = join(dir, 'keys');
    writeFileSync(file, `# clients\nplain-key\nsha256:${sha256Hex('hashed-key').toUpperCase()}\n\n`);
    const config = loadConfig({ API_KEYS: 'a, b', API_KEYS_FILE: file });
    expect(config.apiKeyDigests.sort()).toEqual(
      [sha256Hex('a'), sha256Hex('b'), sha256Hex('plain-key'), sha256Hex('hashed-key')].sort(),
    );
  });

  it('refuses to start in production without keys, and on invalid values', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ API_KEYS: 'sha256:abc' })).toThrow(/64 hex/);
    expect(() => loadConfig({ INDEX_PREFIX: 'Bad Prefix' })).toThrow(/INDEX_PREFIX/);
  });

  it('bounds the first attempt of a read by default only with several nodes, under the stall window', () => {
    expect(loadConfig({}).esGuard.attemptTimeoutMs).toBe(0);
    expect(loadConfig({ ELASTICSEARCH_URL: 'http://a:9200' }).esGuard.attemptTimeoutMs).toBe(0);
    const cluster = 'http://a:9200,http://b:9200,http://c:9200';
    expect(loadConfig({ ELASTICSEARCH_URL: cluster }).esGuard.attemptTimeoutMs).toBe(400);
    expect(loadConfig({ ELASTICSEARCH_URL: cluster, BREAKER_STALL_MS: '0' }).esGuard.attemptTimeoutMs).toBe(500);
    expect(loadConfig({ ELASTICSEARCH_URL: cluster, ES_ATTEMPT_TIMEOUT_MS: '0' }).esGuard.attemptTimeoutMs).toBe(0);
    expect(defaultAttemptTimeoutMs(2, 2000, 1000)).toBe(200);
  });
});
