// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'out/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The rules engine is pure: no clocks, randomness or I/O (see ARCHITECTURE.md).
    files: ['src/games/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', 'Date', 'setTimeout', 'setInterval', 'fetch', 'process'],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'Dice come in from outside.' }],
      'no-restricted-imports': ['error', { patterns: ['node:*', '../hardware/*', '../vision/*', '../api/*', 'fs', 'path'] }],
    },
  },
  {
    files: ['src/api/public/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
);
