/**
 * `runHidden`: the app's own code (the DDP export) runs in the notebook's kernel, in its
 * language, after what is queued; its outputs come back to the caller and no cell changes.
 */
import { describe, expect, it } from 'vitest';
import { ScriptedKernel } from '../../kernel/testing/scripted-worker';
import { createCell, createNotebook } from '../model';
import { createAppStore } from './createAppStore';

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('runHidden', () => {
  it('runs after queued cells, in the notebook language, and returns only its outputs', async () => {
    const kernels: ScriptedKernel[] = [];
    const store = createAppStore({
      createKernel: () => {
        kernels.push(new ScriptedKernel());
        return kernels[kernels.length - 1].client;
      },
      now: () => 1000,
    });
    const cell = createCell('code', 'x = 1');
    store.getState().openNotebook(createNotebook({ cells: [cell], now: 500, language: 'python' }), {
      trusted: true,
    });
    store.getState().runCell(cell.id);
    const hidden = store.getState().runHidden('export()');
    const k = kernels[0];
    k.ready();
    k.startRunning();
    k.output([{ kind: 'stream', name: 'stdout', text: 'cell\n' }]);
    k.finish([]);
    await settle();
    expect(k.executed.map((e) => [e.code, e.language])).toEqual([
      ['x = 1', 'python'],
      ['export()', 'python'],
    ]);
    k.startRunning();
    k.output([{ kind: 'stream', name: 'stdout', text: 'hidden\n' }]);
    k.finish([]);
    const run = await hidden;
    expect(run.status).toBe('ok');
    expect(run.outputs).toEqual([{ kind: 'stream', name: 'stdout', text: 'hidden\n' }]);
    const cells = store.getState().notebook?.cells ?? [];
    expect(cells.map((c) => [c.status, c.outputs.length])).toEqual([['done', 1]]);
    store.getState().stopKernel();
  });
});
