/**
 * Issue 36's sequence steps in TensorFlow.js 4.22 (./sequence.ts is ours): the 2-layer LSTM
 * classifier with its layers API (`tf.layers.lstm`, Adam, `trainOnBatch`), and the 2-layer
 * Transformer encoder written by hand with tf ops (TF.js has no attention layer): post-norm
 * blocks of 4-head self-attention and a ReLU feed-forward network, dropout 0.1 as PyTorch's
 * default, mean over the sequence, a linear head, AdamW's decoupled decay applied after Adam.
 */
import * as tf from '@tensorflow/tfjs';
import { LSTM_STEP, TRANSFORMER_STEP } from './sequence';

export function tfjsLstmStep(batch: number): { run(): Promise<void>; cleanup(): void } {
  const { features, hidden, layers, length, classes } = LSTM_STEP;
  const model = tf.sequential();
  for (let i = 0; i < layers; i++) {
    model.add(
      tf.layers.lstm({
        units: hidden,
        returnSequences: i < layers - 1,
        ...(i === 0 ? { inputShape: [length, features] } : {}),
      }),
    );
  }
  model.add(tf.layers.dense({ units: classes }));
  model.compile({
    optimizer: tf.train.adam(1e-3),
    loss: (yTrue: tf.Tensor, yPred: tf.Tensor) => tf.losses.softmaxCrossEntropy(yTrue, yPred),
  });
  const x = tf.randomNormal([batch, length, features]);
  const labels = tf.floor(tf.randomUniform([batch], 0, classes)).toInt();
  const y = tf.oneHot(labels, classes).toFloat();
  labels.dispose();
  return {
    run: async () => {
      await model.trainOnBatch(x, y);
    },
    cleanup: () => {
      tf.dispose([x, y]);
      model.dispose();
    },
  };
}

interface Block {
  wq: tf.Variable;
  wk: tf.Variable;
  wv: tf.Variable;
  wo: tf.Variable;
  w1: tf.Variable;
  w2: tf.Variable;
  bq: tf.Variable;
  bk: tf.Variable;
  bv: tf.Variable;
  bo: tf.Variable;
  b1: tf.Variable;
  b2: tf.Variable;
  g1: tf.Variable;
  n1: tf.Variable;
  g2: tf.Variable;
  n2: tf.Variable;
}

const dropout = (x: tf.Tensor, rate = 0.1) => tf.dropout(x, rate);

function layerNorm(x: tf.Tensor, gain: tf.Tensor, bias: tf.Tensor): tf.Tensor {
  const { mean, variance } = tf.moments(x, -1, true);
  return x.sub(mean).div(variance.add(1e-5).sqrt()).mul(gain).add(bias);
}

/** x: [batch·length, d] rows → the block's output rows. */
function block(p: Block, x: tf.Tensor2D, batch: number): tf.Tensor2D {
  const { dModel: d, heads, length } = TRANSFORMER_STEP;
  const dh = d / heads;
  // [batch·length, d] → [batch, heads, length, dh]
  const split = (t: tf.Tensor) => t.reshape([batch, length, heads, dh]).transpose([0, 2, 1, 3]);
  const q = split(x.matMul(p.wq).add(p.bq));
  const k = split(x.matMul(p.wk).add(p.bk));
  const v = split(x.matMul(p.wv).add(p.bv));
  const scores = tf.matMul(q, k, false, true).div(Math.sqrt(dh));
  const attn = dropout(tf.softmax(scores));
  const merged = tf
    .matMul(attn, v)
    .transpose([0, 2, 1, 3])
    .reshape([batch * length, d]);
  const h = layerNorm(x.add(dropout(merged.matMul(p.wo).add(p.bo))), p.g1, p.n1) as tf.Tensor2D;
  const ff = dropout(tf.relu(h.matMul(p.w1).add(p.b1)))
    .matMul(p.w2)
    .add(p.b2);
  return layerNorm(h.add(dropout(ff)), p.g2, p.n2) as tf.Tensor2D;
}

export function tfjsTransformerStep(batch: number): { run(): Promise<void>; cleanup(): void } {
  const { dModel: d, feedForward: f, layers, length, classes } = TRANSFORMER_STEP;
  // PyTorch's Linear initialisation range, U(±1/√fan_in).
  const weight = (rows: number, cols: number) =>
    tf.variable(tf.randomUniform([rows, cols], -1 / Math.sqrt(rows), 1 / Math.sqrt(rows)));
  const vector = (n: number, value = 0) => tf.variable(tf.fill([n], value));
  const blocks: Block[] = Array.from({ length: layers }, () => ({
    wq: weight(d, d),
    wk: weight(d, d),
    wv: weight(d, d),
    wo: weight(d, d),
    w1: weight(d, f),
    w2: weight(f, d),
    bq: vector(d),
    bk: vector(d),
    bv: vector(d),
    bo: vector(d),
    b1: vector(f),
    b2: vector(d),
    g1: vector(d, 1),
    n1: vector(d),
    g2: vector(d, 1),
    n2: vector(d),
  }));
  const headW = weight(d, classes);
  const headB = vector(classes);
  const variables = [...blocks.flatMap((b) => Object.values(b) as tf.Variable[]), headW, headB];
  const optimizer = tf.train.adam(1e-3);
  const lr = 1e-3;
  const decay = 0.01;
  const x = tf.randomNormal([batch * length, d]) as tf.Tensor2D;
  const labels = tf.floor(tf.randomUniform([batch], 0, classes)).toInt();
  const y = tf.oneHot(labels, classes).toFloat();
  labels.dispose();
  return {
    run: async () => {
      // AdamW: decay the weights by lr·λ, then Adam's step on the gradients (as torch.optim.AdamW).
      tf.tidy(() => {
        for (const v of variables) v.assign(v.mul(1 - lr * decay));
      });
      const loss = optimizer.minimize(
        () => {
          let h = x;
          for (const b of blocks) h = block(b, h, batch);
          const pooled = h.reshape([batch, length, d]).mean(1);
          return tf.losses.softmaxCrossEntropy(y, pooled.matMul(headW).add(headB)) as tf.Scalar;
        },
        true,
        variables,
      );
      await loss?.data();
      loss?.dispose();
    },
    cleanup: () => {
      tf.dispose([x, y, ...variables]);
      optimizer.dispose();
    },
  };
}
