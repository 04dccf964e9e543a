/**
 * TensorFlow.js 4.22 on one of its backends, doing the same work as our engine. Each repetition
 * ends by reading the result back, the only portable way to wait for TF.js's device.
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-webgpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import type { CaseSetup } from '../timing';

export async function tfjsCases(
  backend: 'webgpu' | 'wasm' | 'cpu',
): Promise<Record<string, CaseSetup>> {
  if (backend === 'wasm') setWasmPaths(new URL('./tfjs-wasm/', self.location.href).href);
  const ok = await tf.setBackend(backend);
  if (!ok) throw new Error(`TF.js backend ${backend} did not start`);
  await tf.ready();
  return {
    matmul: async ({ m, k, n }) => {
      const a = tf.randomUniform([m, k]);
      const b = tf.randomUniform([k, n]);
      return {
        run: async () => {
          const c = tf.matMul(a, b);
          await c.data();
          c.dispose();
        },
        cleanup: () => tf.dispose([a, b]),
      };
    },
  };
}
