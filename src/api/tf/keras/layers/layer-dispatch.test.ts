/**
 * Layer.dispatch (the functional API's entry): a layer called on KerasTensors records a node and
 * returns KerasTensors of the computed shape; on real tensors it runs eagerly. Also the functional
 * Model replaying those nodes, the merging layers' shapes and errors, and Input in Sequential.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { cpu, ops, Tensor } from '../../../../engine';
import { KerasTensor } from '../engine/keras-tensor';
import { nodesOf } from '../engine/symbolic-call';
import { Model } from '../models/model';
import '../models/functional';
import { Sequential } from '../models/sequential';
import { resetNames } from '../naming';
import {
  BatchNormalization,
  Conv1D,
  Dense,
  Embedding,
  Flatten,
  GlobalAveragePooling1D,
} from './index';
import { kerasMask } from './masking';
import { Input } from './input-layer';
import { Add, Concatenate, concatenate, Dot, Subtract } from './merging';

const device = cpu();
const data = (rows: number[][]): Tensor => ops.fromData(rows, { device });

beforeEach(() => resetNames());

describe('Layer.dispatch', () => {
  it('records a node on symbolic input and returns a KerasTensor of the output shape', () => {
    const x = Input({ shape: [784] });
    expect(x).toBeInstanceOf(KerasTensor);
    expect(String(x)).toBe(
      '<KerasTensor shape=(None, 784), dtype=float32, sparse=False, name=keras_tensor>',
    );
    const dense = new Dense(64, { activation: 'relu' });
    const y = dense(x);
    expect(y).toBeInstanceOf(KerasTensor);
    expect(y.shape).toEqual([null, 64]);
    expect(dense.built).toBe(true);
    expect(nodesOf(dense)).toHaveLength(1);
    expect(nodesOf(dense)[0].inputs).toEqual([x]);
    expect(y.history?.node.layer).toBe(dense);
  });

  it('keeps unknown sizes unknown and runs eagerly on real tensors', async () => {
    const seq = Input({ shape: [null, 3] });
    const conv = new Conv1D(4, 2);
    expect(conv(seq).shape).toEqual([null, null, 4]);
    const y = conv(ops.ones([2, 6, 3], { device }));
    expect(y).toBeInstanceOf(Tensor);
    expect(y.shape).toEqual([2, 5, 4]);
  });

  it('checks the input spec symbolically with Keras message', () => {
    const dense = new Dense(2);
    dense(Input({ shape: [4] }));
    expect(() => dense(Input({ shape: [5] }))).toThrow(
      'Input 0 of layer "dense" is incompatible with the layer: expected axis -1 of input shape to have value 4, but received input with shape (None, 5)',
    );
  });
});

describe('merging layers', () => {
  it('Add / Concatenate shapes, symbolic and eager', async () => {
    const a = Input({ shape: [4] });
    const b = Input({ shape: [3] });
    expect(concatenate([a, b]).shape).toEqual([null, 7]);
    expect(new Add()([a, Input({ shape: [1] })]).shape).toEqual([null, 4]);
    const sum = new Add()([data([[1, 2]]), data([[10, 20]])]);
    expect(Array.from(await sum.data())).toEqual([11, 22]);
    const cat = new Concatenate({ axis: 0 })([data([[1, 2]]), data([[3, 4]])]);
    expect(cat.shape).toEqual([2, 2]);
  });

  it("raises Keras's errors", () => {
    const a = Input({ shape: [4] });
    const b = Input({ shape: [5] });
    expect(() => new Add({ name: 'add' })([a, b])).toThrow(
      'Inputs have incompatible shapes. Received shapes (4,) and (5,)',
    );
    expect(() => new Concatenate()([a, Input({ shape: [2, 3] })])).toThrow(
      'A `Concatenate` layer requires inputs with matching shapes except for the concatenation axis. Received: input_shape=[(None, 4), (None, 2, 3)]',
    );
    expect(() => new Subtract()([a, a, a])).toThrow(
      'A `Subtract` layer should be called on exactly 2 inputs.',
    );
    expect(() => new Add()(a)).toThrow('A merge layer should be called on a list of inputs.');
  });

  it('Dot contracts the given axes', async () => {
    const d = new Dot({ axes: 1 })([data([[1, 2, 3]]), data([[4, 5, 6]])]);
    expect(d.shape).toEqual([1, 1]);
    expect(Array.from(await d.data())).toEqual([32]);
    const a = Input({ shape: [3, 4] });
    const b = Input({ shape: [5, 4] });
    expect(new Dot({ axes: [2, 2] })([a, b]).shape).toEqual([null, 3, 5]);
  });
});

describe('functional Model', () => {
  it('replays the graph: two inputs, a shared layer, a residual add', async () => {
    const a = Input({ shape: [2] });
    const b = Input({ shape: [2] });
    const shared = new Dense(2, { useBias: false, kernelInitializer: 'ones' });
    const merged = concatenate([shared(a), shared(b)]);
    const out = new Add()([merged, concatenate([a, b])]);
    const model = new Model([a, b], [out, shared(a)]);
    expect(model.className).toBe('Functional');
    expect(model.name).toBe('model');
    expect(model.layers.map((l) => l.name)).toEqual([
      'input_1',
      'input_2',
      'dense',
      'concatenate',
      'concatenate_1',
      'add',
    ]);
    const x1 = data([[1, 2]]);
    const x2 = data([[3, 4]]);
    const [y, z] = model([x1, x2]) as unknown as Tensor[];
    // shared(x) = [sum, sum]; out = [3, 3, 7, 7] + [1, 2, 3, 4]
    expect(Array.from(await y.data())).toEqual([4, 5, 10, 11]);
    expect(Array.from(await z.data())).toEqual([3, 3]);
    expect(() => model(x1)).toThrow(
      'Layer "model" expects 2 input(s), but it received 1 input tensors.',
    );
  });

  it('says which tensor disconnects the graph', () => {
    const a = Input({ shape: [2] });
    const b = Input({ shape: [2] });
    const out = new Add()([a, b]);
    expect(() => new Model(a, out)).toThrow('Graph disconnected: cannot obtain value for tensor');
  });

  it('Input first in a Sequential sets its input shape', () => {
    const model = new Sequential([Input({ shape: [4] }), new Dense(3), new Flatten()]);
    expect(model.built).toBe(true);
    expect(model.layers).toHaveLength(2);
    expect(model.outputShape).toEqual([null, 3]);
  });
});

describe('masks in a functional model', () => {
  it('flow from Embedding(maskZero) through Concatenate to the pooling', async () => {
    const ids = Input({ shape: [4], dtype: 'int32' });
    const embed = new Embedding(5, 2, { maskZero: true, embeddingsInitializer: 'ones' });
    const other = new Embedding(5, 1, { embeddingsInitializer: 'ones' });
    const joined = concatenate([embed(ids), other(ids)]);
    const pooled = new GlobalAveragePooling1D()(joined);
    const model = new Model(ids, [joined, pooled]);
    const x = ops.fromData([[1, 2, 0, 0]], { device, dtype: 'int32' });
    const [seq, mean] = model(x) as unknown as Tensor[];
    expect(seq.shape).toEqual([1, 4, 3]);
    // Keras: along the last axis the masks are and-ed (a missing mask counts as all present).
    expect(Array.from(await (kerasMask(seq) as Tensor).data())).toEqual([1, 1, 0, 0]);
    expect(Array.from(await mean.data())).toEqual([1, 1, 1]);
  });

  it('a Sequential is a layer of a functional model', async () => {
    const inner = new Sequential([new Dense(2, { kernelInitializer: 'ones' })]);
    const x = Input({ shape: [3] });
    const y = inner(x);
    expect(y.shape).toEqual([null, 2]);
    const model = new Model(x, new Add()([y, y]));
    const out = model(data([[1, 2, 3]]));
    expect(Array.from(await out.data())).toEqual([12, 12]);
    expect(model.countParams()).toBe(8);
  });
});

describe('layer.input / layer.output and a chain summary', () => {
  it('cuts a feature extractor out of a model; a chain prints as Sequential does', () => {
    const x = Input({ shape: [3] });
    const hidden = new Dense(4, { name: 'hidden' });
    const model = new Model(x, new Dense(2, { name: 'top' })(hidden(x)), { name: 'chain' });
    const features = new Model(model.input, hidden.output);
    expect((features.output as KerasTensor).shape).toEqual([null, 4]);
    expect(features.layers.map((l) => l.name)).toEqual(['input_1', 'hidden']);
    hidden(Input({ shape: [3] }));
    expect(() => hidden.output).toThrow(
      'Layer hidden has multiple inbound nodes, hence the notion of "layer output" is ill-defined.',
    );
    expect(model.summaryText()).toBe(
      [
        'Model: "chain"',
        '_________________________________________________________________',
        'Layer (type)                 Output Shape              Param #   ',
        '=================================================================',
        'input_1 (InputLayer)         [(None, 3)]               0         ',
        '_________________________________________________________________',
        'hidden (Dense)               (None, 4)                 16        ',
        '_________________________________________________________________',
        'top (Dense)                  (None, 2)                 10        ',
        '=================================================================',
        'Total params: 26',
        'Trainable params: 26',
        'Non-trainable params: 0',
        '_________________________________________________________________',
      ].join('\n'),
    );
  });
});

describe('stand-in runs leave no trace', () => {
  it('a symbolic call with training=True does not move BatchNormalization statistics', async () => {
    const x = Input({ shape: [3] });
    const bn = new BatchNormalization();
    const model = new Model(x, bn(x, { training: true }));
    expect(Array.from(await bn.weights[2].data())).toEqual([0, 0, 0]);
    // The explicit training=True given while building is kept when the model runs.
    const y = model(
      data([
        [1, 2, 3],
        [3, 4, 5],
      ]),
    );
    expect(Array.from(await y.data()).map((v) => Math.round(v))).toEqual([-1, -1, -1, 1, 1, 1]);
  });

  it('a one-input model takes nested numbers as its data', async () => {
    const x = Input({ shape: [2] });
    const model = new Model(x, new Add()([x, x]));
    expect(Array.from(await model([[1, 2]]).data())).toEqual([2, 4]);
  });
});
