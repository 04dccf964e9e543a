/**
 * Asks before code from a link or a file runs (`trust-dialog`). "Trust and run" (`trust-run`)
 * marks the user's copy trusted for good and carries on with the run that asked.
 */
import { useEffect, useRef } from 'react';
import { useAppStore } from '../notebook/store/context';
import type { TrustRequest } from '../notebook/trust';
import { repository } from './services';
import { AppDialog } from './AppDialog';
import './persistence.css';

const ACTION_LABEL: Record<TrustRequest['action'], string> = {
  'run-cell': 'Trust and run the cell',
  'run-all': 'Trust and run all',
  'run-above': 'Trust and run the cells above',
};

export function TrustDialog() {
  const request = useAppStore((s) => s.trustRequest);
  const notebookId = useAppStore((s) => s.notebook?.id ?? null);
  const codeCells = useAppStore((s) => s.notebook?.cells.filter((c) => c.type === 'code').length);
  const confirmTrust = useAppStore((s) => s.confirmTrust);
  const cancelTrust = useAppStore((s) => s.cancelTrust);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (request && !element.open) element.showModal();
    if (!request && element.open) element.close();
  }, [request]);

  const trust = () => {
    if (notebookId) {
      void repository.setTrusted(notebookId, true).catch((error: unknown) => {
        console.error('Could not record trust', error);
      });
    }
    confirmTrust();
  };

  return (
    <AppDialog name="trust" dialogRef={dialog} onCancel={cancelTrust}>
      {request && (
        <>
          <h2 id="trust-title">Run code from outside?</h2>
          <p>
            This notebook came from a link or a file, so its code was written by someone else. It
            has {codeCells} code {codeCells === 1 ? 'cell' : 'cells'}. Code runs in this browser
            with access to your notebooks here (it cannot send anything to other websites).
          </p>
          <p>Read it first, and run it only if you trust where it came from.</p>
          <div className="dialog-actions">
            {/* Focus starts on Cancel: a stray Enter must not run someone else's code. */}
            <button type="button" className="button" onClick={cancelTrust} autoFocus>
              Cancel
            </button>
            <button
              type="button"
              className="button button-primary"
              data-testid="trust-run"
              onClick={trust}
            >
              {ACTION_LABEL[request.action]}
            </button>
          </div>
        </>
      )}
    </AppDialog>
  );
}
