/**
 * Shown when another tab saved (or deleted) the notebook open here: this tab stops short of
 * overwriting it and offers "reload theirs" or "keep mine (save as a copy)" — either way nothing
 * anyone typed is lost.
 */
import { useState } from 'react';
import { saveAsCopy } from '../notebook/library';
import { clearConflict, showError, useNotices } from './notices';
import { navigate } from './routing';
import { appStore, autosave, repository } from './services';
import './persistence.css';

async function reloadTheirs(notebookId: string): Promise<void> {
  autosave.discard();
  const [theirs, trusted] = await Promise.all([
    repository.get(notebookId),
    repository.isTrusted(notebookId),
  ]);
  clearConflict();
  if (!theirs) {
    navigate({ page: 'home' });
    return;
  }
  // The kernel keeps running: its variables stay, as after reopening a file in Jupyter.
  appStore.getState().openNotebook(theirs, { trusted });
}

async function keepMine(): Promise<void> {
  const state = appStore.getState();
  const mine = state.notebook;
  if (!mine) return;
  autosave.discard();
  const copy = await saveAsCopy(repository, mine, state.trusted);
  clearConflict();
  navigate({ page: 'notebook', notebookId: copy.id });
}

export function ConflictNotice() {
  const conflict = useNotices((s) => s.conflict);
  const [busy, setBusy] = useState(false);
  if (!conflict) return null;

  const act = (action: () => Promise<void>) => {
    setBusy(true);
    action()
      .catch(showError)
      .finally(() => setBusy(false));
  };

  return (
    <div className="conflict-notice" role="alert" data-testid="conflict-notice">
      <p>
        <strong>
          {conflict.reason === 'deleted'
            ? 'This notebook was deleted in another tab.'
            : 'This notebook was changed in another tab.'}
        </strong>{' '}
        Your changes here are not saved over it. Choose which version to keep:
      </p>
      <div className="conflict-actions">
        <button
          type="button"
          className="button"
          data-testid="conflict-reload"
          disabled={busy}
          onClick={() => act(() => reloadTheirs(conflict.notebookId))}
        >
          {conflict.reason === 'changed' ? 'Reload theirs' : 'Close it'}
        </button>
        <button
          type="button"
          className="button button-primary"
          data-testid="conflict-keep-mine"
          disabled={busy}
          onClick={() => act(keepMine)}
        >
          Keep mine (save as a copy)
        </button>
      </div>
    </div>
  );
}
