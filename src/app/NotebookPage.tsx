/** An open local notebook: loads it into the store, starts its kernel, shows toolbar and cells. */
import { useEffect, useState } from 'react';
import { NotebookView } from '../notebook/cells/NotebookView';
import { navigate } from './routing';
import { appStore, autosave, repository } from './services';
import { Toolbar } from './Toolbar';

type Loading = 'loading' | 'ready' | 'missing';

export function NotebookPage({ notebookId }: { notebookId: string }) {
  const [loading, setLoading] = useState<Loading>('loading');

  useEffect(() => {
    // App keys this page by notebook id, so each id starts from 'loading'.
    let cancelled = false;
    void repository.get(notebookId).then((notebook) => {
      if (cancelled) return;
      if (!notebook) {
        setLoading('missing');
        return;
      }
      const state = appStore.getState();
      state.openNotebook(notebook);
      state.startKernel();
      setLoading('ready');
    });
    return () => {
      cancelled = true;
      const state = appStore.getState();
      state.stopKernel();
      state.closeNotebook();
      void autosave.flush();
    };
  }, [notebookId]);

  if (loading === 'missing') {
    return (
      <main className="home">
        <div className="error-banner" data-testid="error-banner" role="alert">
          This notebook is not in this browser (notebooks are kept in memory until the page is
          reloaded).{' '}
          <button type="button" className="link-button" onClick={() => navigate({ page: 'home' })}>
            Back to your notebooks
          </button>
        </div>
      </main>
    );
  }
  if (loading === 'loading') return <p className="page-loading muted">Opening notebook…</p>;
  return (
    <div className="notebook-page">
      <Toolbar />
      <NotebookView />
    </div>
  );
}
