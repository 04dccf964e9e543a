/**
 * The home page's "Make Python packages available offline" (`offline-python-packages`), under the
 * chapter data's: numpy, pandas, matplotlib, scikit-learn and what they depend on, from the
 * package base in the settings, with their total size (HEAD requests; "size unknown" offline) and
 * how many are kept already; the button fetches the rest into the package cache, verified.
 */
import { useEffect, useState } from 'react';
import { formatMegabytes } from './offline-data';
import { showError } from './notices';
import {
  cachedFiles,
  dependencyClosure,
  fileSizes,
  makePackagesAvailableOffline,
  OFFLINE_PACKAGES,
  parseLock,
  readBaseLock,
  type LockEntry,
} from './python-packages/offline-packages';
import { LOCK_FILE, openPackageCache } from './python-packages/package-cache';
import type { PackageFetchContext } from './python-packages/fetch-package-file';
import {
  DEFAULT_PACKAGE_BASE,
  onPackageBaseChange,
  readPackageBase,
} from './settings/package-base';
import { PYODIDE_FOLDER } from '../kernel/python/pyodide-files';
import './home-tools.css';

interface Listing {
  context: PackageFetchContext;
  entries: LockEntry[];
  /** Asked for but not in the base's lock. */
  missing: string[];
  sizes: (number | null)[];
  cached: boolean[];
}

type Action =
  | { kind: 'idle' }
  | { kind: 'working'; doneBytes: number; doneFiles: number }
  | { kind: 'error'; message: string };

/**
 * The base's lock. The default base is Pyodide's CDN folder of the very version bundled with the
 * app, whose lock is the bundled one: read that, so the home page asks the CDN only for sizes
 * (HEAD requests, page-side, never the notebook's code).
 */
async function packageList(context: PackageFetchContext): Promise<Map<string, LockEntry>> {
  if (context.base === DEFAULT_PACKAGE_BASE) {
    const bundled = `${import.meta.env.BASE_URL}${PYODIDE_FOLDER}/${LOCK_FILE}`;
    const response = await fetch(bundled).catch(() => null);
    if (response?.ok) return parseLock(await response.json());
  }
  return readBaseLock(context);
}

async function list(): Promise<Listing> {
  const context = { base: readPackageBase(), cache: await openPackageCache() };
  const { entries, missing } = dependencyClosure(await packageList(context), OFFLINE_PACKAGES);
  const [sizes, cached] = await Promise.all([
    navigator.onLine ? fileSizes(entries, context.base) : entries.map(() => null),
    cachedFiles(entries, context),
  ]);
  return { context, entries, missing, sizes, cached };
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** The bytes of the files picked, or null when the base did not say for one of them. */
function sizeOf(listing: Listing, pick: (i: number) => boolean): number | null {
  const sizes = listing.sizes.filter((_, i) => pick(i));
  return sizes.every((s) => s !== null) ? sum(sizes as number[]) : null;
}

export function OfflinePythonPackages() {
  const [listing, setListing] = useState<Listing | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [action, setAction] = useState<Action>({ kind: 'idle' });
  const [version, setVersion] = useState(0);

  useEffect(() => onPackageBaseChange(() => setVersion((v) => v + 1)), []);
  useEffect(() => {
    let current = true;
    list()
      .then((l) => {
        if (!current) return;
        setListing(l);
        setListError(null);
      })
      .catch((error: unknown) => {
        if (!current) return;
        setListing(null);
        setListError(error instanceof Error ? error.message : String(error));
      });
    return () => {
      current = false;
    };
  }, [version]);

  if (listError) {
    return (
      <p className="offline-data muted" data-testid="offline-python-packages-unavailable">
        Python packages cannot be listed for offline use: {listError}
      </p>
    );
  }
  if (!listing || listing.entries.length === 0) return null;

  const { entries, cached, missing } = listing;
  const keptCount = cached.filter(Boolean).length;
  const allKept = keptCount === entries.length;
  const total = sizeOf(listing, () => true);
  const toFetch = sizeOf(listing, (i) => !cached[i]);
  const size = total === null ? 'size unknown' : formatMegabytes(total);
  const names = OFFLINE_PACKAGES.filter((n) => !missing.includes(n)).join(', ');
  const what = `${names}: ${entries.length} files, ${size}`;

  const start = async () => {
    setAction({ kind: 'working', doneBytes: 0, doneFiles: 0 });
    try {
      // The kernel reads the base's lock before any wheel: keep it too.
      await readBaseLock(listing.context);
      await makePackagesAvailableOffline(
        entries.filter((_, i) => !cached[i]),
        listing.context,
        (doneBytes, doneFiles) => setAction({ kind: 'working', doneBytes, doneFiles }),
      );
      setAction({ kind: 'idle' });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      setAction({ kind: 'error', message });
      showError(`Python packages are not available offline. ${message}`);
    }
    setVersion((v) => v + 1); // list again: what is kept now
  };

  const state = allKept ? 'done' : action.kind;
  const label = allKept
    ? `Python packages available offline (${what})`
    : action.kind === 'working'
      ? `Downloading Python packages… ${action.doneFiles} of ${entries.length - keptCount} files` +
        (toFetch === null
          ? ''
          : `, ${formatMegabytes(action.doneBytes)} of ${formatMegabytes(toFetch)}`)
      : `${action.kind === 'error' ? 'Try again: make' : 'Make'} Python packages available offline (${what})`;

  return (
    <div className={`offline-data offline-python-packages is-${state}`}>
      <button
        type="button"
        className="button"
        data-testid="offline-python-packages"
        data-state={state}
        data-files={entries.length}
        data-cached-files={keptCount}
        data-total-bytes={total ?? ''}
        disabled={action.kind === 'working' || allKept}
        title={`Downloads these packages once from ${listing.context.base}, so that Python cells import them without a network`}
        onClick={() => void start()}
      >
        {allKept ? '✓ ' : ''}
        {label}
      </button>
      {!allKept && action.kind !== 'working' && keptCount > 0 && (
        <span className="muted">
          {keptCount} of {entries.length} kept already
        </span>
      )}
      {action.kind === 'working' && (
        <progress
          className="offline-data-progress"
          data-testid="progress"
          data-value={toFetch === null ? action.doneFiles : action.doneBytes}
          data-max={toFetch ?? entries.length - keptCount}
          value={toFetch === null ? action.doneFiles : action.doneBytes}
          max={toFetch ?? entries.length - keptCount}
          aria-label="Python packages downloaded"
        />
      )}
      {missing.length > 0 && (
        <span className="muted">(not in this package base: {missing.join(', ')})</span>
      )}
      {action.kind === 'error' && (
        <p className="offline-data-error" data-testid="offline-python-packages-error" role="alert">
          {action.message}
        </p>
      )}
    </div>
  );
}
