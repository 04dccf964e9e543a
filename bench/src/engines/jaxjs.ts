/**
 * jax-js 0.1.25 (@jax-js/jax) on its WebGPU device, doing the same work as our engine and TF.js:
 * the matrix products, and the CNN, linear-regression, LSTM and Transformer training steps, each
 * step one `jit` of value-and-grad and Adam (./jaxjs-adam.ts) over the nets of ./jaxjs-models.ts.
 * Each repetition ends by reading a result back (the product's last row, or the step's loss).
 */
import { defaultDevice, getWebGPUDevice, init, numpy as np } from '@jax-js/jax';
import type { CaseSetup } from '../timing';
import { adamTrainer, type Arr, type LossFn, type Params } from './jaxjs-adam';
import {
  cnn,
  gaussian,
  linreg,
  lstm,
  normal,
  oneHotLabels,
  seeded,
  transformer,
  uniform,
} from './jaxjs-models';
import { LSTM_STEP, TRANSFORMER_STEP } from './sequence';

/**
 * A training step as a case: `data` is kept for every step (`.ref` per step); `freshKey` steps
 * (those with dropout) also get a new PRNG key each.
 */
function stepCase(
  placement: string,
  model: { params: Params; loss: LossFn },
  data: Arr[],
  lr: number,
  options: { decay?: number; freshKey?: boolean } = {},
): ReturnType<CaseSetup> {
  const trainer = adamTrainer(model.params, model.loss, lr, options.decay ?? 0);
  let steps = 0;
  let first: number | null = null;
  let last: number | null = null;
  return Promise.resolve({
    run: async () => {
      // jax-js's key for seed s is uint32 [0, s]. Uploaded, not made by random.key: in 0.1.25 a
      // random.key(s) that a computation consumes leaves one device buffer behind (a probe
      // counted +1 live buffer a step), and memory must stay flat over the repetitions.
      const key = options.freshKey
        ? [np.array(new Uint32Array([0, steps]), { dtype: np.uint32 })]
        : [];
      last = await trainer.step([...data.map((a) => a.ref), ...key]);
      first ??= last;
      steps++;
    },
    cleanup: () => {
      trainer.dispose();
      data.forEach((a) => a.dispose());
    },
    note: () => `${placement}; loss ${first?.toFixed(4)} → ${last?.toFixed(4)} over ${steps} steps`,
  });
}

export async function jaxjsCases(): Promise<Record<string, CaseSetup>> {
  const available = await init('webgpu');
  if (!available.includes('webgpu')) throw new Error('jax-js: its WebGPU device did not start');
  defaultDevice('webgpu');
  // Where its arrays actually live, and on which adapter (the report's notes say it).
  const probe = np.zeros([1]);
  const info = getWebGPUDevice().adapterInfo as GPUAdapterInfo | undefined;
  const adapter = info ? `${info.vendor} ${info.architecture} ${info.description}`.trim() : '?';
  const placement = `arrays on jax-js's ${probe.device} device (adapter: ${adapter})`;
  probe.dispose();
  const rand = seeded(0);
  return {
    matmul: async ({ m, k, n }) => {
      const a = uniform([m, k], 1, rand);
      const b = uniform([k, n], 1, rand);
      return {
        run: async () => {
          // The product's last row only: waits for the whole product, as our side does.
          await np
            .matmul(a.ref, b.ref)
            .slice(m - 1)
            .data();
        },
        cleanup: () => [a, b].forEach((x) => x.dispose()),
        note: placement,
      };
    },
    'cnn-step': async ({ batch }) => {
      const x = normal([batch, 1, 28, 28], rand);
      return stepCase(placement, cnn(rand), [x, oneHotLabels(batch, 10, rand)], 1e-3, {
        freshKey: true,
      });
    },
    'linreg-step': async ({ points }) => {
      // y = 2·x₀ − 3.4·x₁ + 4.2 + 0.1·noise, as workloads.ts's linregStep.
      const xs = new Float32Array(2 * points).map(() => gaussian(rand));
      const ys = new Float32Array(points).map(
        (_, i) => 2 * xs[2 * i] - 3.4 * xs[2 * i + 1] + 4.2 + 0.1 * gaussian(rand),
      );
      const x = np.array(xs, { shape: [points, 2] });
      return stepCase(placement, linreg(rand), [x, np.array(ys, { shape: [points, 1] })], 0.03);
    },
    'lstm-step': async ({ batch }) => {
      const { features, length, classes } = LSTM_STEP;
      const x = normal([batch, length, features], rand);
      return stepCase(placement, lstm(rand), [x, oneHotLabels(batch, classes, rand)], 1e-3);
    },
    'transformer-step': async ({ batch }) => {
      const { dModel, length, classes } = TRANSFORMER_STEP;
      const x = normal([batch * length, dModel], rand);
      return stepCase(
        placement,
        transformer(rand, batch),
        [x, oneHotLabels(batch, classes, rand)],
        1e-3,
        {
          decay: 0.01,
          freshKey: true,
        },
      );
    },
  };
}
