import { createWebGPUBackend } from '../src/engine/backends/webgpu';

async function run(): Promise<string> {
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) return 'no adapter';
  const gpu = await createWebGPUBackend(adapter);
  const m = 65, k = 33, n = 129;
  const a = new Float32Array(m * k).map((_, i) => Math.sin(i));
  const b = new Float32Array(k * n).map((_, i) => Math.cos(i));
  const ab = gpu.allocate(a.byteLength), bb = gpu.allocate(b.byteLength), cb = gpu.allocate(m * n * 4);
  gpu.write(ab, a);
  gpu.write(bb, b);
  gpu.matmul(
    { buffer: ab, dtype: 'float32', shape: [1, m, k], strides: [0, k, 1], offset: 0 },
    { buffer: bb, dtype: 'float32', shape: [1, k, n], strides: [0, n, 1], offset: 0 },
    { buffer: cb, dtype: 'float32', shape: [1, m, n], strides: [0, n, 1], offset: 0 },
  );
  const c = await gpu.read(cb, 'float32', 0, m * n);
  let worst = 0;
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let q = 0; q < k; q++) s += a[i * k + q] * b[q * n + j];
      worst = Math.max(worst, Math.abs(s - c[i * n + j]));
    }
  const r = gpu.allocate(1000 * 4);
  const view = { buffer: r, dtype: 'float32' as const, shape: [1000], strides: [1], offset: 0 };
  gpu.random(view, { kind: 'normal', seed: 1, counter: 0, a: 0, b: 1 });
  const sums = gpu.allocate(4);
  gpu.reduce('sum', view, 1, { buffer: sums, dtype: 'float32', shape: [], strides: [], offset: 0 });
  const total = (await gpu.read(sums, 'float32', 0, 1))[0];
  return `ok ${gpu.info.vendor}/${gpu.info.architecture} cpuEmulated=${gpu.profile.cpuEmulated} worst=${worst} sum=${total.toFixed(3)}`;
}
run().then(
  (text) => (document.getElementById('out')!.textContent = text),
  (error) => (document.getElementById('out')!.textContent = `error ${error}`),
);
