import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataLoader, TensorDataset } from '../data';
import { cpu } from '../devices/registry';
import { memoryAllocated } from '../devices/stats';
import { AccuracyCore } from '../metrics';
import { CrossEntropyLoss, Linear, MSELoss, ReLU, Sequential } from '../nn';
import { fromHost } from '../ops/creation';
import { Adam, SGD } from '../optim';
import { manualSeed } from '../random';
import { load, setTensorStore } from '../serialization';
import { Tensor } from '../tensor';
import { testDevices } from '../testing/devices';
import { rng } from '../testing/harness';
import { memoryStats } from '../memory';
import {
  evaluateLoop,
  fitLoop,
  kerasTextObserver,
  setTrainingOutput,
  torchkerasTextObserver,
  torchTask,
  type TrainingObserver,
} from '.';

const devices = await testDevices();

afterEach(() => {
  setTrainingOutput(null);
  setTensorStore(null);
  vi.restoreAllMocks();
});

/** Two Gaussian blobs in 2-D: label 1 when x0 + x1 > 0 (with a margin), `flip` swaps labels. */
function blobs(n: number, seed: number, flip = false): TensorDataset {
  const random = rng(seed);
  const x = new Float32Array(2 * n);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const label = i % 2;
    const centre = label ? 1 : -1;
    x[2 * i] = centre + 0.8 * (random() - 0.5);
    x[2 * i + 1] = centre + 0.8 * (random() - 0.5);
    y[i] = flip ? 1 - label : label;
  }
  return new TensorDataset(
    fromHost(x, [n, 2], { device: cpu() }),
    fromHost(y, [n], { device: cpu() }),
  );
}

/** A Linear(2, 2) classifier trained with cross-entropy and SGD at `lr`, as a torch task. */
function linearClassifier(lr: number) {
  const net = new Linear(2, 2);
  return {
    net,
    task: torchTask(net, new CrossEntropyLoss(), new SGD(net.parameters(), { lr }), null),
  };
}

