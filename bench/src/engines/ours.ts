/**
 * Our engine doing the benchmark's work, on its WebGPU or CPU backend. Each repetition ends by
 * reading the result back, exactly as the TF.js side does, so both pay the same readback.
 */
import type { Backend, View } from '../../../src/engine/backend';
import { CpuBackend } from '../../../src/engine/backends/cpu';
import { createWebGPUBackend } from '../../../src/engine/backends/webgpu';
import type { CaseSetup } from '../timing';

function contiguous(backend: Backend, shape: number[], fill?: () => number): View {
  const size = shape.reduce((a, b) => a * b, 1);
  const buffer = backend.allocate(size * 4);
  if (fill) backend.write(buffer, Float32Array.from({ length: size }, fill));
  const strides = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  return { buffer, dtype: 'float32', shape, strides, offset: 0 };
}

export async function oursCases(kind: 'webgpu' | 'cpu'): Promise<Record<string, CaseSetup>> {
  let backend: Backend;
  if (kind === 'webgpu') {
    const adapter = await navigator.gpu.requestAdapter();
    if (!adapter) throw new Error('no WebGPU adapter');
    backend = await createWebGPUBackend(adapter);
  } else {
    backend = new CpuBackend();
  }
  return {
    matmul: async ({ m, k, n }) => {
      const a = contiguous(backend, [1, m, k], Math.random);
      const b = contiguous(backend, [1, k, n], Math.random);
      const c = contiguous(backend, [1, m, n]);
      return {
        run: async () => {
          backend.matmul(a, b, c);
          await backend.read(c.buffer, 'float32', 0, m * n);
        },
        cleanup: () => [a, b, c].forEach((v) => backend.release(v.buffer)),
      };
    },
  };
}
