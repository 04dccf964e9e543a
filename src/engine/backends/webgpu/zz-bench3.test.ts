import { it } from 'vitest';
import { nodeGpuBackend } from '../../testing/node-gpu';
import type { WebGPUBackend } from './index';
import { randomFloats, rng, Workspace } from './test-support';

it('bench3', async () => {
  const gpu = (await nodeGpuBackend()) as WebGPUBackend;
  const ws = new Workspace(gpu);
  const n = 1 << 20;
  const a = ws.view(randomFloats(n, rng(1)), [n]);
  const b = ws.view(randomFloats(n, rng(2)), [n]);
  const y = ws.output('float32', [n]);
  const t = ws.view(randomFloats(n, rng(1)), [1024, 1024], [1, 1024]);
  const y2 = ws.output('float32', [1024, 1024]);
  const cases: [string, () => void][] = [
    ['add 1M contiguous', () => gpu.binary('add', a.view, b.view, y)],
    ['exp 1M contiguous', () => gpu.unary('exp', a.view, y)],
    ['fill 1M', () => gpu.fill(y, 1)],
    ['copy 1M transposed', () => gpu.unary('copy', t.view, y2)],
    ['random 1M uniform', () => gpu.random(y, { kind: 'uniform', seed: 1, counter: 0, a: 0, b: 1 })],
  ];
  for (const [label, run] of cases) {
    run();
    await gpu.synchronize();
    const t0 = performance.now();
    for (let r = 0; r < 5; r++) run();
    await gpu.synchronize();
    const ms = (performance.now() - t0) / 5;
    console.log(`${label}: ${ms.toFixed(2)} ms, ${(n / ms / 1e3).toFixed(1)} M elements/s`);
  }
}, 600_000);
