import { describe, expect, it } from 'vitest';
import type { Device } from '../devices/device';
import { fromHost } from '../ops/creation';
import { manualSeed } from '../random';
import type { Tensor } from '../tensor';
import { testDevices } from '../testing/devices';
import { expectClose, randomRef, rng, tensorOf } from '../testing/harness';
import { conv2d, map, matmul, maxPool2d, ref, softmax, zip, type Ref } from '../testing/reference';
import {
  AdaptiveMaxPool2d,
  Conv1d,
  Conv2d,
  CrossEntropyLoss,
  Dropout,
  Dropout2d,
  Embedding,
  Flatten,
  Linear,
  MaxPool1d,
  MaxPool2d,
  MSELoss,
  ReLU,
  Softmax,
} from '.';

const devices = await testDevices();

async function refOf(t: Tensor): Promise<Ref> {
  return ref([...t.shape], await t.data());
}

const count = (m: { parameters(): Tensor[] }): number =>
  m.parameters().reduce((n, p) => n + p.numel(), 0);

function transpose2d(a: Ref): Ref {
  const [r, c] = a.shape;
  const out = new Float64Array(r * c);
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) out[j * r + i] = a.data[i * c + j];
  return ref([c, r], out);
}

describe.each(devices.map((d) => [d.name, d] as const))('nn layers on %s', (_, device: Device) => {
  const random = rng(7);
  const input = (shape: number[]): [Tensor, Ref] => {
    const r = randomRef(shape, random);
    return [tensorOf(r, device), r];
  };

  it('Linear(5, 3): shape, parameter count and x·Wᵀ + b', async () => {
    const layer = new Linear(5, 3, { device });
    expect(count(layer)).toBe(5 * 3 + 3);
    const [x, xr] = input([4, 5]);
    const y = layer(x);
    expect(y.shape).toEqual([4, 3]);
    const w = await refOf(layer.weight);
    const b = await refOf(layer.bias as Tensor);
    expectClose(
      await y.data(),
      zip(matmul(xr, transpose2d(w)), b, (u, v) => u + v).data,
      'Linear forward',
    );
    expect(new Linear({ inFeatures: 5, outFeatures: 3, bias: false }).bias).toBeNull();
  });

  it('Conv2d(2, 3, 3, stride 2, padding 1): shape, count and a direct-loop reference', async () => {
    const layer = new Conv2d(2, 3, 3, { stride: 2, padding: 1, device });
    expect(count(layer)).toBe(3 * 2 * 9 + 3);
    const [x, xr] = input([2, 2, 7, 6]);
    const y = layer(x);
    expect(y.shape).toEqual([2, 3, 4, 3]);
    const expected = conv2d(
      xr,
      await refOf(layer.weight),
      await refOf(layer.bias as Tensor),
      [2, 2],
      [1, 1],
      [1, 1],
    );
    expectClose(await y.data(), expected.data, 'Conv2d forward', 1e-4);
  });

  it('Conv1d(3, 4, 2, dilation 2): shape and a reference through a height of 1', async () => {
    const layer = new Conv1d({ inChannels: 3, outChannels: 4, kernelSize: 2, dilation: 2, device });
    expect(count(layer)).toBe(4 * 3 * 2 + 4);
    const [x, xr] = input([2, 3, 9]);
    const y = layer(x);
    expect(y.shape).toEqual([2, 4, 7]);
    const w = await refOf(layer.weight);
    const expected = conv2d(
      ref([2, 3, 1, 9], xr.data),
      ref([4, 3, 1, 2], w.data),
      await refOf(layer.bias as Tensor),
      [1, 1],
      [0, 0],
      [1, 2],
    );
    expectClose(await y.data(), expected.data, 'Conv1d forward', 1e-4);
  });

  it('MaxPool2d, MaxPool1d and AdaptiveMaxPool2d against window maxima', async () => {
    const [x, xr] = input([2, 3, 7, 5]);
    const pooled = new MaxPool2d(2)(x);
    expect(pooled.shape).toEqual([2, 3, 3, 2]);
    const win = (i: number): [number, number] => [2 * i, 2 * i + 2];
    expectClose(await pooled.data(), maxPool2d(xr, 3, 2, (_a, i) => win(i)).data, 'MaxPool2d');
    const strided = new MaxPool2d({ kernelSize: 3, stride: 2, padding: 1 })(x);
    expect(strided.shape).toEqual([2, 3, 4, 3]);
    expectClose(
      await strided.data(),
      maxPool2d(xr, 4, 3, (_a, i) => [2 * i - 1, 2 * i + 2]).data,
      'MaxPool2d strided',
    );
    const adaptive = new AdaptiveMaxPool2d([1, 1])(x);
    expect(adaptive.shape).toEqual([2, 3, 1, 1]);
    expectClose(
      await adaptive.data(),
      maxPool2d(xr, 1, 1, (a) => [0, a === 0 ? 7 : 5]).data,
      'AdaptiveMaxPool2d',
    );
    const [s, sr] = input([2, 3, 9]);
    const p1 = new MaxPool1d(3)(s);
    expect(p1.shape).toEqual([2, 3, 3]);
    const expected = maxPool2d(ref([2, 3, 1, 9], sr.data), 1, 3, (a, i) =>
      a === 0 ? [0, 1] : [3 * i, 3 * i + 3],
    );
    expectClose(await p1.data(), expected.data, 'MaxPool1d');
  });

  it('ReLU, Softmax and Flatten', async () => {
    const [x, xr] = input([2, 3, 4]);
    expectClose(await new ReLU()(x).data(), map(xr, (v) => Math.max(v, 0)).data, 'ReLU');
    expectClose(await new Softmax(2)(x).data(), softmax(xr, 2, false).data, 'Softmax', 1e-4);
    expect(new Flatten()(x).shape).toEqual([2, 12]);
    expect(new Flatten(0, 1)(x).shape).toEqual([6, 4]);
  });

  it('Dropout scales kept values by 1/(1-p) in training and is the identity in eval', async () => {
    const [x, xr] = input([64, 16]);
    const drop = new Dropout(0.25);
    const y = await drop(x).data();
    let zeros = 0;
    for (let i = 0; i < y.length; i++) {
      if (y[i] === 0) zeros++;
      else expect(y[i]).toBeCloseTo(xr.data[i] / 0.75, 5);
    }
    expect(zeros / y.length).toBeGreaterThan(0.15);
    expect(zeros / y.length).toBeLessThan(0.35);
    drop.eval();
    expectClose(await drop(x).data(), xr.data, 'Dropout in eval');
  });

  it('Dropout2d drops whole channels', async () => {
    const [x, xr] = input([8, 6, 3, 3]);
    const y = await new Dropout2d(0.5)(x).data();
    let dropped = 0;
    for (let c = 0; c < 48; c++) {
      const block = Array.from(y.subarray(c * 9, c * 9 + 9));
      const allZero = block.every((v) => v === 0);
      if (allZero) dropped++;
      else block.forEach((v, k) => expect(v).toBeCloseTo(xr.data[c * 9 + k] * 2, 5));
    }
    expect(dropped).toBeGreaterThan(8);
    expect(dropped).toBeLessThan(40);
  });

  it('Embedding picks rows (float indices from JS numbers work too); padding row starts at zero', async () => {
    const layer = new Embedding(10, 3, { paddingIdx: 0, device });
    expect(count(layer)).toBe(30);
    const table = await refOf(layer.weight);
    expect(Array.from(table.data.slice(0, 3))).toEqual([0, 0, 0]);
    const idx = fromHost(Float32Array.from([3, 0, 9, 3]), [2, 2], { device });
    const y = layer(idx);
    expect(y.shape).toEqual([2, 2, 3]);
    const expected = [3, 0, 9, 3].flatMap((r) => Array.from(table.data.slice(r * 3, r * 3 + 3)));
    expectClose(await y.data(), expected, 'Embedding');
  });

  it('CrossEntropyLoss and MSELoss against float64 references', async () => {
    const [logits, lr] = input([5, 4]);
    const labels = [3, 0, 1, 1, 2];
    const loss = new CrossEntropyLoss()(logits, fromHost(Int32Array.from(labels), [5], { device }));
    const logp = softmax(lr, 1, true);
    const expected = -labels.reduce((s, c, i) => s + logp.data[i * 4 + c], 0) / 5;
    expectClose(await loss.data(), [expected], 'CrossEntropyLoss');
    const [a, ar] = input([3, 2]);
    const [b, br] = input([3, 2]);
    const mse = new MSELoss()(a, b);
    expectClose(
      await mse.data(),
      [ar.data.reduce((s, v, i) => s + (v - br.data[i]) ** 2, 0) / 6],
      'MSELoss',
    );
    const sum = new MSELoss({ reduction: 'sum' })(a, b);
    expectClose(
      await sum.data(),
      [ar.data.reduce((s, v, i) => s + (v - br.data[i]) ** 2, 0)],
      'MSELoss sum',
    );
  });
});

