/**
 * The user's notebooks on the home page, most recently edited first (`notebook-list-item`): open,
 * rename, duplicate, delete. A deletion can be undone from the bar it leaves behind. The list
 * follows changes made in other tabs.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { duplicateNotebook, renameNotebook } from '../notebook/library';
import type { Notebook } from '../notebook/model';
import type { NotebookSummary } from '../notebook/repository';
import { showError } from './notices';
import { navigate } from './routing';
import { autosave, repository } from './services';

interface Deleted {
  notebook: Notebook;
  trusted: boolean;
}

export function NotebookList() {
  const [notebooks, setNotebooks] = useState<NotebookSummary[] | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleted, setDeleted] = useState<Deleted | null>(null);

  const refresh = useCallback(async () => {
    setNotebooks(await repository.list());
  }, []);

  useEffect(() => {
    let cancelled = false;
    // Anything the notebook just closed still had pending is saved before listing.
    void autosave
      .flush()
      .then(() => repository.list())
      .then((list) => {
        if (!cancelled) setNotebooks(list);
      });
    const unsubscribe = repository.onExternalChange(() => void refresh());
    return () => {
      cancelled = true;
      unsubscribe();
    };
  }, [refresh]);

  const run = (action: () => Promise<unknown>) => {
    void action()
      .catch(showError)
      .then(() => refresh());
  };

  const remove = (id: string) =>
    run(async () => {
      const [notebook, trusted] = await Promise.all([repository.get(id), repository.isTrusted(id)]);
      if (!notebook) return;
      await repository.delete(id);
      setDeleted({ notebook, trusted });
    });

  const undo = () => {
    const last = deleted;
    setDeleted(null);
    if (last) run(() => repository.add(last.notebook, { trusted: last.trusted }));
  };

  return (
    <section className="home-list" aria-labelledby="home-list-title">
      <h2 id="home-list-title">Your notebooks</h2>
      {deleted && (
        <div className="undo-bar" role="status" data-testid="undo-bar">
          <span>Deleted “{deleted.notebook.title}”.</span>
          <button type="button" className="link-button" data-testid="undo-delete" onClick={undo}>
            Undo
          </button>
          <button type="button" className="link-button" onClick={() => setDeleted(null)}>
            Dismiss
          </button>
        </div>
      )}
      {notebooks === null ? (
        <p className="muted">Loading…</p>
      ) : notebooks.length === 0 ? (
        <p className="muted">No notebooks yet. Start one with “New notebook”.</p>
      ) : (
        <ul className="notebook-list">
          {notebooks.map((nb) => (
            <li key={nb.id} className="notebook-row">
              {renaming === nb.id ? (
                <RenameField
                  title={nb.title}
                  onDone={(title) => {
                    setRenaming(null);
                    if (title !== null) run(() => renameNotebook(repository, nb.id, title));
                  }}
                />
              ) : (
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
                    {!nb.trusted && ' · not trusted yet'}
                  </span>
                </button>
              )}
              <div className="notebook-row-actions">
                <RowAction
                  verb="Rename"
                  title={nb.title}
                  testId="rename-notebook"
                  onClick={() => setRenaming(nb.id)}
                />
                <RowAction
                  verb="Duplicate"
                  title={nb.title}
                  testId="duplicate-notebook"
                  onClick={() => run(() => duplicateNotebook(repository, nb.id))}
                />
                <RowAction
                  verb="Delete"
                  title={nb.title}
                  testId="delete-notebook"
                  danger
                  onClick={() => remove(nb.id)}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Enter or leaving the field keeps the new title; Escape keeps the old one (null). */
function RenameField({ title, onDone }: { title: string; onDone(title: string | null): void }) {
  const [value, setValue] = useState(title);
  // A ref, not state: Enter and the blur of the field going away must not both finish it.
  const done = useRef(false);
  const finish = (result: string | null) => {
    if (done.current) return;
    done.current = true;
    onDone(result);
  };
  return (
    <input
      className="notebook-rename"
      data-testid="rename-input"
      aria-label="New title"
      value={value}
      autoFocus
      onFocus={(event) => event.target.select()}
      onChange={(event) => setValue(event.target.value)}
      onBlur={() => finish(value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') finish(value);
        if (event.key === 'Escape') finish(null);
      }}
    />
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

/** A notebook row's quiet button: `verb` on its face, "verb title" to a screen reader. */
function RowAction({
  verb,
  title,
  testId,
  danger = false,
  onClick,
}: {
  verb: string;
  title: string;
  testId: string;
  danger?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={danger ? 'button button-quiet button-danger' : 'button button-quiet'}
      data-testid={testId}
      aria-label={`${verb} ${title}`}
      onClick={onClick}
    >
      {verb}
    </button>
  );
}
