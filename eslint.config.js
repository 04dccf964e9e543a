// Lint rules: typescript-eslint's recommended type-aware-free set plus React hooks rules.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      '**/dist/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'public/',
      'bench/public/',
      'bench/.app-dist/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-new-func': 'off',
    },
  },
  {
    files: ['scripts/**/*.mjs', '.ci/**'],
    // Node scripts; page.evaluate callbacks inside them run in the browser.
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