describe('fitLoop', () => {
  it('writes one history row per epoch with train and val values, and learns', async () => {
    manualSeed(1);
    const { task } = linearClassifier(0.5);
    const lines: string[] = [];
    setTrainingOutput((t) => lines.push(t));
    const { history, stoppedEarly } = await fitLoop(task, {
      trainData: new DataLoader(blobs(64, 1), { batchSize: 16, shuffle: true }),
      valData: new DataLoader(blobs(32, 2), { batchSize: 16 }),
      epochs: 3,
      metrics: { acc: new AccuracyCore({ numClasses: 2 }) },
      monitor: 'val_acc',
      mode: 'max',
      observers: [torchkerasTextObserver()],
    });
    expect(stoppedEarly).toBe(false);
    expect(history.map((r) => Object.keys(r))).toEqual(
      new Array(3).fill(['epoch', 'train_loss', 'train_acc', 'lr', 'val_loss', 'val_acc']),
    );
    expect(history.map((r) => r.epoch)).toEqual([1, 2, 3]);
    expect(history[2].val_acc).toBe(1);
    expect(history[2].train_loss).toBeLessThan(history[0].train_loss);
    expect(history[0].lr).toBe(0.5);
    const text = lines.join('');
    expect(text).toContain('Epoch 1 / 3');
    expect(text).toMatch(/100%\|█+\| 4\/4 \[train_loss=[\d.]+, train_acc=[\d.]+\]/);
    expect(text).toContain('<<<<<< reach best val_acc : 1 >>>>>>');
  });

  it('ends after the epoch in which stopRequested answers true (Keras stop_training)', async () => {
    manualSeed(1);
    const { task } = linearClassifier(0.5);
    const ended: number[] = [];
    const { history, stoppedEarly } = await fitLoop(task, {
      trainData: new DataLoader(blobs(32, 1), { batchSize: 16 }),
      epochs: 5,
      observers: [{ onEpochEnd: ({ epoch }) => void ended.push(epoch) }],
      stopRequested: () => ended.length === 2,
    });
    expect(history.map((r) => r.epoch)).toEqual([1, 2]);
    expect(ended).toEqual([1, 2]);
    expect(stoppedEarly).toBe(true);
  });

  it('stops early when the monitored value stops improving and restores the best weights', async () => {
    manualSeed(2);
    const { net, task } = linearClassifier(1);
    // Training labels are the validation labels swapped: every epoch makes validation worse.
    const trainData = new DataLoader(blobs(64, 3, true), { batchSize: 16 });
    const valData = new DataLoader(blobs(64, 3), { batchSize: 64 });
    const events: string[] = [];
    const observer: TrainingObserver = {
      onBest: (e) => events.push(`best ${e.epoch}`),
      onEarlyStop: (e) => events.push(`stop ${e.epoch} (best ${e.bestEpoch})`),
      onTrainEnd: (e) => events.push(`end ${e.bestEpoch}`),
    };
    const { history, stoppedEarly, bestEpoch } = await fitLoop(task, {
      trainData,
      valData,
      epochs: 10,
      monitor: 'val_loss',
      mode: 'min',
      patience: 2,
      ckptPath: 'best.pt',
      observers: [observer],
    });
    expect(stoppedEarly).toBe(true);
    expect(history.length).toBe(3);
    expect(history[1].val_loss).toBeGreaterThan(history[0].val_loss);
    expect(history[2].val_loss).toBeGreaterThan(history[1].val_loss);
    expect(bestEpoch).toBe(1);
    expect(events).toEqual(['best 1', 'stop 3 (best 1)', 'end 1']);
    // The model holds epoch 1's weights again: its validation loss is epoch 1's.
    const again = await evaluateLoop(task, valData);
    expect(again.val_loss).toBeCloseTo(history[0].val_loss, 5);
    // …and the checkpoint file holds the same weights.
    const saved = (await load('best.pt')) as Record<string, Tensor>;
    expect(Array.from(await saved.weight.data())).toEqual(Array.from(await net.weight.data()));
  });

  it('writes Keras-style keys and lines for the tf side (no prefix on training values)', async () => {
    const { task } = linearClassifier(0.5);
    const lines: string[] = [];
    setTrainingOutput((t) => lines.push(t));
    const { history } = await fitLoop(task, {
      trainData: new DataLoader(blobs(32, 6), { batchSize: 8 }),
      valData: new DataLoader(blobs(16, 7), { batchSize: 8 }),
      epochs: 2,
      metrics: { accuracy: new AccuracyCore() },
      prefixes: { train: '', val: 'val_' },
      restoreBest: false,
      observers: [kerasTextObserver()],
    });
    expect(Object.keys(history[0])).toEqual([
      'epoch',
      'loss',
      'accuracy',
      'lr',
      'val_loss',
      'val_accuracy',
    ]);
    expect(lines[0]).toBe('Epoch 1/2\n');
    expect(lines[1]).toMatch(
      /^4\/4 \[=+\] - loss: \d\.\d{4} - accuracy: \d\.\d{4} - val_loss: \d\.\d{4} - val_accuracy: \d\.\d{4}\n$/,
    );
  });

  it('reads values back only once per logging interval', async () => {
    const { task } = linearClassifier(0.1);
    const reads = vi.spyOn(Tensor.prototype, 'data');
    const steps: boolean[] = [];
    await fitLoop(task, {
      trainData: new DataLoader(blobs(80, 4), { batchSize: 8 }),
      valData: new DataLoader(blobs(24, 5), { batchSize: 8 }),
      epochs: 2,
      metrics: { acc: new AccuracyCore({ numClasses: 2 }) },
      logInterval: 5,
      restoreBest: false,
      observers: [{ onStep: (e) => e.phase === 'train' && steps.push(e.fresh) }],
    });
    // Per epoch: train steps 5 and 10, and the last validation step: 3 reads.
    expect(reads).toHaveBeenCalledTimes(6);
    expect(steps.slice(0, 10)).toEqual([
      false,
      false,
      false,
      false,
      true,
      false,
      false,
      false,
      false,
      true,
    ]);
  });
});

describe.each(devices.map((d) => [d.name, d] as const))('memory on %s', (_, device) => {
  it('stays flat over 300 steps of an MLP trained with Adam and a DataLoader, with no dispose', async () => {
    manualSeed(9);
    const random = rng(9);
    const n = 128;
    const x = Float32Array.from({ length: n * 8 }, () => random() - 0.5);
    const y = Float32Array.from({ length: n }, (_v, i) => x[8 * i] - 2 * x[8 * i + 1]);
    const ds = new TensorDataset(fromHost(x, [n, 8], { device }), fromHost(y, [n, 1], { device }));
    const loader = new DataLoader(ds, { batchSize: 16, shuffle: true });
    const net = new Sequential(new Linear(8, 16), new ReLU(), new Linear(16, 1)).to(device);
    const optimizer = new Adam(net.parameters(), { lr: 0.01 });
    const lossFn = new MSELoss();
    const samples: number[] = [];
    const live: number[] = [];
    let step = 0;
    let lastLoss = 0;
    while (step < 300) {
      for await (const [features, labels] of loader) {
        optimizer.zeroGrad();
        const loss = lossFn(net(features), labels);
        loss.backward();
        optimizer.step();
        step++;
        if (step === 10 || step === 300) {
          samples.push(memoryAllocated(device));
          live.push(memoryStats().deviceTensors);
        }
        if (step === 300) {
          lastLoss = await loss.item();
          break;
        }
      }
    }
    expect(samples[1]).toBe(samples[0]);
    expect(live[1]).toBeLessThanOrEqual(live[0] + 2);
    expect(lastLoss).toBeLessThan(0.05);
  });
});
