import { it } from 'vitest';
import { nodeGpuBackend } from '../../testing/node-gpu';
import type { WebGPUBackend } from './index';
import { Workspace } from './test-support';
import { gpuOf } from './gpu-buffer';

it('dbg', async () => {
  const gpu = (await nodeGpuBackend()) as WebGPUBackend;
  const ctx = gpu.context;
  const ws = new Workspace(gpu);
  const out = ws.output('float32', [8]);
  const src = `@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;
@compute @workgroup_size(1) fn main() {
  let u1 = PF(0u); let u2 = PF(1u);
  OUT[0] = log(u1); OUT[1] = cos(6.283185307179586 * u2); OUT[2] = cos(6.283185307179586 * (u2 - 0.5));
  OUT[3] = sqrt(-2.0 * log(u1)); OUT[4] = log2(u1); OUT[5] = exp(u2 * 10.0); OUT[6] = sin(6.283185307179586 * u2);
}`;
  const k = ctx.kernel('dbg', 'x', 'w', src, () => ({}));
  ctx.queue.params().f32(0, 0.014956176280975342).f32(1, 0.438637375831604);
  ctx.run(k, [gpuOf(out)], [1, 1, 1]);
  const r = await ws.read(out);
  const u1 = Math.fround(0.014956176280975342), u2 = Math.fround(0.438637375831604);
  const ref = [Math.log(u1), Math.cos(2 * Math.PI * u2), -Math.cos(2 * Math.PI * u2), Math.sqrt(-2 * Math.log(u1)), Math.log2(u1), Math.exp(u2 * 10), Math.sin(2*Math.PI*u2)];
  for (let i = 0; i < 7; i++) console.log(i, r[i], ref[i], (r[i] - ref[i]) / Math.abs(ref[i]));
});
