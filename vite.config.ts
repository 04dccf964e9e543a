/**
 * Build and serve configuration: React, the kernel worker as an ES module, and the security
 * headers (cross-origin isolation + CSP, see scripts/security-headers.ts and the README).
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { securityHeaders } from './scripts/security-headers';

export default defineConfig({
  plugins: [react(), securityHeaders()],
  worker: { format: 'es' },
  build: { target: 'es2022', chunkSizeWarningLimit: 8000 },
  preview: { port: 4173 },
});
