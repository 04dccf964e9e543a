/**
 * The Progressive Web App: web manifest (installable, with our icons) and the service worker
 * src/pwa/sw.ts, built by vite-plugin-pwa with its manifest of files to precache injected.
 * Registration is ours (src/pwa/register.ts), so no inline script lands in index.html (the page
 * CSP forbids inline scripts).
 */
import { VitePWA } from 'vite-plugin-pwa';
import type { PluginOption } from 'vite';

export function pwa(): PluginOption {
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src/pwa',
    filename: 'sw.ts',
    injectRegister: false,
    manifestFilename: 'manifest.webmanifest',
    // The precache globs below already take the icons; listing them twice would duplicate them.
    includeManifestIcons: false,
    manifest: {
      name: 'gpubook',
      short_name: 'gpubook',
      description: 'Browser notebooks that train neural networks on your GPU through WebGPU.',
      display: 'standalone',
      start_url: '.',
      scope: '.',
      theme_color: '#1a73e8',
      background_color: '#f6f7f9',
      icons: [
        { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
        {
          src: 'icons/icon-maskable-512.png',
          sizes: '512x512',
          type: 'image/png',
          purpose: 'maskable',
        },
        { src: 'icons/icon.svg', sizes: 'any', type: 'image/svg+xml' },
      ],
    },
    injectManifest: {
      // A classic (not module) worker: every browser with service workers runs it.
      rollupFormat: 'iife',
      globPatterns: [
        '**/*.{js,css,html,svg,png,ttf,woff2,webmanifest}',
        'notebooks/*.{ipynb,json}',
        // Python notebooks' interpreter (~13 MB, scripts/pyodide-assets.ts): offline like the rest.
        'pyodide/*.{mjs,wasm,zip,json}',
      ],
      // The datasets are cached on first use instead (see sw.ts).
      globIgnores: ['data/**'],
      // Monaco's TypeScript worker alone is ~7 MB and pyodide.asm.wasm ~9.6 MB; the shell must be
      // complete to work offline.
      maximumFileSizeToCacheInBytes: 16 * 1024 * 1024,
    },
  });
}
