/**
 * Serves Pyodide from our own origin, never a CDN (unreachable offline, and the worker's
 * `connect-src 'self' blob:` forbids it anyway): the dev server answers `<base>pyodide/<file>` from
 * node_modules/pyodide, and the build emits the same files into `dist/pyodide/`, where the
 * service worker's precache manifest picks them up. They are ~13 MB, so they are copied at build
 * time, not committed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';
import { PYODIDE_FILES, PYODIDE_FOLDER } from '../src/kernel/python/pyodide-files.ts';

const pyodideDir = dirname(createRequire(import.meta.url).resolve('pyodide/package.json'));

const CONTENT_TYPES: Record<string, string> = {
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.zip': 'application/zip',
  '.json': 'application/json',
};

const contentType = (file: string): string =>
  CONTENT_TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream';

export function pyodideAssets(): Plugin {
  let base = '/';
  return {
    name: 'gpubook-pyodide-assets',
    configResolved(config) {
      base = config.base;
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0];
        const prefix = `${base}${PYODIDE_FOLDER}/`;
        const file = path.startsWith(prefix) ? path.slice(prefix.length) : '';
        if (!(PYODIDE_FILES as readonly string[]).includes(file)) return next();
        res.setHeader('Content-Type', contentType(file));
        res.end(readFileSync(join(pyodideDir, file)));
      });
    },
    generateBundle() {
      for (const file of PYODIDE_FILES) {
        this.emitFile({
          type: 'asset',
          fileName: `${PYODIDE_FOLDER}/${file}`,
          source: readFileSync(join(pyodideDir, file)),
        });
      }
    },
  };
}
