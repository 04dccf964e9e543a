import { beforeEach, describe, expect, it } from 'vitest';
import { cpu, manualSeed, ops, type Tensor } from '../../../../engine';
import { expectClose, rng } from '../../../../engine/testing/harness';
import { resetNames } from '../naming';
import { Sequential } from '../models/sequential';
import {
  Conv1D,
  Conv2D,
  Dense,
  Dropout,
  Embedding,
  Flatten,
  MaxPooling1D,
  MaxPooling2D,
} from './index';

const device = cpu();

function randomInput(shape: number[], seed: number): { t: Tensor; v: Float64Array } {
  const random = rng(seed);
  const n = shape.reduce((a, b) => a * b, 1);
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) v[i] = Math.fround(random() * 4 - 2);
  return { t: ops.fromHost(Float32Array.from(v), shape, { device }), v };
}

async function values(t: Tensor | null): Promise<Float64Array> {
  if (!t) throw new Error('missing tensor');
  return Float64Array.from(await t.data());
}

/** Channels-last 1-D convolution by loops: x [N, L, C], k [K, C, F], TF 'same'/'valid' padding. */
function conv1dRef(
  x: Float64Array,
  [N, L, C]: number[],
  k: Float64Array,
  [K, , F]: number[],
  b: Float64Array,
  stride: number,
  same: boolean,
): { out: Float64Array; L2: number } {
  const L2 = same ? Math.ceil(L / stride) : Math.floor((L - K) / stride) + 1;
  const total = same ? Math.max((L2 - 1) * stride + K - L, 0) : 0;
  const before = Math.floor(total / 2);
  const out = new Float64Array(N * L2 * F);
  for (let n = 0; n < N; n++)
    for (let o = 0; o < L2; o++)
      for (let f = 0; f < F; f++) {
        let s = b[f];
        for (let j = 0; j < K; j++) {
          const i = o * stride - before + j;
          if (i < 0 || i >= L) continue;
          for (let c = 0; c < C; c++) s += x[(n * L + i) * C + c] * k[(j * C + c) * F + f];
        }
        out[(n * L2 + o) * F + f] = s;
      }
  return { out, L2 };
}

beforeEach(() => {
  resetNames();
  manualSeed(7);
});

