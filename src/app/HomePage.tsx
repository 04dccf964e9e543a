/** The page when no notebook is open: start a new notebook, or open one of yours. */
import { useEffect, useState } from 'react';
import { createNotebook } from '../notebook/model';
import type { NotebookSummary } from '../notebook/repository';
import { PlusIcon } from '../notebook/ui/icons';
import { navigate } from './routing';
import { autosave, repository } from './services';

export function HomePage() {
  const [notebooks, setNotebooks] = useState<NotebookSummary[] | null>(null);

  useEffect(() => {
    let cancelled = false;
    // Anything the notebook just closed still had pending is saved before listing.
    void autosave
      .flush()
      .then(() => repository.list())
      .then((list) => {
        if (!cancelled) setNotebooks(list);
      });
    return () => {
      cancelled = true;
    };
  }, []);

  const createAndOpen = async () => {
    const notebook = createNotebook();
    await repository.save(notebook);
    navigate({ page: 'notebook', notebookId: notebook.id });
  };

  return (
    <main className="home">
      <section className="home-hero">
        <h1 className="home-title">gpubook</h1>
        <p className="home-tagline">
          Notebooks that train neural networks in your browser, on your GPU through WebGPU.
        </p>
        <button
          type="button"
          className="button button-primary"
          data-testid="new-notebook"
          onClick={() => void createAndOpen()}
        >
          <PlusIcon /> New notebook
        </button>
      </section>
      <section className="home-list" aria-labelledby="home-list-title">
        <h2 id="home-list-title">Your notebooks</h2>
        {notebooks === null ? (
          <p className="muted">Loading…</p>
        ) : notebooks.length === 0 ? (
          <p className="muted">No notebooks yet. Start one with “New notebook”.</p>
        ) : (
          <ul className="notebook-list">
            {notebooks.map((nb) => (
              <li key={nb.id}>
                <button
                  type="button"
                  className="notebook-list-item"
                  data-testid="notebook-list-item"
                  data-notebook-id={nb.id}
                  onClick={() => navigate({ page: 'notebook', notebookId: nb.id })}
                >
                  <span className="notebook-list-title">{nb.title}</span>
                  <span className="notebook-list-meta">
                    {nb.cellCount} {nb.cellCount === 1 ? 'cell' : 'cells'} · edited{' '}
                    {formatWhen(nb.updatedAt)}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}

/** "just now", "5 min ago", "3 h ago", or the date. */
export function formatWhen(time: number, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - time) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return new Date(time).toLocaleDateString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });
}
