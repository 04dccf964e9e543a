/**
 * An open local notebook: loads it (and whether it is trusted) into the store, starts its kernel,
 * shows toolbar and cells, and the persistence pieces around them: file and share actions, the
 * trust dialog and the "changed in another tab" notice; `#present` shows classroom mode instead.
 */
import { useEffect, useState } from 'react';
import { NotebookView } from '../notebook/cells/NotebookView';
import { ConflictNotice } from './ConflictNotice';
import { NotebookFileActions } from './NotebookFileActions';
import { clearConflict, showError } from './notices';
import { PresentationView } from './presentation/PresentationView';
import { PresentToggle } from './presentation/PresentToggle';
import { usePresentMode } from './presentation/presentMode';
import { navigate } from './routing';
import { appStore, autosave, repository } from './services';
import { Toolbar } from './Toolbar';
import { TrustDialog } from './TrustDialog';

export function NotebookPage({ notebookId }: { notebookId: string }) {
  const [ready, setReady] = useState(false);
  const presenting = usePresentMode();

  useEffect(() => {
    // App keys this page by notebook id, so each id starts from "not ready".
    let cancelled = false;
    void Promise.all([repository.get(notebookId), repository.isTrusted(notebookId)]).then(
      ([notebook, trusted]) => {
        if (cancelled) return;
        if (!notebook) {
          showError('That notebook is not saved in this browser (it may have been deleted).');
          navigate({ page: 'home' }, { replace: true });
          return;
        }
        const state = appStore.getState();
        state.openNotebook(notebook, { trusted });
        state.startKernel();
        setReady(true);
      },
    );
    return () => {
      cancelled = true;
      const state = appStore.getState();
      state.stopKernel();
      state.closeNotebook();
      clearConflict();
      void autosave.flush();
    };
  }, [notebookId]);

  if (!ready) return <p className="page-loading muted">Opening notebook…</p>;
  return (
    <div className="notebook-page">
      <Toolbar>
        <PresentToggle />
        <NotebookFileActions />
      </Toolbar>
      <ConflictNotice />
      <TrustDialog />
      {presenting ? <PresentationView /> : <NotebookView />}
    </div>
  );
}
