// Lint rules: typescript-eslint's recommended type-aware-free set plus React hooks rules, and the
// layering the README draws (each layer imports only those below it).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** The layers, lowest first: a module may import its own layer and those below, never above. */
const LAYERS = [
  'kernels',
  'src/engine',
  'src/api',
  'src/kernel',
  'src/notebook',
  'src/panels',
  'src/app',
];
const ROOT = path.dirname(fileURLToPath(import.meta.url));

/** Index of the layer a file lies in, or -1 outside them (src/main.tsx, src/pwa, tests' tools). */
function layerOf(file) {
  const rel = path.relative(ROOT, file).split(path.sep).join('/');
  return LAYERS.findIndex((layer) => rel === layer || rel.startsWith(`${layer}/`));
}

/** layers/no-upward-import: a relative import that lands in a higher layer (types included). */
const noUpwardImport = {
  meta: {
    type: 'problem',
    docs: { description: 'forbid imports from a higher layer (README: Layout)' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const own = layerOf(file);
    if (own < 0) return {};
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = layerOf(path.resolve(path.dirname(file), source.value));
      if (target > own) {
        context.report({
          node,
          message: `${LAYERS[own]} must not import from ${LAYERS[target]} (a higher layer): '${source.value}'`,
        });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

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
    files: ['src/**/*.{ts,tsx}'],
    // Tests may drive a layer from above (a chapter test runs cells through the kernel's globals).
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/testing/**'],
    plugins: { layers: { rules: { 'no-upward-import': noUpwardImport } } },
    rules: { 'layers/no-upward-import': 'error' },
  },
  {
    files: ['scripts/**/*.mjs', '.ci/**'],
    // Node scripts; page.evaluate callbacks inside them run in the browser.
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
