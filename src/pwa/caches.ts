/**
 * Names shared by the service worker (sw.ts) and the page: the runtime cache that keeps the
 * bundled data files, which the home page fills when asked to make all chapter data available
 * offline (src/app/offline-data.ts).
 */
export const DATA_CACHE = 'gpubook-data';

/** The data root's index (written by scripts/build-data.mjs): every data file and its bytes. */
export const DATA_INDEX = 'index.json';
