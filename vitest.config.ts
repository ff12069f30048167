import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    pool: 'forks',
    // CI logs list every test by name (which ran against the real Elasticsearch is then visible).
    reporters: process.env.CI ? ['verbose'] : ['default'],
    maxWorkers: 2,
    projects: [
      {
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        test: {
          name: 'integration',
          // test/browser: the map page in Debian's chromium (playwright-core) against the same node and sample; one
          // project, because vitest runs a global setup once per project (a second node, a second sample load).
          include: ['test/integration/**/*.test.ts', 'test/browser/**/*.test.ts'],
          // One real Elasticsearch for the run; each file isolates itself with an index prefix.
          globalSetup: ['test/support/globalSetup.ts'],
          // Indexer tests run the whole sample (five index kinds, 581 Belgian municipalities) through the CLI, some twice:
          // a busy 2-core machine takes over a minute for those.
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
