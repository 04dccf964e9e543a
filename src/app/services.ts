/**
 * The app's composition root: the notebook repository (IndexedDB, or memory when the browser has
 * none), the store with its kernel factory, autosave between them, and the wiring that turns a
 * save conflict or another tab's change into the conflict notice. Everything below receives these
 * instead of creating its own.
 */
import type { NotebookRepository } from '../notebook/repository';
import { DeferredRepository } from '../notebook/storage/deferred-repository';
import { IndexedDbNotebookRepository } from '../notebook/storage/idb-repository';
import { InMemoryNotebookRepository } from '../notebook/storage/memory-repository';
import { ConflictError } from '../notebook/storage/records';
import { startAutosave } from '../notebook/store/autosave';
import { createAppStore, type AppStore } from '../notebook/store/createAppStore';
import { watchKernelDevices } from '../panels/devices/device-state';
import { deviceLostNotice } from '../panels/devices/lost-notice';
import { deviceSettingsOf } from '../panels/devices/notebook-settings';
import { createKernelClient } from './kernelFactory';
import { reportConflict, showError } from './notices';
import { linkParams } from './routing';

async function openRepository(): Promise<NotebookRepository> {
  try {
    return await IndexedDbNotebookRepository.open();
  } catch (error) {
    console.error('IndexedDB is not available', error);
    showError(
      'This browser does not let gpubook store data (IndexedDB is unavailable, e.g. in a private window): notebooks last only until the page is closed.',
    );
    return new InMemoryNotebookRepository();
  }
}

export const repository: NotebookRepository = new DeferredRepository(openRepository());

export const appStore: AppStore = createAppStore({
  createKernel: () => {
    // Each kernel starts with the notebook's device settings and reports to the device panel.
    const client = createKernelClient(linkParams(new URL(window.location.href)), () =>
      deviceSettingsOf(appStore.getState().notebook),
    );
    watchKernelDevices(client, (event) =>
      appStore.setState({ kernelNotice: deviceLostNotice(event, appStore.getState().notebook) }),
    );
    return client;
  },
});

export const autosave = startAutosave(appStore, repository, {
  onError: (error, notebook) => {
    if (error instanceof ConflictError) {
      reportConflict({ notebookId: notebook.id, reason: error.reason });
    } else {
      console.error('Saving the notebook failed', error);
      showError(`The notebook could not be saved: ${String(error)}`);
    }
  },
});

// Leaving or hiding the page: whatever is still pending gets saved.
window.addEventListener('pagehide', () => void autosave.flush());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') void autosave.flush();
});

// Another tab saved or deleted the notebook open here: say so before this tab's next save would.
repository.onExternalChange((change) => {
  if (appStore.getState().notebook?.id !== change.id) return;
  reportConflict({ notebookId: change.id, reason: change.deleted ? 'deleted' : 'changed' });
});
