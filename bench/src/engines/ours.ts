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
  memorySpilled,
  spillTraffic,
  synchronize,
} from '../../../src/engine/devices/stats';
import { describeAdapter } from '../../../src/engine/devices/webgpu-factory';
import { createWebGPUBackend, type WebGPUBackend } from '../../../src/engine/backends/webgpu';
import { wasmGemm } from '../../../src/engine/backends/cpu/wasm-gemm';
import * as nn from '../../../src/engine/nn';
import { Adam } from '../../../src/engine/optim';
import * as ops from '../../../src/engine/ops';
import type { Tensor } from '../../../src/engine/tensor';
import type { CaseSetup } from '../timing';

type Net = nn.Module & ((x: Tensor) => Tensor);

let webgpuBackend: WebGPUBackend | null = null;

/** The autotuner's choices so far (shape class → variant), for the report. */
export function tuningEntries(): [string, string][] {
  return webgpuBackend ? webgpuBackend.context.tuner.entries() : [];
}
type Loss = nn.Module & ((x: Tensor, y: Tensor) => Tensor);

/** The PyTorch chapter's MNIST CNN. */
function mnistCnn(): Net {
  return new nn.Sequential(
    new nn.Conv2d(1, 32, 3),
    new nn.MaxPool2d(2),
    new nn.Conv2d(32, 64, 5),
    new nn.MaxPool2d(2),
    new nn.Dropout2d(0.1),
    new nn.AdaptiveMaxPool2d(1),
    new nn.Flatten(),
    new nn.Linear(64, 32),
    new nn.ReLU(),
    new nn.Linear(32, 10),
  ) as unknown as Net;
}

/** The TF chapter's Conv1D text classifier (Embedding 30982x7, length 300, 46 topics). */
class TextNet extends nn.Module {
  embed = new nn.Embedding(30982, 7);
  body = new nn.Sequential(
    new nn.Conv1d(7, 64, 5),
    new nn.ReLU(),
    new nn.MaxPool1d(2),
    new nn.Conv1d(64, 32, 3),
    new nn.ReLU(),
    new nn.MaxPool1d(2),
    new nn.Flatten(),
    new nn.Linear(32 * 73, 46),
  ) as unknown as Net;

  override forward(tokens: Tensor): Tensor {
    const embedded = (this.embed as unknown as Net)(tokens); // [B, 300, 7]
    return this.body(ops.transpose(embedded, 1, 2)); // channels first for Conv1d
  }
}

/** The CNN training step at this batch size on `device`, with what its sweeps spill. */
function cnnStep(device: Device, batch: number, tuned: () => Promise<void>): ReturnType<CaseSetup> {
  const on = { device };
  const net = mnistCnn();
  net.to(device);
  const x = ops.randn([batch, 1, 28, 28], on).keep();
  const y = ops.cast(ops.mul(ops.rand([batch], on), 9.99), 'int32').keep();
  const step = trainer(net, new nn.CrossEntropyLoss() as unknown as Loss, x, y);
  const spills = spillNote(device);
  return Promise.resolve({
    run: async () => {
      await step();
      spills.count();
      await tuned();
    },
    note: spills,
  });
}

/** One training step: forward, loss, backward, Adam; resolves with the loss read back. */
function trainer(net: Net, loss: Loss, x: Tensor, y: Tensor, lr = 1e-3): () => Promise<number> {
  const optimizer = new Adam(net.parameters(), { lr });
  return async () => {
    optimizer.zeroGrad();
    const value = loss(net(x), y);
    value.backward();
    optimizer.step();
    return value.item();
  };
}

/**
 * What the lifetime rules moved (memory.ts, layer 4): bytes spilled to the host and restored per
 * step over the runs since the case was set up, warm-ups included.
 */
