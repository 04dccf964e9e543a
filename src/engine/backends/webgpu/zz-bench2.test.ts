import { it } from 'vitest';
import { nodeGpuBackend } from '../../testing/node-gpu';
import type { WebGPUBackend } from './index';
import { randomFloats, rng, Workspace } from './test-support';
import type { RowMode } from './variants';

it('bench2', async () => {
  const gpu = (await nodeGpuBackend()) as WebGPUBackend;
  const ws = new Workspace(gpu);
  const x = ws.view(randomFloats(64, rng(1)), [64]);
  const y = ws.output('float32', [64]);
  for (let i = 0; i < 100; i++) gpu.binary('add', x.view, x.view, y);
  await gpu.synchronize();
  let t0 = performance.now();
  const n = 5000;
  for (let i = 0; i < n; i++) gpu.binary('add', x.view, x.view, y);
  const enqueue = (performance.now() - t0) / n;
  await gpu.synchronize();
  const total = (performance.now() - t0) / n;
  console.log(`tiny add: enqueue ${(enqueue * 1000).toFixed(1)} us/dispatch (CPU), ${(total * 1000).toFixed(1)} us/dispatch incl. GPU`);

  for (const [rows, cols] of [[1000, 1000], [100, 10000], [10000, 100], [1, 1000000], [60000, 10]]) {
    const big = ws.view(randomFloats(rows * cols, rng(2)), [rows, cols]);
    const out = ws.output('float32', [rows]);
    const sm = ws.output('float32', [rows, cols]);
    for (const mode of ['thread', 'workgroup'] as RowMode[]) {
      gpu.overrides.reduce = mode;
      gpu.reduce('sum', big.view, 1, out);
      await gpu.synchronize();
      t0 = performance.now();
      for (let r = 0; r < 3; r++) gpu.reduce('sum', big.view, 1, out);
      await gpu.synchronize();
      const reduceMs = (performance.now() - t0) / 3;
      gpu.overrides.softmax = mode;
      gpu.softmax(big.view, sm, false);
      await gpu.synchronize();
      t0 = performance.now();
      for (let r = 0; r < 3; r++) gpu.softmax(big.view, sm, false);
      await gpu.synchronize();
      const softmaxMs = (performance.now() - t0) / 3;
      console.log(`[${rows}, ${cols}] ${mode}: sum ${reduceMs.toFixed(1)} ms, softmax ${softmaxMs.toFixed(1)} ms`);
    }
    gpu.overrides.reduce = undefined;
    gpu.overrides.softmax = undefined;
    // Column sums (strided reduction) with the automatic plan.
    const colOut = ws.output('float32', [cols]);
    const transposed = { ...big.view, shape: [cols, rows], strides: [1, cols] };
    gpu.reduce('sum', transposed, 1, colOut);
    await gpu.synchronize();
    t0 = performance.now();
    for (let r = 0; r < 3; r++) gpu.reduce('sum', transposed, 1, colOut);
    await gpu.synchronize();
    console.log(`[${rows}, ${cols}] column sums auto: ${((performance.now() - t0) / 3).toFixed(1)} ms`);
    ws.releaseAll();
  }
}, 600_000);
