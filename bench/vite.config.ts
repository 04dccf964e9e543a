/**
 * Builds the benchmark page (bench/index.html) on its own, so TensorFlow.js — used only here, to
 * compare against — never enters the app's bundle.
 */
import { defineConfig } from 'vite';
import { securityHeaders } from '../scripts/security-headers.ts';

export default defineConfig({
  root: 'bench',
  // Served at its origin's root, as the app is: the kernel worker the cell engines start finds
  // Pyodide and the bundled data under BASE_URL (a relative base would put them under assets/).
  base: '/',
  plugins: [securityHeaders({ bench: true })],
  worker: { format: 'es' },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 20000 },
  preview: { port: 4399 },
});
