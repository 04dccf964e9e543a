/** How dataset loaders reach the outside world: an injected reader of the bundled data files. */

/**
 * Reads one file of the bundled data, addressed relative to the data root (`public/data/` in the
 * repository, `<base>/data/` when served), with forward slashes: `mnist/manifest.json`. It may
 * hand back gzip files already inflated (a server that sends `.gz` files with
 * `Content-Encoding: gzip`, as Vite's preview does, has the browser inflate them), so loaders
 * inflate only what still starts with the gzip magic bytes.
 */
export type ReadAsset = (path: string) => Promise<Uint8Array>;

/** A reader for the worker (and anything else with `fetch`): `base` is the data root's URL. */
export function fetchAssetReader(base: string | URL): ReadAsset {
  // A base without a trailing slash would make `new URL` replace its last segment.
  const root = new URL(String(base).endsWith('/') ? String(base) : `${String(base)}/`);
  return async (path) => {
    const url = new URL(path, root);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`Could not load ${url.href}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  };
}
