/**
 * Our engine doing the benchmark's work through its own API (engine ops, nn modules, optimizers)
 * on the WebGPU or CPU device. Each repetition ends by reading a result back (the product, or the
 * step's loss), exactly as the TF.js side does, so both pay the same readback.
 */
import type { Device } from '../../../src/engine/devices/device';
import {
  addGpuDevice,
  configureDevices,
  cpu,
  gpuDevices,
  initEngine,
} from '../../../src/engine/devices/registry';
import {
  memoryAllocated,
  memoryParked,
  memorySpilled,
  spillTraffic,
  synchronize,
} from '../../../src/engine/devices/stats';
import { describeAdapter } from '../../../src/engine/devices/webgpu-factory';
import { createWebGPUBackend, type WebGPUBackend } from '../../../src/engine/backends/webgpu';
import { wasmGemm } from '../../../src/engine/backends/cpu/wasm-gemm';
import * as nn from '../../../src/engine/nn';
import * as ops from '../../../src/engine/ops';
import {
  cnnStep,
  linregStep,
  matmulCase,
  textStep,
  trainer,
  type Loss,
  type Net,
} from '../../../src/engine/benchmark/workloads';
import type { CaseSetup } from '../timing';
import { kerasTextStep } from './keras';
import { lstmStep, transformerStep } from './sequence';

let webgpuBackend: WebGPUBackend | null = null;

/** The autotuner's choices so far (shape class → variant), for the report. */
export function tuningEntries(): [string, string][] {
  return webgpuBackend ? webgpuBackend.context.tuner.entries() : [];
}

/** The CNN training step at this batch size on `device`, with what its sweeps spill. */
function cnnStepCase(
  device: Device,
  batch: number,
  tuned: () => Promise<void>,
): ReturnType<CaseSetup> {
  const step = cnnStep(device, batch);
  const note = stepNote(device);
  return Promise.resolve({
    run: async () => {
      await note.step(step);
      await tuned();
    },
    note,
  });
}

/** A step of ./sequence.ts as a case: timed until the tuner has chosen, with its step note. */
function sequenceCase(
  device: Device,
  step: () => Promise<unknown>,
  tuned: () => Promise<void>,
): ReturnType<CaseSetup> {
  const note = stepNote(device);
  return Promise.resolve({
    run: async () => {
      await note.step(step);
      await tuned();
    },
    note,
  });
}

/**
 * What a step leaves behind: bytes the lifetime rules (memory.ts, layer 4) spilled to the host and
 * restored per step over the runs since the case was set up, warm-ups included; and the kernels
 * the last step dispatched (issue 19's count: fused chains are one each).
 */
function stepNote(
  device: Device,
): (() => string) & { step(run: () => Promise<unknown>): Promise<void> } {
  const start = spillTraffic(device);
  const counter = device.capability('dispatchCount');
  let steps = 0;
  let lastDispatches: number | null = null;
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  return Object.assign(
    () => {
      const now = spillTraffic(device);
      const per = (bytes: number) => kib(bytes / Math.max(1, steps));
      const dispatched =
        lastDispatches === null ? '' : `; ${lastDispatches} dispatches in the last step`;
      return (
        `spilled ${per(now.spilled - start.spilled)}/step, restored ` +
        `${per(now.restored - start.restored)}/step over ${steps} steps; on host now ` +
        `${kib(memorySpilled(device))}${dispatched}`
      );
    },
    {
      step: async (run: () => Promise<unknown>) => {
        const before = counter?.dispatches() ?? null;
        await run();
        if (before !== null && counter) lastDispatches = counter.dispatches() - before;
        steps++;
      },
    },
  );
}

/** Opens our engine's device of this kind in this worker (WebGPU becomes cuda:0). */
export async function openDevice(
  kind: 'webgpu' | 'cpu',
): Promise<{ device: Device; backend: WebGPUBackend | null }> {
  if (kind === 'webgpu') {
    const adapter = await navigator.gpu.requestAdapter();
    if (!adapter) throw new Error('no WebGPU adapter');
    const backend = await createWebGPUBackend(adapter);
    // The bench reports the tuned steady state: each class tunes at its first warm-up.
    backend.setTuningPolicy('first-use');
    webgpuBackend = backend;
    return { device: addGpuDevice(backend, describeAdapter(backend.info)), backend };
  }
  // Let the GEMM's helper threads boot before timing (in the app they boot with the kernel).
  await wasmGemm()?.whenHelpersReady();
  return { device: cpu(), backend: null };
}

/**
 * What one small op costs end to end from a program (dispatch, bookkeeping, no waiting): y = x + 1
 * on a [16] tensor, `ops` times in a row, read back once at the end.
 */
export function opCrossingCase(device: Device): CaseSetup {
  return async ({ ops: count }) => {
    const x = ops.rand([16], { device }).keep();
    return {
      run: async () => {
        let y = x;
        for (let i = 0; i < count; i++) y = ops.add(y, 1);
        await y.data();
      },
    };
  };
}

