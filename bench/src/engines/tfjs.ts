/**
 * TensorFlow.js 4.22 on one of its backends, doing the same work as our engine with its layers
 * API (the same nets, Adam, a training step by `trainOnBatch`). Each repetition ends by reading a
 * result back (the product, or the step's loss), the only portable way to wait for TF.js's device.
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-webgpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import type { CaseSetup } from '../timing';
import { tfjsLstmStep, tfjsTransformerStep } from './tfjs-sequence';

function mnistCnn(): tf.Sequential {
  return tf.sequential({
    layers: [
      tf.layers.conv2d({ inputShape: [28, 28, 1], filters: 32, kernelSize: 3 }),
      tf.layers.maxPooling2d({ poolSize: 2 }),
      tf.layers.conv2d({ filters: 64, kernelSize: 5 }),
      tf.layers.maxPooling2d({ poolSize: 2 }),
      // Dropout2d: whole channels dropped (noise shared over height and width).
      tf.layers.dropout({ rate: 0.1, noiseShape: [null, 1, 1, 64] as unknown as number[] }),
      tf.layers.globalMaxPooling2d({}),
      tf.layers.dense({ units: 32, activation: 'relu' }),
      tf.layers.dense({ units: 10 }),
    ],
  });
}

function textNet(): tf.Sequential {
  return tf.sequential({
    layers: [
      tf.layers.embedding({ inputDim: 30982, outputDim: 7, inputLength: 300 }),
      tf.layers.conv1d({ filters: 64, kernelSize: 5, activation: 'relu' }),
      tf.layers.maxPooling1d({ poolSize: 2 }),
      tf.layers.conv1d({ filters: 32, kernelSize: 3, activation: 'relu' }),
      tf.layers.maxPooling1d({ poolSize: 2 }),
      tf.layers.flatten(),
      tf.layers.dense({ units: 46, activation: 'softmax' }),
    ],
  });
}

/** A repetition that trains one batch and waits for its loss. */
function stepOf(model: tf.LayersModel, x: tf.Tensor, y: tf.Tensor) {
  return {
    run: async () => {
      await model.trainOnBatch(x, y);
    },
    cleanup: () => {
      tf.dispose([x, y]);
      model.dispose();
    },
  };
}

export async function tfjsCases(
  backend: 'webgpu' | 'wasm' | 'cpu',
): Promise<Record<string, CaseSetup>> {
  // The .wasm files are copied to the page's root folder (scripts/bench.mjs); the worker script
  // itself lives in assets/, so resolve from the origin rather than from the worker's URL.
  if (backend === 'wasm') {
    setWasmPaths(new URL('/tfjs-wasm/', self.location.origin).href);
    // Its threaded build cannot start inside a bundled module worker: the blob worker it spawns
    // throws "ReferenceError: e is not defined" and the backend never becomes ready. So TF.js
    // wasm runs its SIMD build on one thread here (noted in RESULTS.md).
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  }
  const ok = await tf.setBackend(backend);
  if (!ok) throw new Error(`TF.js backend ${backend} did not start`);
  await tf.ready();
  const cases: Record<string, CaseSetup> = {
    matmul: async ({ m, k, n }) => {
      const a = tf.randomUniform([m, k]);
      const b = tf.randomUniform([k, n]);
      return {
        run: async () => {
          // The product's last row only: waits for the whole product, as our side does.
          const c = tf.matMul(a, b);
          const last = tf.slice(c, [m - 1, 0], [1, n]);
          await last.data();
          tf.dispose([c, last]);
        },
        cleanup: () => tf.dispose([a, b]),
        ...(backend === 'wasm'
          ? {
              note: 'TF.js wasm: SIMD build, one thread (its threaded build fails in a bundled worker)',
            }
          : {}),
      };
    },
    'cnn-step': async ({ batch }) => {
      const model = mnistCnn();
      model.compile({
        optimizer: tf.train.adam(1e-3),
        loss: (yTrue: tf.Tensor, yPred: tf.Tensor) => tf.losses.softmaxCrossEntropy(yTrue, yPred),
      });
      const x = tf.randomNormal([batch, 28, 28, 1]);
      const labels = tf.floor(tf.randomUniform([batch], 0, 10)).toInt();
      const y = tf.oneHot(labels, 10).toFloat();
      labels.dispose();
      return stepOf(model, x, y);
    },
    'text-step': async ({ batch }) => {
      const model = textNet();
      model.compile({ optimizer: tf.train.adam(1e-3), loss: 'sparseCategoricalCrossentropy' });
      const x = tf.floor(tf.randomUniform([batch, 300], 0, 30982));
      const y = tf.floor(tf.randomUniform([batch, 1], 0, 46));
      return stepOf(model, x, y);
    },
    'linreg-step': async ({ points }) => {
      const model = tf.sequential({ layers: [tf.layers.dense({ units: 1, inputShape: [2] })] });
      model.compile({ optimizer: tf.train.adam(0.03), loss: 'meanSquaredError' });
      const x = tf.randomNormal([points, 2]);
      const y = tf.tidy(() =>
        x
          .matMul(tf.tensor2d([[2], [-3.4]]))
          .add(4.2)
          .add(tf.randomNormal([points, 1], 0, 0.1)),
      );
      return stepOf(model, x, y);
    },
    // Issue 36's sequence steps (./tfjs-sequence.ts).
    'lstm-step': async ({ batch }) => tfjsLstmStep(batch),
    'transformer-step': async ({ batch }) => tfjsTransformerStep(batch),
  };
  // TF.js's wasm backend has no gradient kernels for convolutions and pooling.
  if (backend === 'wasm') {
    const noConv: CaseSetup = async () => {
      throw new Error('TF.js wasm has no conv/pool backward kernels');
    };
    cases['cnn-step'] = noConv;
  }
  return cases;
}
