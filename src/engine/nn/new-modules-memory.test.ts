/**
 * Training loops over the newer layers written the way docs/memory.md says TypeScript may write
 * them (no tidy, no dispose): grouped Conv2d → BatchNorm2d → GELU → AdaptiveAvgPool2d → Linear,
 * Embedding → LSTM → Linear with label-smoothed cross entropy, and a TransformerEncoder, each with
 * AdamW and clipGradNorm_. Device memory after step 20 is no more than after step 5, and what the
 * program still holds (parameters, optimizer state, running statistics) is intact afterwards.
 */
import { describe, expect, it } from 'vitest';
import type { Device } from '../devices/device';
import { memoryAllocated, synchronize } from '../devices/stats';
import * as ops from '../ops';
import { manualSeed } from '../random';
import type { Tensor } from '../tensor';
import { testDevices } from '../testing/devices';
import { AdamW } from '../optim';
import {
  activationModules,
  AdaptiveAvgPool2d,
  BatchNorm2d,
  clipGradNorm_,
  Conv2d,
  CrossEntropyLoss,
  Embedding,
  Flatten,
  Linear,
  LSTM,
  type Module,
  Sequential,
  TransformerEncoder,
  TransformerEncoderLayer,
} from './index';

const devices = await testDevices();
const { GELU } = activationModules;

interface Run {
  modules: Module[];
  forward: () => Tensor;
  labels: Tensor;
  loss: CrossEntropyLoss;
}

function labels(values: number[], device: Device): Tensor {
  return ops.fromHost(new Int32Array(values), [values.length], { device });
}

function runs(device: Device): Run[] {
  const o = { device };
  const cnn = new Sequential(
    new Conv2d({ inChannels: 4, outChannels: 6, kernelSize: 3, padding: 1, groups: 2 }),
    new BatchNorm2d(6),
    new GELU(),
    new AdaptiveAvgPool2d(1),
    new Flatten(),
    new Linear(6, 3),
  ).to(device);
  const image = ops.randn([4, 4, 5, 5], o);

  const emb = new Embedding(7, 5).to(device);
  const lstm = new LSTM({ inputSize: 5, hiddenSize: 6, batchFirst: true }).to(device);
  const fc = new Linear(6, 7).to(device);
  const tokens = labels([0, 3, 6, 2, 1, 5, 4, 4, 2, 0, 1, 6], device).reshape([2, 6]);

  const encoder = new TransformerEncoder(
    new TransformerEncoderLayer({ dModel: 8, nhead: 2, dimFeedforward: 16, batchFirst: true }),
    1,
  ).to(device);
  const head = new Linear(8, 2).to(device);
  const seq = ops.randn([3, 4, 8], o);

  return [
    {
      modules: [cnn],
      forward: () => cnn.forward(image) as Tensor,
      labels: labels([0, 1, 2, 1], device),
      loss: new CrossEntropyLoss(),
    },
    {
      modules: [emb, lstm, fc],
      // A user's glue between layers: its locals go to the step sweeps (docs/memory.md, step 3).
      forward: () => {
        const [out] = lstm.forward(emb.forward(tokens) as Tensor);
        return (fc.forward(out) as Tensor).reshape([12, 7]);
      },
      labels: labels([3, 6, 2, 1, 5, 4, 4, 2, 0, 1, 6, 0], device),
      loss: new CrossEntropyLoss({ labelSmoothing: 0.1 }),
    },
    {
      modules: [encoder, head],
      forward: () => head.forward(ops.mean(encoder.forward(seq), 1)) as Tensor,
      labels: labels([0, 1, 1], device),
      loss: new CrossEntropyLoss(),
    },
  ];
}

describe.each(devices)('new layers train with flat memory on $name', (device) => {
  it('memory after step 20 is no more than after step 5; state intact', async () => {
    manualSeed(3);
    const all = runs(device);
    const trained = all.map((run) => {
      const params = run.modules.flatMap((m) => [...m.parameters()]);
      return { run, params, opt: new AdamW(params, { lr: 0.01, weightDecay: 0.01 }) };
    });
    const losses: number[][] = [];
    let at5 = 0;
    for (let step = 1; step <= 20; step++) {
      const row: number[] = [];
      for (const { run, params, opt } of trained) {
        opt.zeroGrad();
        const loss = run.loss.forward(run.forward(), run.labels) as Tensor;
        loss.backward();
        clipGradNorm_(params, 1.0);
        opt.step();
        row.push(await loss.item());
      }
      losses.push(row);
      if (step === 5) {
        await synchronize(device);
        at5 = memoryAllocated(device);
      }
    }
    await synchronize(device);
    // No more (less when the garbage collector took a dropped output before its sweep).
    expect(memoryAllocated(device)).toBeLessThanOrEqual(at5);
    for (let m = 0; m < 3; m++) expect(losses[19][m]).toBeLessThan(losses[0][m]);

    // Still usable: every model runs in eval mode; optimizer moments and BatchNorm statistics.
    for (const { run, opt } of trained) {
      for (const m of run.modules) m.eval();
      const out = await run.forward().data();
      expect(Array.from(out).every(Number.isFinite)).toBe(true);
      const state = opt.stateDict().state[0];
      expect(state.step).toBe(20);
      const avg = await state.tensors.expAvg.data();
      expect(Array.from(avg).some((v) => v !== 0)).toBe(true);
    }
    const bn = (all[0].modules[0] as Sequential).get(1) as BatchNorm2d;
    expect(await (bn.num_batches_tracked as Tensor).item()).toBe(20);
  }, 120_000);
});
