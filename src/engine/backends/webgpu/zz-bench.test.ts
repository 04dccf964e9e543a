import { it } from 'vitest';
import { nodeGpuBackend } from '../../testing/node-gpu';
import type { WebGPUBackend } from './index';
import { randomFloats, rng, Workspace } from './test-support';
import type { MatmulVariant } from './variants';

it('bench', async () => {
  const gpu = (await nodeGpuBackend()) as WebGPUBackend;
  const ws = new Workspace(gpu);
  const s = Number(process.env.SIZE ?? 512);
  for (const [label, ta, tb] of [['NN', false, false], ['TN', true, false], ['NT', false, true]] as const) {
    const a = ws.view(randomFloats(s * s, rng(1)), [1, s, s], ta ? [0, 1, s] : [0, s, 1]);
    const b = ws.view(randomFloats(s * s, rng(2)), [1, s, s], tb ? [0, 1, s] : [0, s, 1]);
    const out = ws.output('float32', [1, s, s]);
    for (const variant of (process.env.VARIANTS ?? 'register,tiled').split(',') as MatmulVariant[]) {
      gpu.overrides.matmul = variant;
      gpu.matmul(a.view, b.view, out);
      await gpu.read(out.buffer, 'float32', 0, 1);
      const reps = Number(process.env.REPS ?? 5);
      const t0 = performance.now();
      for (let r = 0; r < reps; r++) gpu.matmul(a.view, b.view, out);
      await gpu.read(out.buffer, 'float32', 0, 1);
      const ms = (performance.now() - t0) / reps;
      console.log(`${label} ${variant} ${s}: ${ms.toFixed(1)} ms, ${((2 * s ** 3) / ms / 1e6).toFixed(2)} GFLOPS`);
    }
  }
  ws.releaseAll();
}, 600_000);
