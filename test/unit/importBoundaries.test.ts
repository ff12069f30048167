/**
 * The import rules `npm run lint` checks (.dependency-cruiser.cjs), run over a tiny tree in the service's layout
 * (test/fixtures/import-boundaries): the tree as the layers want it passes; an arrow up the layers that closes a
 * folder loop, and an arrow between two features not listed for each other, fail it with errors (not warnings).
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { cruise, type ICruiseOptions, type ICruiseResult, type IFlattenedRuleSet } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const FIXTURE = resolve('test/fixtures/import-boundaries');
const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as {
  forbidden: IFlattenedRuleSet['forbidden'];
  options: ICruiseOptions;
};

/** The repository's rules and options over the fixture's `src/` (its own paths: `src/http/...`). */
async function violations(exclude?: string): Promise<{ rule: string; severity: string; from: string; to: string }[]> {
  const { tsConfig: _repositoryOnly, ...options } = config.options;
  const { output } = await cruise(['src'], {
    ...options,
    baseDir: FIXTURE,
    ...(exclude && { exclude: { path: exclude } }),
    validate: true,
    ruleSet: { forbidden: config.forbidden },
  });
  const result = (typeof output === 'string' ? JSON.parse(output) : output) as ICruiseResult;
  return result.summary.violations.map((v) => ({
    rule: v.rule.name,
    severity: v.rule.severity,
    from: v.from,
    to: v.to,
  }));
}

describe('import boundaries', () => {
  it('pass the tree whose imports point down the layers (wiring -> features -> http)', async () => {
    expect(await violations('^src/(http/upward|features/tiles/crossing)\\.mjs$')).toEqual([]);
  });

  it('fail an arrow up the layers with the folder loop it closes, as errors', async () => {
    const found = await violations('^src/features/tiles/crossing\\.mjs$');
    expect(found).toEqual(
      expect.arrayContaining([
        {
          rule: 'middle-not-to-features',
          severity: 'error',
          from: 'src/http/upward.mjs',
          to: 'src/features/address/matchQuality.mjs',
        },
        {
          rule: 'only-wiring-imports-features',
          severity: 'error',
          from: 'src/http/upward.mjs',
          to: 'src/features/address/matchQuality.mjs',
        },
        expect.objectContaining({ rule: 'no-folder-loop', severity: 'error', from: 'src/http' }),
        expect.objectContaining({ rule: 'no-folder-loop', severity: 'error', from: 'src/features/address' }),
      ]),
    );
    expect(found.every((v) => v.severity === 'error')).toBe(true);
  });

  it('fail an import between two features not listed for each other', async () => {
    expect(await violations('^src/http/upward\\.mjs$')).toEqual([
      {
        rule: 'feature-to-other-feature',
        severity: 'error',
        from: 'src/features/tiles/crossing.mjs',
        to: 'src/features/search/endpoint.mjs',
      },
    ]);
  });
});
