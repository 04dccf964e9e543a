/** Combines the notebook, kernel, ui and trust slices into one store (zustand's slices pattern). */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createKernelSlice, type KernelDeps } from './kernelSlice';
import { createNotebookSlice } from './notebookSlice';
import { createTrustSlice } from './trustSlice';
import type { AppState } from './types';
import { createUiSlice } from './uiSlice';

export interface AppStoreDeps extends KernelDeps {
  /** The clock for `updatedAt`; tests pass a fake one. */
  now?: () => number;
}

export type AppStore = StoreApi<AppState>;

export function createAppStore(deps: AppStoreDeps): AppStore {
  return createStore<AppState>()((...args) => ({
    ...createNotebookSlice(deps.now)(...args),
    ...createKernelSlice(deps)(...args),
    ...createUiSlice(...args),
    ...createTrustSlice(...args),
  }));
}
