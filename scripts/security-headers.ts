/**
 * HTTP headers for every way the app is served (vite dev, vite preview, `npm start`), as a Vite
 * plugin.
 *
 * COOP/COEP make the page cross-origin isolated, which enables SharedArrayBuffer: the page uses it
 * to interrupt a running cell without killing the kernel. Two Content-Security-Policies:
 * - the page: only our own scripts, no inline script, no eval. It runs only our code (outputs are
 *   sanitised), and it fetches Python packages for the kernel from the package base the user set
 *   (src/app/settings): any https: mirror, or a local server on http://localhost / 127.0.0.1.
 * - worker scripts (requested with `Sec-Fetch-Dest: worker`): the kernel compiles cells, so it
 *   needs `'unsafe-eval'`; it is where notebook code runs, so `connect-src 'self' blob:` there is
 *   what stops a shared notebook from sending the user's other notebooks (same-origin IndexedDB)
 *   away. `blob:` is the package bytes the page handed over, which Pyodide's installer fetches.
 */
import type { Connect, Plugin } from 'vite';

const common = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
];

export const pageContentSecurityPolicy = [
  ...common,
  "connect-src 'self' https: http://localhost:* http://127.0.0.1:*",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * `worker-src blob:` lets the kernel start the CPU backend's GEMM threads (small Blob-URL workers
 * sharing its WebAssembly memory); a blob worker inherits this same policy, so it cannot reach
 * further than the kernel can.
 */
export const workerContentSecurityPolicy = [
  ...common,
  "connect-src 'self' blob:",
  "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
].join('; ');

/**
 * The benchmark page only: TF.js's threaded wasm backend `importScripts` its thread code from a
 * blob: URL, which the app's worker policy (rightly) refuses. The app never serves this policy.
 */
const benchWorkerContentSecurityPolicy = workerContentSecurityPolicy.replace(
  "script-src 'self'",
  "script-src 'self' blob:",
);

export const isolationHeaders: Record<string, string> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'X-Content-Type-Options': 'nosniff',
};

/**
 * `enforcePagePolicy` is off for the dev server only: React's fast-refresh preamble there is an
 * inline script, which the page policy (rightly) forbids. Built pages carry no inline script.
 */
const headersFor =
  (enforcePagePolicy: boolean, workerPolicy: string): Connect.NextHandleFunction =>
  (req, res, next) => {
    for (const [name, value] of Object.entries(isolationHeaders)) res.setHeader(name, value);
    if (req.headers['sec-fetch-dest'] === 'worker') {
      res.setHeader('Content-Security-Policy', workerPolicy);
    } else if (enforcePagePolicy) {
      res.setHeader('Content-Security-Policy', pageContentSecurityPolicy);
    }
    next();
  };

export function securityHeaders(options: { bench?: boolean } = {}): Plugin {
  const workerPolicy = options.bench
    ? benchWorkerContentSecurityPolicy
    : workerContentSecurityPolicy;
  return {
    name: 'gpubook-security-headers',
    configureServer(server) {
      server.middlewares.use(headersFor(false, workerPolicy));
    },
    configurePreviewServer(server) {
      server.middlewares.use(headersFor(true, workerPolicy));
    },
  };
}

/**
 * The page policy as a `<meta http-equiv>` can carry it, for static hosts that send no headers:
 * a meta element cannot set frame-ancestors (nor report-uri or sandbox), so those are left out.
 */
export const metaContentSecurityPolicy = pageContentSecurityPolicy
  .split('; ')
  .filter((directive) => !/^(?:frame-ancestors|report-uri|report-to|sandbox)\b/.test(directive))
  .join('; ');

/**
 * Puts the page policy into the built index.html, right after `<meta charset>` and so before any
 * script. Build only: the dev server's React refresh preamble is an inline script it would block.
 */
export function cspMetaTag(): Plugin {
  const tag = `<meta http-equiv="Content-Security-Policy" content="${metaContentSecurityPolicy}" />`;
  return {
    name: 'gpubook-csp-meta',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        /<meta charset[^>]*>/i.test(html)
          ? html.replace(/<meta charset[^>]*>/i, (charset) => `${charset}\n    ${tag}`)
          : html.replace(/<head>/i, `<head>\n    ${tag}`),
    },
  };
}