describe('Keras layers (channels-last)', () => {
  it('Dense: glorot-uniform kernel [in, units], zero bias, x·W + b with an activation', async () => {
    const layer = new Dense(5, { activation: 'relu' });
    const { t, v } = randomInput([3, 4], 1);
    const y = layer(t);
    expect(y.shape).toEqual([3, 5]);
    expect(layer.kernel?.shape).toEqual([4, 5]);
    expect(await layer.bias?.tolist()).toEqual([0, 0, 0, 0, 0]);
    const k = await values(layer.kernel);
    const limit = Math.sqrt(6 / (4 + 5));
    expect(k.every((w) => Math.abs(w) <= limit)).toBe(true);
    expect(Math.max(...k.map(Math.abs))).toBeGreaterThan(limit / 3);
    const expected = new Float64Array(15);
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 5; j++) {
        let s = 0;
        for (let c = 0; c < 4; c++) s += v[i * 4 + c] * k[c * 5 + j];
        expected[i * 5 + j] = Math.max(0, s);
      }
    expectClose(await y.data(), expected, 'dense');
    expect(layer.countParams()).toBe(25);
    expect(layer.name).toBe('dense');
    expect(new Dense(2).name).toBe('dense_1');
  });

  it('Dense on a 3-D input applies to the last axis; softmax rows sum to one', async () => {
    const layer = new Dense({ units: 3, activation: 'softmax' });
    const { t } = randomInput([2, 4, 6], 2);
    const y = layer(t);
    expect(y.shape).toEqual([2, 4, 3]);
    const sums = await ops.sum(y, -1).data();
    expectClose(sums, new Array(8).fill(1), 'softmax sums');
  });

  it('Conv1D valid and same (odd and even kernels, strides) match channels-last loops', async () => {
    const cases = [
      { kernelSize: 3, strides: 1, padding: 'valid' },
      { kernelSize: 3, strides: 2, padding: 'valid' },
      { kernelSize: 3, strides: 1, padding: 'same' },
      { kernelSize: 4, strides: 1, padding: 'same' },
      { kernelSize: 2, strides: 2, padding: 'same' },
    ] as const;
    for (const [i, c] of cases.entries()) {
      const layer = new Conv1D({
        filters: 4,
        kernelSize: c.kernelSize,
        strides: c.strides,
        padding: c.padding,
        biasInitializer: 'ones',
      });
      const { t, v } = randomInput([2, 9, 3], 10 + i);
      const y = layer(t);
      const k = await values(layer.kernel);
      expect(layer.kernel?.shape).toEqual([c.kernelSize, 3, 4]);
      const ref = conv1dRef(
        v,
        [2, 9, 3],
        k,
        [c.kernelSize, 3, 4],
        new Float64Array(4).fill(1),
        c.strides,
        c.padding === 'same',
      );
      expect(y.shape, JSON.stringify(c)).toEqual([2, ref.L2, 4]);
      expect(layer.outputShape).toEqual([null, ref.L2, 4]);
      expectClose(await y.data(), ref.out, `conv1d ${JSON.stringify(c)}`);
    }
  });

  it('Conv2D with asymmetric same padding and stride matches loops; kernel is [kh, kw, C, F]', async () => {
    const layer = new Conv2D(3, [2, 3], { strides: [2, 1], padding: 'same', activation: 'tanh' });
    const [N, H, W, C, F, KH, KW] = [2, 5, 4, 2, 3, 2, 3];
    const { t, v } = randomInput([N, H, W, C], 21);
    const y = layer(t);
    const k = await values(layer.kernel);
    const OH = Math.ceil(H / 2);
    const OW = W;
    const padTop = Math.floor(Math.max((OH - 1) * 2 + KH - H, 0) / 2);
    const padLeft = Math.floor(Math.max((OW - 1) * 1 + KW - W, 0) / 2);
    const expected = new Float64Array(N * OH * OW * F);
    for (let n = 0; n < N; n++)
      for (let oh = 0; oh < OH; oh++)
        for (let ow = 0; ow < OW; ow++)
          for (let f = 0; f < F; f++) {
            let s = 0;
            for (let i = 0; i < KH; i++)
              for (let j = 0; j < KW; j++) {
                const h = oh * 2 - padTop + i;
                const w = ow - padLeft + j;
                if (h < 0 || h >= H || w < 0 || w >= W) continue;
                for (let c = 0; c < C; c++)
                  s += v[((n * H + h) * W + w) * C + c] * k[((i * KW + j) * C + c) * F + f];
              }
            expected[((n * OH + oh) * OW + ow) * F + f] = Math.tanh(s);
          }
    expect(y.shape).toEqual([N, OH, OW, F]);
    expectClose(await y.data(), expected, 'conv2d same');
    expect(layer.countParams()).toBe(KH * KW * C * F + F);
  });

  it('MaxPool1D / MaxPool2D (valid and same) take window maxima per channel', async () => {
    const { t, v } = randomInput([2, 7, 3], 31);
    const pool = new MaxPooling1D(2);
    const y = pool(t);
    expect(y.shape).toEqual([2, 3, 3]);
    const expected: number[] = [];
    for (let n = 0; n < 2; n++)
      for (let o = 0; o < 3; o++)
        for (let c = 0; c < 3; c++)
          expected.push(Math.max(v[(n * 7 + 2 * o) * 3 + c], v[(n * 7 + 2 * o + 1) * 3 + c]));
    expectClose(await y.data(), expected, 'maxpool1d');

    const same = new MaxPooling1D({ poolSize: 2, padding: 'same' })(t);
    expect(same.shape).toEqual([2, 4, 3]);
    const last = await same.slice(1, 3, 4).contiguous().data();
    const lastExpected: number[] = [];
    for (let n = 0; n < 2; n++)
      for (let c = 0; c < 3; c++) lastExpected.push(v[(n * 7 + 6) * 3 + c]);
    expectClose(last, lastExpected, 'maxpool1d same tail');

    const img = randomInput([1, 5, 4, 2], 32);
    const y2 = new MaxPooling2D({ poolSize: [2, 2] })(img.t);
    expect(y2.shape).toEqual([1, 2, 2, 2]);
    const e2: number[] = [];
    for (let oh = 0; oh < 2; oh++)
      for (let ow = 0; ow < 2; ow++)
        for (let c = 0; c < 2; c++) {
          let m = -Infinity;
          for (let i = 0; i < 2; i++)
            for (let j = 0; j < 2; j++)
              m = Math.max(m, img.v[((2 * oh + i) * 4 + 2 * ow + j) * 2 + c]);
          e2.push(m);
        }
    expectClose(await y2.data(), e2, 'maxpool2d');
  });

  it('Embedding: uniform(-0.05, 0.05) table, rows picked by integer ids (float ids are cast)', async () => {
    const layer = new Embedding(10, 3, { inputLength: 4 });
    const ids = ops.fromData(
      [
        [1, 2, 9, 0],
        [3, 3, 5, 7],
      ],
      { device, dtype: 'int32' },
    );
    const y = layer(ids);
    expect(y.shape).toEqual([2, 4, 3]);
    const table = await values(layer.embeddings);
    expect(table.every((w) => Math.abs(w) <= 0.05)).toBe(true);
    const expected = [1, 2, 9, 0, 3, 3, 5, 7].flatMap((r) => [
      table[r * 3],
      table[r * 3 + 1],
      table[r * 3 + 2],
    ]);
    expectClose(await y.data(), expected, 'embedding');
    const floatIds = layer(ops.fromData([[1, 2, 9, 0]], { device }));
    expectClose(await floatIds.data(), expected.slice(0, 12), 'embedding float ids');
    expect(() => layer(ops.fromData([[1, 2, 3]], { device, dtype: 'int32' }))).toThrow(
      /expected axis 1 of input shape to have value 4/,
    );
  });

  it('Flatten keeps channels-last order; Dropout acts only when training', async () => {
    const { t, v } = randomInput([2, 3, 2], 41);
    const flat = new Flatten()(t);
    expect(flat.shape).toEqual([2, 6]);
    expectClose(await flat.data(), v, 'flatten');
    const drop = new Dropout(0.5);
    const ones = ops.ones([1000], { device });
    expectClose(await drop(ones).data(), new Array(1000).fill(1), 'dropout eval');
    const trained = await drop(ones, { training: true }).data();
    const zeros = trained.filter((x) => x === 0).length;
    expect(zeros).toBeGreaterThan(400);
    expect(zeros).toBeLessThan(600);
    expect(trained.every((x) => x === 0 || Math.abs(x - 2) < 1e-6)).toBe(true);
  });

  it('Dense names the layer and the expected size when the input does not fit', () => {
    const layer = new Dense(2);
    layer(ops.ones([1, 3], { device }));
    expect(() => layer(ops.ones([1, 4], { device }))).toThrow(
      'Input 0 of layer "dense" is incompatible with the layer: expected axis -1 of input shape to have value 3, but received input with shape (1, 4)',
    );
  });
});

