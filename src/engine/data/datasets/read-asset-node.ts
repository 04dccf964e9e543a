/** A ReadAsset over the local file system, for Node tests and scripts (never for the worker). */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReadAsset } from './read-asset';

export function nodeAssetReader(root: string): ReadAsset {
  return async (path) => new Uint8Array(await readFile(join(root, ...path.split('/'))));
}
