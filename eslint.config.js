// ESLint (flat config), the second of `npm run lint`'s three checks (Prettier, ESLint, the import boundaries in
// .dependency-cruiser.cjs): typescript-eslint's type-aware rules over the TypeScript (they read the types through
// tsconfig.json), the recommended JavaScript rules over the plain scripts. docs/design.md, "Guard rails".
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

const nodeGlobals = {
  process: 'readonly',
  console: 'readonly',
  URL: 'readonly',
  setTimeout: 'readonly',
  clearTimeout: 'readonly',
  setInterval: 'readonly',
  clearInterval: 'readonly',
};

export default defineConfig(
  globalIgnores(['node_modules/', 'dist/', 'coverage/', 'data/', 'web/', 'bench/results/', 'test/fixtures/']),
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore marks a binding kept on purpose (a destructured key left out of the rest, an unused
      // parameter of a callback's fixed shape).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          caughtErrors: 'none',
          ignoreRestSiblings: true,
        },
      ],
      // Numbers, booleans, arrays and query strings in a message are fine; an object or `never` is the mistake.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        {
          allowNumber: true,
          allowBoolean: true,
          allowArray: true,
          allow: [{ from: 'package', package: 'url', name: ['URLSearchParams', 'URL'] }],
        },
      ],
    },
  },
  {
    // No function longer than 80 lines (blank lines and comments not counted) in the service and the indexer.
    files: ['src/**/*.ts', 'indexer/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // Koa types `next()` as Promise<any> and `ctx.state` and the parsed body as `any`: in the middleware and the
    // router, the `any` rules would flag every `return next()`.
    files: ['src/http/**/*.ts', 'src/endpoints/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Tests, benches and fixture makers read JSON bodies and files (typed `any`) and mock methods: the `any` rules
    // and the method-binding rule would only ask for casts there.
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: nodeGlobals },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
);
