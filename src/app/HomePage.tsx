/**
 * The page when no notebook is open: start a new notebook (TypeScript or Python), import a `.ipynb`, open a bundled
 * chapter, or open, rename, duplicate or delete one of yours.
 */
import { useRef } from 'react';
import type { CellLanguage } from '../kernel/protocol';
import { readNotebookFile } from '../notebook/files/notebook-files';
import { createNotebook } from '../notebook/model';
import { trustedOnArrival } from '../notebook/trust';
import { PlusIcon } from '../notebook/ui/icons';
import { BrowserCapabilities } from './BrowserCapabilities';
import { ChapterList } from './ChapterList';
import { NotebookList } from './NotebookList';
import { showError } from './notices';
import { navigate } from './routing';
import { repository } from './services';
import { SettingsButton } from './settings/SettingsButton';
import './persistence.css';

export function HomePage() {
  const fileInput = useRef<HTMLInputElement>(null);

  const createAndOpen = async (language: CellLanguage) => {
    const notebook = createNotebook({ language });
    await repository.add(notebook, { trusted: trustedOnArrival('new') });
    navigate({ page: 'notebook', notebookId: notebook.id });
  };

  const importFile = async (file: File) => {
    try {
      const notebook = await readNotebookFile(file);
      await repository.add(notebook, { trusted: trustedOnArrival('file') });
      navigate({ page: 'notebook', notebookId: notebook.id });
    } catch (error) {
      showError(error);
    }
  };

  return (
    <main className="home">
      <section className="home-hero">
        <h1 className="home-title">gpubook</h1>
        <p className="home-tagline">
          Notebooks that train neural networks in your browser, on your GPU through WebGPU.
        </p>
        <div className="home-actions">
          <button
            type="button"
            className="button button-primary"
            data-testid="new-notebook"
            onClick={() => void createAndOpen('typescript').catch(showError)}
          >
            <PlusIcon /> New notebook
          </button>
          <button
            type="button"
            className="button"
            data-testid="new-python-notebook"
            title="Python cells with PyTorch's names, on the same engine (loads Python on first run)"
            onClick={() => void createAndOpen('python').catch(showError)}
          >
            <PlusIcon /> New Python notebook
          </button>
          <button type="button" className="button" onClick={() => fileInput.current?.click()}>
            Open .ipynb file…
          </button>
          <input
            ref={fileInput}
            type="file"
            accept=".ipynb,application/x-ipynb+json,application/json"
            className="visually-hidden"
            data-testid="import-ipynb"
            aria-label="Open a .ipynb notebook file"
            tabIndex={-1}
            onChange={(event) => {
              const file = event.target.files?.[0];
              // Cleared so that choosing the same file again opens it again.
              event.target.value = '';
              if (file) void importFile(file);
            }}
          />
          <SettingsButton />
        </div>
        <BrowserCapabilities />
      </section>
      <ChapterList />
      <NotebookList />
    </main>
  );
}
