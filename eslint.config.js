import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// The boundaries between layers (issue 21), as no-restricted-imports patterns. Flat config replaces a rule's
// options instead of merging them, so each file set below lists every boundary that applies to it.
const NO_DEXIE = {
  group: ['dexie', 'dexie/*'],
  message:
    'Dexie only in web/src/offline, the one write path on the device (STYLE.md rule 4): call LocalStore or RecordStore.',
};
const NO_APP = {
  regex: '^(\\.\\./)+app/',
  message:
    'app/ sits on top (routes, theme, guards) and only main.tsx imports it: put what features share in web/src/shared.',
};
const NO_SERVER_OR_WEB = {
  regex: '^(@novus/(server|web)|(\\.\\./)+(server|web))(/|$)',
  message:
    'domain/ is pure TypeScript shared by server and web: it imports neither; move the shared part into domain.',
};
const FETCH_MESSAGE = 'Call the server through the API client (web/src/api: ApiClient.call), not fetch.';
const restrictImports = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      '**/test-results/**',
      '**/playwright-report/**',
      '**/dev-dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // A focused test silently skips the rest of the suite (vitest and Playwright alike).
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'MemberExpression[property.name="only"]:matches([object.name=/^(describe|it|test|suite|bench)$/], [object.object.name=/^(describe|it|test|suite|bench)$/], [object.object.object.name=/^(describe|it|test|suite|bench)$/])',
          message:
            'No focused tests: remove .only before committing (run one test with a file path or -t instead).',
        },
      ],
      ...restrictImports(NO_DEXIE),
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['web/src/**'],
    ignores: ['web/src/app/**', 'web/src/main.tsx', 'web/src/offline/**'],
    rules: restrictImports(NO_DEXIE, NO_APP),
  },
  { files: ['web/src/offline/**'], rules: restrictImports(NO_APP) },
  // Tests build Dexie's own errors to check how the device names them (storage-errors.test.ts).
  { files: ['web/test/**'], rules: { 'no-restricted-imports': 'off' } },
  { files: ['domain/**'], rules: restrictImports(NO_DEXIE, NO_SERVER_OR_WEB) },
  {
    files: ['web/src/**'],
    // The tile download fetches map tiles from the tile server into the cache as they come: not the API, whose
    // client speaks JSON with the session.
    ignores: ['web/src/api/**', 'web/src/offline/tiles.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: FETCH_MESSAGE }],
      'no-restricted-properties': [
        'error',
        ...['window', 'globalThis', 'self'].map((object) => ({
          object,
          property: 'fetch',
          message: FETCH_MESSAGE,
        })),
      ],
    },
  },
);
