import { it } from 'vitest';
import { nodeGpuBackend } from '../../testing/node-gpu';
import type { WebGPUBackend } from './index';
import { randomFloats, rng, Workspace } from './test-support';
import { gpuOf } from './gpu-buffer';

it('bench4', async () => {
  const gpu = (await nodeGpuBackend()) as WebGPUBackend;
  const ctx = gpu.context;
  const ws = new Workspace(gpu);
  const x = ws.view(randomFloats(64, rng(1)), [64]);
  const y = ws.output('float32', [64]);
  gpu.binary('add', x.view, x.view, y);
  await gpu.synchronize();
  const kernel = ctx.pipelines.labels().find((l) => l.startsWith('elementwise[add'))!;
  const k = ctx.kernel('elementwise', kernel.slice('elementwise['.length, -1), 'wrr', '', () => ({}));
  const n = 5000;
  const time = async (label: string, fn: () => void) => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    const enqueue = ((performance.now() - t0) / n) * 1000;
    await gpu.synchronize();
    const total = ((performance.now() - t0) / n) * 1000;
    console.log(`${label}: ${enqueue.toFixed(1)} us enqueue, ${total.toFixed(1)} us total`);
  };
  await time('backend.binary', () => gpu.binary('add', x.view, x.view, y));
  await time('params+run', () => {
    ctx.queue.params().u32(0, 64);
    ctx.run(k, [gpuOf(y), gpuOf(x.view), gpuOf(x.view)], [1, 1, 1]);
  });
  const layout = k.layout;
  const uniform = gpu.device.createBuffer({ size: 256, usage: GPUBufferUsage.UNIFORM });
  await time('createBindGroup only', () => {
    gpu.device.createBindGroup({ layout, entries: [
      { binding: 0, resource: { buffer: uniform, size: 256 } },
      { binding: 1, resource: { buffer: gpuOf(y) } },
      { binding: 2, resource: { buffer: gpuOf(x.view) } },
      { binding: 3, resource: { buffer: gpuOf(x.view) } },
    ] });
  });
  const bg = gpu.device.createBindGroup({ layout, entries: [
      { binding: 0, resource: { buffer: uniform, size: 256 } },
      { binding: 1, resource: { buffer: gpuOf(y) } },
      { binding: 2, resource: { buffer: gpuOf(x.view) } },
      { binding: 3, resource: { buffer: gpuOf(x.view) } },
    ] });
  let enc = gpu.device.createCommandEncoder();
  let pass = enc.beginComputePass();
  let count = 0;
  await time('raw setPipeline/setBindGroup/dispatch', () => {
    pass.setPipeline(k.pipeline);
    pass.setBindGroup(0, bg, [0]);
    pass.dispatchWorkgroups(1);
    if (++count % 64 === 0) {
      pass.end();
      gpu.device.queue.submit([enc.finish()]);
      enc = gpu.device.createCommandEncoder();
      pass = enc.beginComputePass();
    }
  });
  pass.end();
  gpu.device.queue.submit([enc.finish()]);
}, 600_000);