export async function oursCases(kind: 'webgpu' | 'cpu'): Promise<Record<string, CaseSetup>> {
  const { device, backend } = await openDevice(kind);
  const gemm = kind === 'cpu' ? wasmGemm() : null;
  const threadNote = () =>
    gemm
      ? `WASM GEMM on ${gemm.readyHelpers() + 1} thread(s) (${gemm.helperChunks()} chunks run by helpers so far), ${gemm.shape.fma ? 'relaxed-SIMD FMA' : 'SIMD mul+add'}`
      : 'no WebAssembly SIMD: JS loops';
  const on = { device };
  // Warm-up repetitions start autotuning; timed ones wait for it to have chosen.
  const tuned = async () => backend?.tuned();
  return {
    'op-crossing': opCrossingCase(device),
    matmul: async ({ m, k, n }) => {
      // The product's last row is read back (TF.js's side does the same).
      const product = matmulCase(device, m, k, n);
      return {
        ...product,
        run: async () => {
          await product.run();
          await tuned();
        },
        ...(kind === 'cpu' ? { note: threadNote } : {}),
      };
    },
    'cnn-step': async ({ batch }) => cnnStepCase(device, batch, tuned),
    'cnn-step-split': async ({ batch }) => {
      // The same step on the first of two logical GPUs (as tf.config's logical device
      // configuration makes them): the engine restarts on the adapter, split in two, so this
      // case runs in a worker of its own (cases.ts).
      await initEngine({ gpu: navigator.gpu, devices: null });
      configureDevices('virtual', () => ({
        visible: null,
        gpus: [{ memoryGrowth: false, logical: [{ memoryLimit: 2048 }, { memoryLimit: 2048 }] }],
      }));
      const split = gpuDevices()[0];
      split.capability('tuning')?.setTuningPolicy('first-use');
      return cnnStepCase(split, batch, async () => split.capability('tuning')?.tuned());
    },
    'text-step': async ({ batch }) => {
      const step = textStep(device, batch);
      return {
        run: async () => {
          await step();
          await tuned();
        },
      };
    },
    'keras-text-step': async ({ batch }) => {
      // TS Keras places on gpu:0 (TensorFlow's placement), the device opened above.
      const step = kerasTextStep(batch);
      return {
        run: async () => {
          await step();
          await tuned();
        },
      };
    },
    // Issue 36's sequence models through the TS `torch` face, with what a step dispatches.
    'lstm-step': async ({ batch }) => sequenceCase(device, lstmStep(device.name, batch), tuned),
    'transformer-step': async ({ batch }) =>
      sequenceCase(device, transformerStep(device.name, batch), tuned),
    'linreg-step': async ({ points }) => {
      const step = linregStep(device, points);
      const note = stepNote(device);
      return {
        run: async () => {
          await note.step(step);
          await tuned();
        },
        note,
      };
    },
    'spill-1000': async ({ steps, points }) => {
      // The linear-regression step 1000 times: what the step sweeps move over a long loop.
      const net = new nn.Linear(2, 1) as unknown as Net;
      net.to(device);
      const x = ops.randn([points, 2], on).keep();
      const y = ops.add(ops.matmul(x, ops.fromData([[2], [-3.4]], on)), 4.2).keep();
      const step = trainer(net, new nn.MSELoss() as unknown as Loss, x, y, 0.03);
      const note = stepNote(device);
      return {
        run: async () => {
          for (let i = 0; i < steps; i++) await note.step(step);
        },
        note,
      };
    },
    'memory-1000': async ({ steps }) => {
      // An MLP on MNIST-sized inputs, no dispose anywhere: device memory must stay flat.
      const net = new nn.Sequential(
        new nn.Linear(784, 64),
        new nn.ReLU(),
        new nn.Linear(64, 10),
      ) as unknown as Net;
      net.to(device);
      const x = ops.randn([32, 784], on).keep();
      const y = ops.cast(ops.mul(ops.rand([32], on), 9.99), 'int32').keep();
      const step = trainer(net, new nn.CrossEntropyLoss() as unknown as Loss, x, y);
      let note = '';
      return {
        run: async () => {
          // Sampled after every step once the first steps' one-time allocations (tuning proxies,
          // optimizer state) are done: flat means the last 900 steps' held memory never exceeds
          // its high over steps 100-199. Parked bytes (dropped tensors waiting for the garbage
          // collector, spilled only when memory runs short) are reported beside it, over the same
          // first hundred steps and the last hundred: they come and go with the collector's
          // moments, so a single high is no verdict, but a leak would show as a climb.
          const held: number[] = [];
          const parked: number[] = [];
          for (let i = 1; i <= steps; i++) {
            await step();
            if (i >= 100) {
              held.push(memoryAllocated(device));
              parked.push(memoryParked(device));
            }
          }
          await synchronize(device);
          const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;
          const range = (xs: number[]) => `${mb(Math.min(...xs))}-${mb(Math.max(...xs))}`;
          const highFirst = Math.max(...held.slice(0, 100));
          const highLater = Math.max(...held.slice(100));
          note =
            `memoryAllocated over steps 100-199: ${range(held.slice(0, 100))}; ` +
            `steps 200-${steps}: ${range(held.slice(100))}; ` +
            `after step ${steps}: ${mb(memoryAllocated(device))}; ` +
            `parked over steps 100-199: ${range(parked.slice(0, 100))}, ` +
            `over the last 100: ${range(parked.slice(-100))} ` +
            `(${highLater <= highFirst ? 'flat' : `grew ${mb(highLater - highFirst)}`})`;
        },
        note: () => note,
      };
    },
  };
}
