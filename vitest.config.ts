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
          include: ['test/integration/**/*.test.ts'],
          // One real Elasticsearch for the run; each file isolates itself with an index prefix.
          globalSetup: ['test/support/globalSetup.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
