/**
 * The recurrent layers' TS-level behaviour (values are checked against float64 formulas in
 * src/api/python/keras-recurrent.test.ts): Keras's weight names, shapes and parameter counts,
 * return_state lists, masks from Embedding(maskZero) flowing through, Bidirectional's naming and
 * errors, and the Orthogonal initializer.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { cpu, manualSeed, ops, type Tensor } from '../../../../engine';
import type { KerasTensor } from '../engine/keras-tensor';
import '../models/functional';
import { Model } from '../models/model';
import { Sequential } from '../models/sequential';
import { resetNames } from '../naming';
import {
  Bidirectional,
  Dense,
  Embedding,
  GRU,
  LSTM,
  Masking,
  SimpleRNN,
  type RecurrentCallOptions,
} from './index';
import { Input } from './input-layer';
import { kerasMask } from './masking';
import { orthogonal } from './orthogonal';

const device = cpu();
const ids = (rows: number[][]): Tensor => ops.fromData(rows, { device, dtype: 'int32' });
const floats = async (t: Tensor): Promise<number[]> => Array.from(await t.data());

beforeEach(() => {
  resetNames();
  manualSeed(5);
});

describe('Keras recurrent layers', () => {
  it('name their weights as Keras does and count parameters with its formulas', () => {
    const lstm = new LSTM(4);
    const gru = new GRU(4);
    const gruV1 = new GRU(4, { resetAfter: false });
    const rnn = new SimpleRNN(4);
    for (const layer of [lstm, gru, gruV1, rnn]) layer.build([null, 5, 3]);
    expect(lstm.namedWeights.map((w) => [w.name, w.value.shape])).toEqual([
      ['lstm/lstm_cell/kernel:0', [3, 16]],
      ['lstm/lstm_cell/recurrent_kernel:0', [4, 16]],
      ['lstm/lstm_cell/bias:0', [16]],
    ]);
    expect(gru.namedWeights.map((w) => w.value.shape)).toEqual([
      [3, 12],
      [4, 12],
      [2, 12],
    ]);
    expect(gruV1.namedWeights.map((w) => w.value.shape)).toEqual([[3, 12], [4, 12], [12]]);
    expect(rnn.namedWeights[0].name).toBe('simple_rnn/simple_rnn_cell/kernel:0');
    expect(lstm.countParams()).toBe(4 * (3 * 4 + 4 * 4 + 4));
    expect(gru.countParams()).toBe(3 * (3 * 4 + 4 * 4 + 2 * 4));
    expect(gruV1.countParams()).toBe(3 * (3 * 4 + 4 * 4 + 4));
    expect(rnn.countParams()).toBe(3 * 4 + 4 * 4 + 4);
    expect(lstm.outputShape).toEqual([null, 4]);
  });

  it('start the forget gate bias at one and the recurrent kernel orthogonal', async () => {
    const lstm = new LSTM(3);
    lstm.build([null, 2, 2]);
    expect(await floats(lstm.bias as Tensor)).toEqual([0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
    const u = lstm.recurrentKernel as Tensor; // [3, 12]: orthonormal rows
    const gram = await floats(ops.matmul(u, ops.t(u)));
    gram.forEach((v, i) => expect(v).toBeCloseTo(i % 4 === 0 ? 1 : 0, 5));
  });

  it('return [output, h, c] with returnState, the last output equal to h', async () => {
    const lstm = new LSTM(2, { returnState: true, returnSequences: true });
    const x = ops.randn([3, 4, 5], { device });
    const [seq, h, c] = lstm(x) as unknown as Tensor[];
    expect([seq.shape, h.shape, c.shape]).toEqual([
      [3, 4, 2],
      [3, 2],
      [3, 2],
    ]);
    expect(await floats(ops.select(seq, 1, 3))).toEqual(await floats(h));
  });

  it('carry Embedding(maskZero) masks: states held over padding, the mask passed on with sequences', async () => {
    const embedding = new Embedding(10, 3, { maskZero: true });
    const gru = new GRU(2, { returnSequences: true });
    const padded = ids([
      [4, 2, 0, 0],
      [7, 0, 0, 0],
    ]);
    const e = embedding(padded);
    expect(await floats(kerasMask(e) as Tensor)).toEqual([1, 1, 0, 0, 1, 0, 0, 0]);
    const y = gru(e);
    expect(kerasMask(y)).toBe(kerasMask(e));
    const rows = await floats(y);
    // Batch 0's steps 2 and 3 repeat step 1; batch 1's steps 1–3 repeat step 0.
    expect(rows.slice(4, 6)).toEqual(rows.slice(2, 4));
    expect(rows.slice(6, 8)).toEqual(rows.slice(2, 4));
    expect(rows.slice(10, 16)).toEqual([
      ...rows.slice(8, 10),
      ...rows.slice(8, 10),
      ...rows.slice(8, 10),
    ]);
    const last = new GRU(2);
    last.build([null, 4, 3]);
    gru.build([null, 4, 3]);
    last.setWeights(gru.weights);
    const final = last(embedding(padded));
    expect(kerasMask(final)).toBeNull();
    expect(await floats(final)).toEqual([...rows.slice(6, 8), ...rows.slice(14, 16)]);
  });

  it('drop units only in training, with gradients through the kept ones', async () => {
    const lstm = new LSTM(3, { dropout: 0.5, recurrentDropout: 0.5 });
    const x = ops.randn([4, 5, 6], { device });
    const plain = await floats(lstm(x));
    expect(await floats(lstm(x))).toEqual(plain);
    const y = lstm(x, { training: true });
    expect(await floats(y)).not.toEqual(plain);
    ops.sum(y).backward();
    expect((lstm.kernel as Tensor).grad?.shape).toEqual([6, 12]);
  });

  it('refuse stateful layers and bad arguments with Keras-style messages', () => {
    expect(() => new LSTM(3, { stateful: true })).toThrow(/stateful=True is not supported/);
    expect(() => new GRU(0)).toThrow(
      'Received an invalid value for argument `units`, expected a positive integer, got 0.',
    );
    resetNames();
    expect(() => new LSTM(2)(ops.zeros([2, 5], { device }))).toThrow(
      'Input 0 of layer "lstm" is incompatible with the layer: expected ndim=3, found ndim=2. Full shape received: (2, 5)',
    );
  });
});

describe('Bidirectional', () => {
  it('names and orders the weights forward then backward, under its own name', () => {
    const bi = new Bidirectional(new LSTM(3));
    bi.build([null, 4, 2]);
    expect(bi.namedWeights.map((w) => w.name)).toEqual([
      'bidirectional/forward_lstm/lstm_cell/kernel:0',
      'bidirectional/forward_lstm/lstm_cell/recurrent_kernel:0',
      'bidirectional/forward_lstm/lstm_cell/bias:0',
      'bidirectional/backward_lstm/lstm_cell/kernel:0',
      'bidirectional/backward_lstm/lstm_cell/recurrent_kernel:0',
      'bidirectional/backward_lstm/lstm_cell/bias:0',
    ]);
    expect(bi.weights).toHaveLength(6);
    expect(bi.countParams()).toBe(2 * 4 * (2 * 3 + 3 * 3 + 3));
    expect(bi.outputShape).toEqual([null, 6]);
    expect(bi.backwardLayer.goBackwards).toBe(true);
  });

  it('merges as asked, or returns both outputs and the states', () => {
    const x = ops.randn([2, 3, 4], { device });
    expect(new Bidirectional(new GRU(2), { mergeMode: 'sum' })(x).shape).toEqual([2, 2]);
    const both = new Bidirectional(new GRU(2, { returnSequences: true }), { mergeMode: null })(
      x,
    ) as unknown as Tensor[];
    expect(both.map((t) => t.shape)).toEqual([
      [2, 3, 2],
      [2, 3, 2],
    ]);
    const withState = new Bidirectional(new LSTM(2, { returnState: true }))(
      x,
    ) as unknown as Tensor[];
    expect(withState.map((t) => t.shape)).toEqual([
      [2, 4],
      [2, 2],
      [2, 2],
      [2, 2],
      [2, 2],
    ]);
  });

  it("raises Keras's errors", () => {
    expect(() => new Bidirectional(new LSTM(2), { mergeMode: 'max' })).toThrow(
      'Invalid merge mode. Received: max. Merge mode should be one of {"sum", "mul", "ave", "concat", None}',
    );
    expect(() => new Bidirectional(new Dense(2))).toThrow(/Bidirectional/);
  });

  it('sits in a Sequential model after a masking Embedding', () => {
    const model = new Sequential([
      new Embedding(30, 4, { inputLength: 5, maskZero: true }),
      new Bidirectional(new LSTM(3)),
      new Dense(2),
    ]);
    expect(model.countParams()).toBe(30 * 4 + 2 * 4 * (4 * 3 + 3 * 3 + 3) + 6 * 2 + 2);
    const y = model(ids([[1, 2, 3, 0, 0]]));
    expect(y.shape).toEqual([1, 2]);
  });
});

describe('recurrent layers in functional models', () => {
  it('link symbolic initial states into the graph and replay masks', async () => {
    const source = Input({ shape: [5], dtype: 'int32' });
    const embedding = new Embedding(10, 4, { maskZero: true });
    const encoder = new LSTM(3, { returnState: true, returnSequences: true });
    const decoder = new LSTM(3, { returnSequences: true });
    const bi = new Bidirectional(new GRU(2));
    const [seq, h, c] = encoder(embedding(source)) as unknown as KerasTensor[];
    const states: RecurrentCallOptions = { initialState: [h, c] as unknown as Tensor[] };
    const model = new Model(source, bi(decoder(seq, states) as unknown as KerasTensor));
    expect(model.countParams()).toBe(
      40 + 4 * (4 * 3 + 9 + 3) + 4 * (3 * 3 + 9 + 3) + 2 * 3 * (3 * 2 + 4 + 4),
    );
    const x = ids([
      [1, 2, 3, 0, 0],
      [4, 0, 0, 0, 0],
    ]);
    const [s2, h2, c2] = encoder(embedding(x)) as unknown as Tensor[];
    const eagerStates: RecurrentCallOptions = { initialState: [h2, c2] };
    const eager = bi(decoder(s2, eagerStates));
    expect(await floats(model(x))).toEqual(await floats(eager));
  });
});

describe('Masking', () => {
  it('masks the steps whose features all equal maskValue and zeroes them', async () => {
    const x = ops.fromData(
      [
        [
          [1, -1],
          [-1, -1],
          [-1, 2],
        ],
      ],
      { device },
    );
    const layer = new Masking({ maskValue: -1 });
    const y = layer(x);
    // x · mask, as Keras computes it: -1 · 0 is -0 there too.
    expect(await floats(y)).toEqual([1, -1, -0, -0, -1, 2]);
    expect(await floats(kerasMask(y) as Tensor)).toEqual([1, 0, 1]);
    expect(layer.computeOutputShape([null, 3, 2])).toEqual([null, 3, 2]);
  });
});

describe('Orthogonal', () => {
  it('gives orthonormal columns for a tall weight', async () => {
    const q = orthogonal()([6, 3], device);
    const gram = await floats(ops.matmul(ops.t(q), q));
    gram.forEach((v, i) => expect(v).toBeCloseTo(i % 4 === 0 ? 1 : 0, 5));
  });
});
