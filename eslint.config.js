// Lint, with the layering rules of CONVENTIONS.md: a wrong import fails `npm run lint`.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'crypto', 'http', 'https', 'net', 'child_process', 'url', 'util', 'stream', 'events', 'worker_threads'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.tmp/**', '.ci-tmp/**', 'release/**', 'coverage/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // shared/: pure TypeScript, imported by both sides.
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron', 'react', 'react-dom', ...nodeBuiltins.filter((n) => !n.includes('*'))],
          patterns: [
            { group: ['node:*'], message: 'shared/ is pure TypeScript: no Node built-ins.' },
            { group: ['**/electron/**', '**/renderer/**', '../electron', '../renderer'], message: 'shared/ imports nothing from the other top folders.' },
          ],
        },
      ],
    },
  },
  {
    // renderer/: shared/ and its own files only.
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron', ...nodeBuiltins.filter((n) => !n.includes('*'))],
          patterns: [
            { group: ['node:*'], message: 'The renderer runs in a browser: no Node built-ins.' },
            { group: ['**/electron/**', '../../electron', '../electron'], message: 'The renderer reaches the core only through renderer/src/api.' },
          ],
        },
      ],
    },
  },
  {
    // renderer config runs in Node.
    files: ['renderer/vite.config.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The core: only the Electron entry and preload (and desktop/ files only they use) import electron.
    files: ['electron/**/*.{ts,cts,mts}'],
    ignores: ['electron/main.ts', 'electron/preload.cts', 'electron/desktop/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Only electron/main.ts, the preload and electron/desktop/ may import electron: the core also runs in the team server and the CLI.' }],
          patterns: [{ group: ['**/renderer/**', '../renderer', '../../renderer'], message: 'The core does not import the renderer.' }],
        },
      ],
    },
  },
  {
    files: ['electron/cli.ts', 'electron/cli/**/*.ts', 'electron/cli-entry.ts', 'scripts/**', 'bench/**', 'bin/**'],
    rules: { 'no-console': 'off' },
  },
);
