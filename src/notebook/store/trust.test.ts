import { afterEach, describe, expect, it } from 'vitest';
import { createCell, createNotebook, type Notebook } from '../model';
import { trustedOnArrival } from '../trust';
import { createAppStore, type AppStore } from './createAppStore';
import { ScriptedKernel } from '../../kernel/testing/scripted-worker';

function setup(trusted?: boolean) {
  const kernels: ScriptedKernel[] = [];
  const store = createAppStore({
    createKernel: () => {
      const kernel = new ScriptedKernel();
      kernels.push(kernel);
      return kernel.client;
    },
  });
  const cells = [createCell('code', 'print("a")'), createCell('code', 'print("b")')];
  const notebook = createNotebook({ cells });
  store.getState().openNotebook(notebook, trusted === undefined ? undefined : { trusted });
  return { store, kernels, notebook };
}

let open: AppStore | null = null;
afterEach(() => {
  open?.getState().stopKernel();
  open = null;
});

const executed = (kernels: ScriptedKernel[]) =>
  kernels.flatMap((k) => k.executed.map((e) => e.code));
const counts = (store: AppStore) =>
  (store.getState().notebook as Notebook).cells.map((c) => c.executionCount);

describe('trust rules', () => {
  it('trusts what the user made and what we bundle, never what came from a link or file', () => {
    expect(trustedOnArrival('new')).toBe(true);
    expect(trustedOnArrival('bundled')).toBe(true);
    expect(trustedOnArrival('shared-link')).toBe(false);
    expect(trustedOnArrival('file')).toBe(false);
    expect(trustedOnArrival('copy', true)).toBe(true);
    expect(trustedOnArrival('copy', false)).toBe(false);
  });
});

describe('the trust gate', () => {
  it('opening without saying so is untrusted: runs wait for trust and reach no kernel', () => {
    const { store, kernels, notebook } = setup();
    open = store;
    const s = store.getState();
    expect(s.trusted).toBe(false);
    s.runAll();
    s.runCell(notebook.cells[1].id);
    expect(executed(kernels)).toEqual([]);
    expect(counts(store)).toEqual([null, null]);
    expect(store.getState().notebook?.cells.map((c) => c.status)).toEqual(['idle', 'idle']);
    // The latest action is the one that waits.
    expect(store.getState().trustRequest).toEqual({
      action: 'run-cell',
      cellId: notebook.cells[1].id,
    });
  });

  it('"trust and run" trusts for good and goes on with the action that asked', () => {
    const { store, kernels } = setup(false);
    open = store;
    store.getState().runAll();
    store.getState().confirmTrust();
    expect(store.getState().trusted).toBe(true);
    expect(store.getState().trustRequest).toBeNull();
    const kernel = kernels[0];
    kernel.ready();
    expect(kernel.executed.map((e) => e.code)).toEqual(['print("a")']);
    kernel.startRunning();
    expect(store.getState().notebook?.cells.map((c) => c.status)).toEqual(['running', 'queued']);
    // Once trusted, the next run does not ask again.
    store.getState().cancelTrust();
    store.getState().runCell(store.getState().notebook!.cells[0].id);
    expect(store.getState().trustRequest).toBeNull();
  });

  it('cancel runs nothing, and opening another notebook forgets a waiting run', () => {
    const { store, kernels, notebook } = setup(false);
    open = store;
    store.getState().runAllAbove(notebook.cells[1].id);
    expect(store.getState().trustRequest).toEqual({
      action: 'run-above',
      cellId: notebook.cells[1].id,
    });
    store.getState().cancelTrust();
    expect(store.getState().trustRequest).toBeNull();
    store.getState().confirmTrust(); // nothing waits any more
    expect(executed(kernels)).toEqual([]);

    store.getState().openNotebook(notebook, { trusted: false });
    store.getState().runAll();
    store.getState().openNotebook(createNotebook(), { trusted: false });
    expect(store.getState().trustRequest).toBeNull();
    store.getState().confirmTrust();
    expect(executed(kernels)).toEqual([]);
  });

  it('a trusted notebook runs at once', () => {
    const { store, kernels } = setup(true);
    open = store;
    store.getState().runAll();
    kernels[0].ready();
    expect(executed(kernels)).toEqual(['print("a")']);
    expect(store.getState().trustRequest).toBeNull();
  });
});
