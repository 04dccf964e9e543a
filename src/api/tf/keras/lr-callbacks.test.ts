/**
 * ReduceLROnPlateau and LearningRateScheduler in fit (Keras's algorithm, messages and TF 2.15's `lr`
 * history key), and pyFloat: Python's float repr, as the callbacks' f-strings print rates.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cpu, manualSeed, ops, type Tensor } from '../../../engine';
import { setTrainingOutput } from '../../../engine/training';
import { rng } from '../../../engine/testing/harness';
import { Precision } from './confusion-metrics';
import { Dense } from './layers';
import { LearningRateScheduler, ReduceLROnPlateau } from './lr-callbacks';
import { pyFloat } from './py-float';
import { Sequential } from './models/sequential';
import { resetNames } from './naming';
import { SGD } from './optimizers';

describe('pyFloat (Python repr of a float)', () => {
  it('matches Python for the rates Keras prints', () => {
    expect(pyFloat(0.1)).toBe('0.1');
    expect(pyFloat(1)).toBe('1.0');
    expect(pyFloat(1e-5)).toBe('1e-05');
    expect(pyFloat(0.0001)).toBe('0.0001');
    expect(pyFloat(Math.fround(0.001) * 0.1)).toBe('0.00010000000474974513');
    expect(pyFloat(2.5e-7)).toBe('2.5e-07');
    expect(pyFloat(123.25)).toBe('123.25');
    expect(pyFloat(1e16)).toBe('1e+16');
    expect(pyFloat(-0.5)).toBe('-0.5');
  });
});

describe('ReduceLROnPlateau and LearningRateScheduler in fit', () => {
  let printed: string[] = [];
  beforeEach(() => {
    resetNames();
    manualSeed(5);
    printed = [];
    setTrainingOutput((text) => printed.push(text));
  });
  afterEach(() => setTrainingOutput(null));

  /** Targets that are noise: the loss soon stops improving (a plateau). */
  function noise(n: number): [Tensor, Tensor] {
    const random = rng(11);
    const xs = Array.from({ length: n }, () => [random() * 2 - 1, random() * 2 - 1]);
    const ys = Array.from({ length: n }, () => [random() < 0.5 ? 0 : 1]);
    return [ops.fromData(xs, { device: cpu() }), ops.fromData(ys, { device: cpu() })];
  }

  function model(lr: number): Sequential {
    const m = new Sequential([new Dense(1, { activation: 'sigmoid', inputShape: [2] })]);
    m.compile({
      optimizer: new SGD(lr),
      loss: 'binary_crossentropy',
      metrics: ['auc', new Precision()],
    });
    return m;
  }

  it('reduces the rate after `patience` epochs without improvement; history has lr, as TF 2.15', async () => {
    const [x, y] = noise(64);
    const m = model(0.1);
    // A min_delta no epoch can beat makes every epoch after the first a plateau epoch.
    const cb = new ReduceLROnPlateau({
      monitor: 'loss',
      factor: 0.5,
      patience: 2,
      minDelta: 10,
      verbose: 1,
    });
    const history = await m.fit(x, y, { epochs: 6, batchSize: 16, verbose: 0, callbacks: [cb] });
    expect(Object.keys(history.history)).toEqual(['loss', 'auc', 'precision', 'lr']);
    const f = Math.fround;
    expect(history.history.lr).toEqual([
      0.1,
      0.1,
      0.1,
      f(0.1) * 0.5,
      f(0.1) * 0.5,
      f(f(0.1) * 0.5) * 0.5,
    ]);
    expect(printed).toEqual([
      '\nEpoch 3: ReduceLROnPlateau reducing learning rate to 0.05000000074505806.\n',
      '\nEpoch 5: ReduceLROnPlateau reducing learning rate to 0.02500000037252903.\n',
    ]);
    expect(m.optimizer?.learningRate).toBeCloseTo(0.025, 8);
    for (const auc of history.history.auc) expect(auc).toBeGreaterThanOrEqual(0);
  });

  it('waits through cooldown and stops at min_lr', async () => {
    const [x, y] = noise(32);
    const m = model(0.1);
    const cb = new ReduceLROnPlateau({
      monitor: 'loss',
      factor: 0.1,
      patience: 1,
      minDelta: 10,
      cooldown: 1,
      minLr: 0.005,
    });
    const history = await m.fit(x, y, { epochs: 6, batchSize: 16, verbose: 0, callbacks: [cb] });
    const f = Math.fround;
    // e1 reduce → 0.01 (cooldown 1); e2 cooldown ends, wait 1 → reduce to max(0.001, 0.005).
    expect(history.history.lr).toEqual([0.1, 0.1, f(0.1) * 0.1, 0.005, 0.005, 0.005]);
    expect(printed).toEqual([]);
    expect(() => new ReduceLROnPlateau({ factor: 1 })).toThrow(
      'ReduceLROnPlateau does not support a factor >= 1.0. Got 1.0',
    );
  });

  it('LearningRateScheduler sets schedule(epoch, lr) at each epoch start', async () => {
    const [x, y] = noise(32);
    const m = model(0.1);
    const cb = new LearningRateScheduler(
      (epoch: number, lr: number) => (epoch < 1 ? lr : lr * 0.5),
      1,
    );
    const history = await m.fit(x, y, { epochs: 3, batchSize: 16, verbose: 0, callbacks: [cb] });
    const f = Math.fround;
    expect(history.history.lr).toEqual([f(0.1), f(0.1) * 0.5, f(f(0.1) * 0.5) * 0.5]);
    expect(printed[0]).toBe(
      '\nEpoch 1: LearningRateScheduler setting learning rate to 0.10000000149011612.\n',
    );
  });
});
