/**
 * The bench's models written with jax-js ops, the same nets as ours (src/engine/benchmark/
 * workloads.ts, ./sequence.ts) and TF.js's (./tfjs.ts, ./tfjs-sequence.ts): their parameters,
 * initialised as PyTorch does (U(±1/√fan_in)), and their losses. Layouts are PyTorch's (NCHW
 * images, batch-first sequences); weights of dense layers are stored [in, out].
 *
 * jax-js counts references: each function consumes its array arguments once. The losses below
 * borrow every argument through `.ref` and dispose the arguments at the end (`owning`), so that
 * a parameter used twice is not freed by its first use.
 */
import { lax, nn, numpy as np, random, tree } from '@jax-js/jax';
import { LSTM_STEP, TRANSFORMER_STEP } from './sequence';
import type { Arr, LossFn, Params } from './jaxjs-adam';

/** A small seeded generator (the datasets' mulberry32), so the nets start the same in every run. */
export { mulberry32 as seeded } from '../../../src/engine/data/datasets/seeded-shuffle';

/** Values made on the host and uploaded once (setup, not timed). */
export function hostArray(shape: number[], fill: (i: number) => number): Arr {
  const size = shape.reduce((a, b) => a * b, 1);
  const values = new Float32Array(size);
  for (let i = 0; i < size; i++) values[i] = fill(i);
  return np.array(values, { shape });
}

export function uniform(shape: number[], bound: number, rand: () => number): Arr {
  return hostArray(shape, () => (rand() * 2 - 1) * bound);
}

