/**
 * The service worker (built by vite-plugin-pwa's injectManifest): after one visit the app loads
 * with the network off.
 * - Precache: the app shell (HTML, JS, CSS, fonts, icons, Monaco and the kernel worker) and the
 *   bundled chapters, versioned by the build's manifest; old versions are cleaned up.
 * - Runtime cache: `notebooks/` (anything not precached, e.g. a chapter added later) and `data/`
 *   (the datasets, megabytes each: cached on first use rather than on install, or all at once
 *   from the home page). `data/index.json`, the list of data files, is network-first so that it
 *   describes the build being served; offline it comes from the same cache.
 * - Every response it serves gets the isolation headers (isolation.ts), so an offline page is
 *   still cross-origin isolated and the kernel worker still has its own CSP.
 * - Cross-origin requests (Python packages from the package base, PyPI) match no route, so they go
 *   to the network untouched: the page keeps verified packages in its own cache
 *   (src/app/python-packages/package-cache.ts), which this worker neither fills nor cleans.
 */
import { clientsClaim, type WorkboxPlugin } from 'workbox-core';
import {
  addPlugins,
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies';
import { DATA_CACHE, DATA_INDEX } from './caches';
import { withIsolationHeaders } from './isolation';

/** The parts of ServiceWorkerGlobalScope used here (the DOM typings the app uses lack it). */
interface ServiceWorkerScope {
  __WB_MANIFEST: Array<PrecacheEntry | string>;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install', listener: () => void): void;
}
declare const self: ServiceWorkerScope;

const base = import.meta.env.BASE_URL;

/** The navigation's own request says "document"; workbox hands plugins a rewritten one. */
const isolation: WorkboxPlugin = {
  handlerWillRespond: async ({ request, response, event }) => {
    const original = (event as { request?: Request } | undefined)?.request;
    return withIsolationHeaders(response, original?.destination ?? request.destination);
  },
};

// A new version takes over at once: pages keep what they loaded, and their next load is current.
self.addEventListener('install', () => void self.skipWaiting());
clientsClaim();

addPlugins([isolation]);
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Any in-app URL (`?nb=…`, `?open=…`) is the app's index.html.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL(`${base}index.html`), {
    denylist: [new RegExp(`^${base}(?:data|notebooks)/`)],
  }),
);

const sameOriginUnder =
  (folder: string) =>
  ({ url }: { url: URL }) =>
    url.origin === location.origin && url.pathname.startsWith(`${base}${folder}/`);

registerRoute(
  sameOriginUnder('notebooks'),
  new StaleWhileRevalidate({ cacheName: 'gpubook-notebooks', plugins: [isolation] }),
);
registerRoute(
  ({ url }) => url.origin === location.origin && url.pathname === `${base}data/${DATA_INDEX}`,
  new NetworkFirst({ cacheName: DATA_CACHE, plugins: [isolation] }),
);
registerRoute(
  sameOriginUnder('data'),
  new CacheFirst({ cacheName: DATA_CACHE, plugins: [isolation] }),
);