describe('layer initialisation and errors', () => {
  it('draws weights and biases in ±1/√fan_in through the seeded generator', async () => {
    manualSeed(3);
    const a = new Conv2d(4, 6, 3);
    manualSeed(3);
    const b = new Conv2d(4, 6, 3);
    const wa = await a.weight.data();
    expect(Array.from(await b.weight.data())).toEqual(Array.from(wa));
    const bound = 1 / Math.sqrt(4 * 9);
    expect(Math.max(...Array.from(wa, Math.abs))).toBeLessThanOrEqual(bound);
    expect(Math.max(...Array.from(wa, Math.abs))).toBeGreaterThan(0.8 * bound);
    const bias = await (a.bias as Tensor).data();
    expect(Math.max(...Array.from(bias, Math.abs))).toBeLessThanOrEqual(bound);
  });

  it('names the layer and the expected shape on a wrong input', () => {
    const x = fromHost(new Float32Array(2 * 3 * 8 * 8), [2, 3, 8, 8], { device: devicesCpu() });
    expect(() => new Conv2d(1, 32, 3)(x)).toThrow(
      /Conv2d\(1, 32, kernel_size=\(3, 3\)\): expected input of shape \[N, 1, H, W\], got \[2, 3, 8, 8\]/,
    );
    expect(() => new Linear(64, 10)(x)).toThrow(
      'Linear(in_features=64, out_features=10): expected an input whose last dimension is 64, got shape [2, 3, 8, 8]',
    );
    expect(() =>
      new MaxPool2d(2)(fromHost(new Float32Array(4), [4], { device: devicesCpu() })),
    ).toThrow(/MaxPool2d.*expected input of shape \[N, C, H, W\]/);
  });

  it('says when a cross-entropy label is out of range', () => {
    const logits = fromHost(new Float32Array(6).fill(0.5), [2, 3], { device: devicesCpu() });
    const labels = fromHost(Int32Array.from([1, 3]), [2], { device: devicesCpu() });
    expect(() => new CrossEntropyLoss()(logits, labels)).toThrow(
      /label 3 at position 1 is out of range for 3 classes/,
    );
  });

  it('refuses options it does not implement instead of ignoring them', () => {
    expect(() => new Conv2d(1, 2, 3, { paddingMode: 'mirror' as 'zeros' })).toThrow(
      "padding_mode must be one of 'zeros', 'reflect', 'replicate' or 'circular'",
    );
    expect(() => new Conv2d(1, 2, 3, { groups: 2 })).toThrow(
      'in_channels must be divisible by groups',
    );
    expect(() => new Dropout(1.5)).toThrow('dropout probability has to be between 0 and 1');
  });
});

function devicesCpu(): Device {
  return devices[0];
}
