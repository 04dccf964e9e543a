/**
 * The app's composition root: the notebook repository, the store with its kernel factory, and
 * autosave between them. Everything below receives these instead of creating its own.
 */
import { InMemoryNotebookRepository, type NotebookRepository } from '../notebook/repository';
import { startAutosave } from '../notebook/store/autosave';
import { createAppStore } from '../notebook/store/createAppStore';
import { createKernelClient } from './kernelFactory';
import { linkParams } from './routing';

export const repository: NotebookRepository = new InMemoryNotebookRepository();

export const appStore = createAppStore({
  createKernel: () => createKernelClient(linkParams(new URL(window.location.href))),
});

export const autosave = startAutosave(appStore, repository);

// Leaving the page: whatever is still pending gets saved.
window.addEventListener('pagehide', () => void autosave.flush());