/** A standard normal sample (Box–Muller). */
export function gaussian(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

export function normal(shape: number[], rand: () => number): Arr {
  return hostArray(shape, () => gaussian(rand));
}

/** One-hot rows of random labels in [0, classes). */
export function oneHotLabels(batch: number, classes: number, rand: () => number): Arr {
  const labels = Array.from({ length: batch }, () => Math.floor(rand() * classes));
  return hostArray([batch, classes], (i) =>
    labels[Math.floor(i / classes)] === i % classes ? 1 : 0,
  );
}

/** A dense layer's weight [in, out] and bias [out] under `name`. */
function dense(params: Params, name: string, inputs: number, outputs: number, rand: () => number) {
  const bound = 1 / Math.sqrt(inputs);
  params[`${name}.w`] = uniform([inputs, outputs], bound, rand);
  params[`${name}.b`] = uniform([outputs], bound, rand);
}

/** The loss `body` borrowing its arguments (`.ref`), which are then released once. */
function owning(body: (p: Params, data: Arr[]) => Arr): LossFn {
  return (p, data) => {
    const out = body(p, data);
    tree.dispose(p);
    tree.dispose(data);
    return out;
  };
}

const linear = (p: Params, name: string, x: Arr): Arr =>
  np.matmul(x, p[`${name}.w`].ref).add(p[`${name}.b`].ref);

/** Cross-entropy of logits [batch, classes] against one-hot rows, averaged over the batch. */
function crossEntropy(logits: Arr, oneHot: Arr): Arr {
  return nn.logSoftmax(logits, -1).mul(oneHot).sum(-1).mean().neg();
}

/** Zeroes whole rows of `shape` (broadcast over the rest) with probability `rate`, scaling the rest. */
function dropout(x: Arr, key: Arr, rate: number, shape: number[] = x.shape): Arr {
  const keep = random.bernoulli(key, 1 - rate, shape).astype(np.float32);
  return x.mul(keep.mul(1 / (1 - rate)));
}

/** Max over 2×2 windows of [N, C, H, W] (floor, as MaxPool2d(2)). */
function maxPool2(x: Arr): Arr {
  const [n, c, h, w] = x.shape;
  const h2 = Math.floor(h / 2);
  const w2 = Math.floor(w / 2);
  const cropped = h === h2 * 2 && w === w2 * 2 ? x : x.slice([], [], [0, h2 * 2], [0, w2 * 2]);
  return cropped.reshape([n, c, h2, 2, w2, 2]).max([3, 5]);
}

function conv(p: Params, name: string, x: Arr): Arr {
  const bias = p[`${name}.b`].ref;
  return lax
    .conv(x, p[`${name}.w`].ref, [1, 1], 'VALID')
    .add(bias.reshape([1, bias.shape[0], 1, 1]));
}

/**
 * The PyTorch chapter's MNIST CNN (workloads.ts's mnistCnn): conv 3×3×32, pool, conv 5×5×64,
 * pool, Dropout2d(0.1), global max pool, dense 32 + ReLU, dense 10. Data: images [B, 1, 28, 28],
 * one-hot labels [B, 10], a PRNG key for the dropout.
 */
export function cnn(rand: () => number): { params: Params; loss: LossFn } {
  const params: Params = {};
  const kernel = (name: string, out: number, inputs: number, size: number) => {
    const bound = 1 / Math.sqrt(inputs * size * size);
    params[`${name}.w`] = uniform([out, inputs, size, size], bound, rand);
    params[`${name}.b`] = uniform([out], bound, rand);
  };
  kernel('conv1', 32, 1, 3);
  kernel('conv2', 64, 32, 5);
  dense(params, 'fc1', 64, 32, rand);
  dense(params, 'fc2', 32, 10, rand);
  const loss = owning((p, [x, y, key]) => {
    let h = maxPool2(conv(p, 'conv1', x.ref));
    h = maxPool2(conv(p, 'conv2', h));
    const [n, c] = h.shape;
    h = dropout(h, key.ref, 0.1, [n, c, 1, 1]).max([2, 3]);
    h = nn.relu(linear(p, 'fc1', h));
    return crossEntropy(linear(p, 'fc2', h), y.ref);
  });
  return { params, loss };
}

/** nn.Linear(2, 1) under mean squared error. Data: points [N, 2], targets [N, 1]. */
export function linreg(rand: () => number): { params: Params; loss: LossFn } {
  const params: Params = {};
  dense(params, 'fc', 2, 1, rand);
  const loss = owning((p, [x, y]) => np.square(linear(p, 'fc', x.ref).sub(y.ref)).mean());
  return { params, loss };
}

/** Gates i, f, g, o of PyTorch's LSTM for one step; returns the new [h, c]. */
function lstmCell(gates: Arr, c: Arr, hidden: number): [Arr, Arr] {
  const part = (k: number) => gates.ref.slice([], [k * hidden, (k + 1) * hidden]);
  const i = nn.sigmoid(part(0));
  const f = nn.sigmoid(part(1));
  const g = np.tanh(part(2));
  const o = nn.sigmoid(part(3));
  gates.dispose();
  const next = f.mul(c).add(i.mul(g));
  return [o.mul(np.tanh(next.ref)), next];
}

/**
 * ./sequence.ts's LSTM classifier: a 2-layer LSTM (PyTorch's gate order and two biases), a dense
 * head on the last step's output. Data: [B, length, features], one-hot labels [B, classes].
 */
export function lstm(rand: () => number): { params: Params; loss: LossFn } {
  const { features, hidden, layers, length, classes } = LSTM_STEP;
  const params: Params = {};
  const bound = 1 / Math.sqrt(hidden);
  for (let l = 0; l < layers; l++) {
    const inputs = l === 0 ? features : hidden;
    params[`lstm${l}.wih`] = uniform([inputs, 4 * hidden], bound, rand);
    params[`lstm${l}.whh`] = uniform([hidden, 4 * hidden], bound, rand);
    params[`lstm${l}.bih`] = uniform([4 * hidden], bound, rand);
    params[`lstm${l}.bhh`] = uniform([4 * hidden], bound, rand);
  }
  dense(params, 'head', hidden, classes, rand);
  const loss = owning((p, [x, y]) => {
    const batch = x.shape[0];
    let input = x.ref;
    let last: Arr | null = null;
    for (let l = 0; l < layers; l++) {
      const width = input.shape[2];
      // The input's share of every step's gates in one product.
      const xs = np
        .matmul(input.reshape([batch * length, width]), p[`lstm${l}.wih`].ref)
        .add(p[`lstm${l}.bih`].ref)
        .add(p[`lstm${l}.bhh`].ref)
        .reshape([batch, length, 4 * hidden]);
      let h = np.zeros([batch, hidden]);
      let c = np.zeros([batch, hidden]);
      const outputs: Arr[] = [];
      for (let t = 0; t < length; t++) {
        const gates = xs.ref.slice([], t).add(np.matmul(h, p[`lstm${l}.whh`].ref));
        [h, c] = lstmCell(gates, c, hidden);
        if (l < layers - 1) outputs.push(h.ref);
      }
      xs.dispose();
      c.dispose();
      if (l < layers - 1) {
        h.dispose();
        input = np.stack(outputs, 1);
      } else last = h;
    }
    return crossEntropy(linear(p, 'head', last as Arr), y.ref);
  });
  return { params, loss };
}

function layerNorm(p: Params, name: string, x: Arr): Arr {
  const mean = x.ref.mean(-1, { keepdims: true });
  const centered = x.sub(mean);
  const variance = np.square(centered.ref).mean(-1, { keepdims: true });
  return centered
    .div(np.sqrt(variance.add(1e-5)))
    .mul(p[`${name}.g`].ref)
    .add(p[`${name}.b`].ref);
}

/**
 * ./sequence.ts's Transformer classifier: 2 post-norm encoder blocks (4-head self-attention, ReLU
 * feed-forward, dropout 0.1 where PyTorch has it), mean over time, a dense head; trained with
 * AdamW. Data: rows [B·length, dModel], one-hot labels [B, classes], a PRNG key.
 */
export function transformer(rand: () => number, batch: number): { params: Params; loss: LossFn } {
  const { dModel: d, heads, feedForward: f, layers, length, classes } = TRANSFORMER_STEP;
  const dh = d / heads;
  const params: Params = {};
  for (let l = 0; l < layers; l++) {
    for (const w of ['q', 'k', 'v', 'o']) dense(params, `b${l}.${w}`, d, d, rand);
    dense(params, `b${l}.ff1`, d, f, rand);
    dense(params, `b${l}.ff2`, f, d, rand);
    for (const n of ['ln1', 'ln2']) {
      params[`b${l}.${n}.g`] = np.ones([d]);
      params[`b${l}.${n}.b`] = np.zeros([d]);
    }
  }
  dense(params, 'head', d, classes, rand);
  const rate = 0.1;
  const loss = owning((p, [x, y, key]) => {
    const keys = random.split(key.ref, 4 * layers);
    let k = 0;
    const drop = (a: Arr) => dropout(a, keys.ref.slice(k++), rate);
    // [B·length, d] → [B, heads, length, dh]
    const split = (a: Arr) => a.reshape([batch, length, heads, dh]).transpose([0, 2, 1, 3]);
    let h = x.ref;
    for (let l = 0; l < layers; l++) {
      const b = `b${l}`;
      const q = split(linear(p, `${b}.q`, h.ref));
      const kk = split(linear(p, `${b}.k`, h.ref));
      const v = split(linear(p, `${b}.v`, h.ref));
      const scores = np.matmul(q, kk.transpose([0, 1, 3, 2])).mul(1 / Math.sqrt(dh));
      const attention = drop(nn.softmax(scores, -1));
      const merged = np
        .matmul(attention, v)
        .transpose([0, 2, 1, 3])
        .reshape([batch * length, d]);
      h = layerNorm(p, `${b}.ln1`, h.add(drop(linear(p, `${b}.o`, merged))));
      const ff = linear(p, `${b}.ff2`, drop(nn.relu(linear(p, `${b}.ff1`, h.ref))));
      h = layerNorm(p, `${b}.ln2`, h.add(drop(ff)));
    }
    keys.dispose();
    const pooled = h.reshape([batch, length, d]).mean(1);
    return crossEntropy(linear(p, 'head', pooled), y.ref);
  });
  return { params, loss };
}
