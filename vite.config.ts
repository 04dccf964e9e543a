/**
 * Build and serve configuration: React, the kernel worker as an ES module, the cell API's
 * TypeScript declarations for the editor (generated from src/api at build time), and the security
 * headers (cross-origin isolation + CSP, see scripts/security-headers.ts and the README), the same
 * page CSP as a <meta> in the built index.html, Pyodide served from our origin (Python notebooks),
 * and the PWA (manifest + offline service worker).
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { cellApiDtsPlugin } from './scripts/cell-api-dts.ts';
import { pwa } from './scripts/pwa.ts';
import { pyodideAssets } from './scripts/pyodide-assets.ts';
import { cspMetaTag, securityHeaders } from './scripts/security-headers.ts';

export default defineConfig({
  plugins: [react(), cellApiDtsPlugin(), securityHeaders(), cspMetaTag(), pyodideAssets(), pwa()],
  worker: { format: 'es' },
  build: { target: 'es2022', chunkSizeWarningLimit: 8000 },
  preview: { port: 4173 },
});
