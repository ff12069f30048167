// Import boundaries, the third of `npm run lint`'s checks (`npm run lint:imports`): which folder may import which.
// The layers are README's "Design in a page" made a check; docs/design.md, "Guard rails", says how to read a failure.
// A rule here reads an import (`import type` included) from the file matched by `from` to the file matched by `to`;
// paths are relative to the repository root.

/** src/: the one-way layers, top to bottom (wiring/ -> features/ -> these -> config/ -> core/). */
const SERVICE_MIDDLE = [
  'endpoints',
  'http',
  'indexes',
  'elasticsearch',
  'language',
  'geojson',
  'geometry',
  'schemas',
  'openapi',
  'pages',
];

/**
 * The features one feature may import (besides its own folder): today's arrows between features, no more. A new
 * arrow between two features is a design change: move the shared piece below features/ or add it here on purpose.
 */
const FEATURE_IMPORTS = {
  address: ['cities', 'hierarchy'],
  autocomplete: ['address', 'cities', 'places', 'search'],
  dialects: ['address', 'autocomplete', 'hierarchy', 'places', 'reverse', 'search', 'service'],
  reverse: ['address', 'cities', 'hierarchy'],
  search: ['address', 'cities', 'hierarchy', 'places'],
  cities: [],
  hierarchy: [],
  places: [],
  service: [],
  tiles: [],
};

/**
 * indexer/: the order of its folders, bottom first (indexer/README.md, "Layout"); a folder imports only folders before
 * it. A folder not listed is an error (no-unlisted-indexer-folder), so a new one is placed here on purpose.
 */
const INDEXER_ORDER = [
  ['base'],
  ['geometry'],
  ['manifest'],
  ['sources'],
  ['records'],
  ['transform'],
  ['derived'],
  ['rows'],
  ['execution'],
  ['levelLoaders'],
  ['generations'],
  ['pipeline'],
  ['update'],
  ['commands'],
];

const anyOf = (folders) => `(${folders.join('|')})`;

/** A feature importing another feature it is not listed with in FEATURE_IMPORTS. */
const featureRules = Object.keys(FEATURE_IMPORTS).map((feature) => ({
  name: 'feature-to-other-feature',
  comment: `Of the features, src/features/${feature}/ imports only ${[feature, ...FEATURE_IMPORTS[feature]].join(', ')}.`,
  severity: 'error',
  from: { path: `^src/features/${feature}/` },
  to: { path: '^src/features/', pathNot: `^src/features/${anyOf([feature, ...FEATURE_IMPORTS[feature]])}/` },
}));

/** A folder of the indexer importing a folder above it in INDEXER_ORDER (or the commands and cli.ts). */
const INDEXER_LAYER_SEVERITY = 'error';
const indexerLayerRules = INDEXER_ORDER.slice(0, -1).map((level, at) => {
  const above = INDEXER_ORDER.slice(at + 1).flat();
  return {
    name: 'indexer-layer-order',
    comment: `indexer/${anyOf(level)}/ imports nothing above it: ${above.join(', ')}, the files in indexer/ itself.`,
    severity: INDEXER_LAYER_SEVERITY,
    from: { path: `^indexer/${anyOf(level)}/` },
    to: { path: `^indexer/(${anyOf(above)}/|[^/]+\\.ts$)` },
  };
});

module.exports = {
  forbidden: [
    {
      name: 'no-module-cycle',
      comment: 'A module reaches itself through its imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-loop',
      comment: 'Two folders import each other, directly or round a loop (src/, core/, dev/).',
      severity: 'error',
      scope: 'folder',
      from: { path: '^(src|core|dev)(/|$)' },
      to: { circular: true },
    },
    {
      name: 'no-folder-loop-indexer',
      comment: 'Two folders of indexer/ import each other, directly or round a loop.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^indexer(/|$)' },
      to: { circular: true },
    },
    {
      name: 'core-imports-only-core',
      comment:
        'core/ is shared by the service, the indexer and the dev tools: it imports nothing else of the repository.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(src|indexer|dev|bench|test|scripts)/' },
    },
    {
      name: 'service-not-to-tools',
      comment: 'src/ (the service) imports core/, nothing of the indexer, the dev tools, the benches or the tests.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(indexer|dev|bench|test|scripts)/' },
    },
    {
      name: 'indexer-not-to-service',
      comment: 'indexer/ imports core/, nothing of the service, the dev tools, the benches or the tests.',
      severity: 'error',
      from: { path: '^indexer/' },
      to: { path: '^(src|dev|bench|test|scripts)/' },
    },
    {
      name: 'production-not-to-tests',
      comment: 'Production and dev code never import the tests or the benches.',
      severity: 'error',
      from: { path: '^(src|core|indexer|dev)/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'nothing-below-wiring-imports-wiring',
      comment: 'src/wiring/ puts the service together; only main.ts and server.ts above it import it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(wiring/|main\\.ts$|server\\.ts$)' },
      to: { path: '^src/wiring/' },
    },
    {
      name: 'only-wiring-imports-features',
      comment: 'A feature is reached through src/wiring/ only: nothing below the features imports one.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(wiring|features)/' },
      to: { path: '^src/features/' },
    },
    {
      name: 'middle-not-to-features',
      comment: `src/${anyOf(SERVICE_MIDDLE)}/ sit below the features and the wiring.`,
      severity: 'error',
      from: { path: `^src/${anyOf(SERVICE_MIDDLE)}/` },
      to: { path: '^src/(wiring|features)/' },
    },
    {
      name: 'config-below-service',
      comment: 'src/config/ sits below everything of the service but core/.',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: '^src/config/' },
    },
    ...featureRules,
    {
      name: 'feature-not-listed',
      comment: 'A folder of src/features/ not in FEATURE_IMPORTS: add it there with the features it may import.',
      severity: 'error',
      from: { path: '^src/features/', pathNot: `^src/features/${anyOf(Object.keys(FEATURE_IMPORTS))}/` },
      to: {},
    },
    ...indexerLayerRules,
    {
      name: 'no-unlisted-indexer-folder',
      comment: 'A folder of indexer/ not placed in INDEXER_ORDER: place it, so its imports are checked.',
      severity: 'error',
      from: { path: '^indexer/[^/]+/', pathNot: `^indexer/${anyOf(INDEXER_ORDER.flat())}/` },
      to: {},
    },
  ],
  options: {
    includeOnly: '^(src|core|indexer|dev|bench|test|scripts)/',
    // test/fixtures/import-boundaries breaks these rules on purpose (test/unit/importBoundaries.test.ts).
    exclude: { path: '^test/fixtures/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    skipAnalysisNotInRules: true,
    cache: false,
    reporterOptions: { text: { highlightFocused: true } },
  },
};
