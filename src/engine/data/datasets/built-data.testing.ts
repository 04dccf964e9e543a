/** For Node tests: runs the (idempotent) data build once and reads public/data from disk. */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ReadAsset } from './read-asset';
import { nodeAssetReader } from './read-asset-node';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** Absolute path of a file in the repository, from its repository-relative path. */
export const repoPath = (relative: string): string =>
  fileURLToPath(new URL(relative, `file://${repoRoot}`));

let built = false;

/** Builds public/data if it is missing or stale (a no-op in ~0.1 s otherwise) and reads it. */
export function builtDataReader(): ReadAsset {
  if (!built) {
    execFileSync(process.execPath, [repoPath('scripts/build-data.mjs'), '--quiet'], {
      stdio: 'inherit',
    });
    built = true;
  }
  return nodeAssetReader(repoPath('public/data'));
}
