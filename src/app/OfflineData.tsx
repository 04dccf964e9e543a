/**
 * The home page's "Make all chapter data available offline" control (`offline-data`): shows the
 * total size of the bundled data files, downloads those the service worker has not cached yet
 * with a progress bar, and says when everything is available offline — or, if it fails, which
 * file and why (inline and in the error banner).
 */
import { useEffect, useState } from 'react';
import { showError } from './notices';
import {
  canKeepOffline,
  formatMegabytes,
  makeDataAvailableOffline,
  missingFromCache,
  readDataIndex,
  totalBytes,
  type DataFile,
} from './offline-data';
import './home-tools.css';

type State =
  | { kind: 'idle' }
  | { kind: 'working'; doneBytes: number }
  | { kind: 'done' }
  | { kind: 'error'; message: string };

export function OfflineData() {
  const [files, setFiles] = useState<DataFile[] | null>(null);
  const [state, setState] = useState<State>({ kind: 'idle' });

  useEffect(() => {
    if (!canKeepOffline()) return;
    let cancelled = false;
    readDataIndex()
      .then(async (index) => {
        if (cancelled || !index) return;
        setFiles(index);
        if ((await missingFromCache(index)).length === 0 && !cancelled) setState({ kind: 'done' });
      })
      // No index (no data in this build, or offline before it was ever fetched): no control.
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, []);

  if (!files) return null;
  const total = totalBytes(files);
  const size = formatMegabytes(total);

  const start = async () => {
    setState({ kind: 'working', doneBytes: 0 });
    try {
      await makeDataAvailableOffline(files, (doneBytes) =>
        setState({ kind: 'working', doneBytes }),
      );
      setState({ kind: 'done' });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      setState({ kind: 'error', message });
      showError(`Chapter data is not available offline. ${message}`);
    }
  };

  const label =
    state.kind === 'done'
      ? `All chapter data available offline (${size})`
      : state.kind === 'working'
        ? `Downloading chapter data… ${formatMegabytes(state.doneBytes)} of ${size}`
        : state.kind === 'error'
          ? `Try again: make all chapter data available offline (${size})`
          : `Make all chapter data available offline (${size})`;

  return (
    <div className={`offline-data is-${state.kind}`}>
      <button
        type="button"
        className="button"
        data-testid="offline-data"
        data-state={state.kind}
        data-total-bytes={total}
        disabled={state.kind === 'working' || state.kind === 'done'}
        title="Downloads every chapter's dataset once, so that the chapters run without a network"
        onClick={() => void start()}
      >
        {state.kind === 'done' ? '✓ ' : ''}
        {label}
      </button>
      {state.kind === 'working' && (
        <progress
          className="offline-data-progress"
          data-testid="progress"
          data-value={state.doneBytes}
          data-max={total}
          value={state.doneBytes}
          max={total}
          aria-label="Chapter data downloaded"
        />
      )}
      {state.kind === 'error' && (
        <p className="offline-data-error" data-testid="offline-data-error" role="alert">
          {state.message}
        </p>
      )}
    </div>
  );
}