function spillNote(device: Device): (() => string) & { count(): void } {
  const start = spillTraffic(device);
  let steps = 0;
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  return Object.assign(
    () => {
      const now = spillTraffic(device);
      const per = (bytes: number) => kib(bytes / Math.max(1, steps));
      return (
        `spilled ${per(now.spilled - start.spilled)}/step, restored ` +
        `${per(now.restored - start.restored)}/step over ${steps} steps; on host now ` +
        `${kib(memorySpilled(device))}`
      );
    },
    { count: () => void steps++ },
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
      const a = ops.rand([m, k], on).keep();
      const b = ops.rand([k, n], on).keep();
      return {
        run: async () => {
          // Read back the product's last row: it waits for the whole product without timing a
          // transfer of m×n floats (TF.js's side does the same).
          const c = ops.matmul(a, b);
          const last = ops.select(c, 0, m - 1);
          await last.data();
          last.dispose();
          c.dispose();
          await tuned();
        },
        cleanup: () => [a, b].forEach((t) => t.dispose()),
        ...(kind === 'cpu' ? { note: threadNote } : {}),
      };
    },
    'cnn-step': async ({ batch }) => cnnStep(device, batch, tuned),
    'cnn-step-split': async ({ batch }) => {
      // The same step on the first of two logical GPUs (as tf.config's logical device
      // configuration makes them): the engine restarts on the adapter, split in two, so this
      // case runs last in its worker.
      await initEngine({ gpu: navigator.gpu, devices: null });
      configureDevices('virtual', () => ({
        visible: null,
        gpus: [{ memoryGrowth: false, logical: [{ memoryLimit: 2048 }, { memoryLimit: 2048 }] }],
      }));
      const split = gpuDevices()[0];
      return cnnStep(split, batch, async () => split.capability('tuning')?.tuned());
    },
    'text-step': async ({ batch }) => {
      const net = new TextNet() as unknown as Net;
      net.to(device);
      const tokens = ops.cast(ops.mul(ops.rand([batch, 300], on), 30981.99), 'int32').keep();
      const y = ops.cast(ops.mul(ops.rand([batch], on), 45.99), 'int32').keep();
      const step = trainer(net, new nn.CrossEntropyLoss() as unknown as Loss, tokens, y);
      return {
        run: async () => {
          await step();
          await tuned();
        },
      };
    },
    'linreg-step': async ({ points }) => {
      const net = new nn.Linear(2, 1) as unknown as Net;
      net.to(device);
      const x = ops.randn([points, 2], on).keep();
      const noise = ops.mul(ops.randn([points, 1], on), 0.1);
      const w = ops.fromData([[2], [-3.4]], on);
      const y = ops.add(ops.add(ops.matmul(x, w), 4.2), noise).keep();
      const step = trainer(net, new nn.MSELoss() as unknown as Loss, x, y, 0.03);
      const spills = spillNote(device);
      return {
        run: async () => {
          await step();
          spills.count();
          await tuned();
        },
        note: spills,
      };
    },
    'spill-1000': async ({ steps, points }) => {
      // The linear-regression step 1000 times: what the step sweeps move over a long loop.
      const net = new nn.Linear(2, 1) as unknown as Net;
      net.to(device);
      const x = ops.randn([points, 2], on).keep();
      const y = ops.add(ops.matmul(x, ops.fromData([[2], [-3.4]], on)), 4.2).keep();
      const step = trainer(net, new nn.MSELoss() as unknown as Loss, x, y, 0.03);
      const spills = spillNote(device);
      return {
        run: async () => {
          for (let i = 0; i < steps; i++) {
            await step();
            spills.count();
          }
        },
        note: spills,
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
          // optimizer state) are done: flat means the last 900 steps never exceed step 100's high.
          const samples: number[] = [];
          for (let i = 1; i <= steps; i++) {
            await step();
            if (i >= 100) samples.push(memoryAllocated(device));
          }
          await synchronize(device);
          const first = samples.slice(0, 100);
          const later = samples.slice(100);
          const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;
          const highFirst = Math.max(...first);
          const highLater = Math.max(...later);
          note =
            `memoryAllocated over steps 100-199: ${mb(Math.min(...first))}-${mb(highFirst)}; ` +
            `steps 200-${steps}: ${mb(Math.min(...later))}-${mb(highLater)}; ` +
            `after step ${steps}: ${mb(memoryAllocated(device))} ` +
            `(${highLater <= highFirst ? 'flat' : `grew ${mb(highLater - highFirst)}`})`;
        },
        note: () => note,
      };
    },
  };
}