describe('Sequential summary', () => {
  it("prints the chapter's table: 332,856 parameters for 30,982 words, length 300, 46 classes", () => {
    const model = new Sequential();
    model.add(new Embedding(30982, 7, { inputLength: 300 }));
    model.add(new Conv1D({ filters: 64, kernelSize: 5, activation: 'relu' }));
    model.add(new MaxPooling1D(2));
    model.add(new Conv1D({ filters: 32, kernelSize: 3, activation: 'relu' }));
    model.add(new MaxPooling1D(2));
    model.add(new Flatten());
    model.add(new Dense(46, { activation: 'softmax' }));
    const lines: string[] = [];
    model.summary({ printFn: (line) => lines.push(line) });
    const expected = `Model: "sequential"
_________________________________________________________________
Layer (type)                 Output Shape              Param #   
=================================================================
embedding (Embedding)        (None, 300, 7)            216874    
_________________________________________________________________
conv1d (Conv1D)              (None, 296, 64)           2304      
_________________________________________________________________
max_pooling1d (MaxPooling1D) (None, 148, 64)           0         
_________________________________________________________________
conv1d_1 (Conv1D)            (None, 146, 32)           6176      
_________________________________________________________________
max_pooling1d_1 (MaxPooling1 (None, 73, 32)            0         
_________________________________________________________________
flatten (Flatten)            (None, 2336)              0         
_________________________________________________________________
dense (Dense)                (None, 46)                107502    
=================================================================
Total params: 332,856
Trainable params: 332,856
Non-trainable params: 0
_________________________________________________________________`;
    expect(lines.join('\n')).toBe(expected);
    expect(model.countParams()).toBe(332856);
    expect(model.trainableVariables.map((v) => v.shape)).toEqual([
      [30982, 7],
      [5, 7, 64],
      [64],
      [3, 64, 32],
      [32],
      [2336, 46],
      [46],
    ]);
  });

  it('counts a Conv2D/Dense model by hand (320 + 51,264 + 10,250 = 61,834)', () => {
    const model = new Sequential([
      new Conv2D(32, 3, { activation: 'relu', inputShape: [28, 28, 1] }),
      new MaxPooling2D(),
      new Conv2D(64, 5, { activation: 'relu' }),
      new MaxPooling2D([2, 2]),
      new Dropout(0.1),
      new Flatten(),
      new Dense(10, { activation: 'softmax' }),
    ]);
    expect(model.layers.map((l) => l.outputShape)).toEqual([
      [null, 26, 26, 32],
      [null, 13, 13, 32],
      [null, 9, 9, 64],
      [null, 4, 4, 64],
      [null, 4, 4, 64],
      [null, 1024],
      [null, 10],
    ]);
    expect(model.layers.map((l) => l.countParams())).toEqual([320, 0, 51264, 0, 0, 0, 10250]);
    expect(model.summaryText()).toContain('Total params: 61,834');
    const y = model(ops.rand([2, 28, 28, 1], { device }));
    expect(y.shape).toEqual([2, 10]);
  });

  it('a model without an input shape is built by its first call', () => {
    const model = new Sequential();
    model.add(new Dense(4, { activation: 'relu' }));
    model.add(new Dense(2));
    expect(() => model.summary()).toThrow(/has not yet been built/);
    model(ops.ones([3, 6], { device }));
    expect(model.summaryText()).toContain('Total params: 38');
  });
});
