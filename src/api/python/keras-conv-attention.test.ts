/**
 * Keras's convolution variants and MultiHeadAttention against float64 NumPy implementations of
 * their documented formulas (testing/keras_conv_attention_reference.py), from the same weights
 * (set_weights) and inputs: outputs, output shapes (and compute_output_shape), attention scores,
 * and GradientTape's gradients for the inputs and every weight. Then Keras's errors for bad
 * arguments and inputs.
 */
import { describe, expect, it } from 'vitest';
import { rng } from '../../engine/testing/harness';
import { describeAgainstFormulas } from './testing/keras-reference';
import { expectNear } from './testing/peer-program';
import { startTfPython, tfName } from './testing/tf-python';
import OURS from './testing/keras_conv_attention_program.py?raw';
import REFERENCE from './testing/keras_conv_attention_reference.py?raw';

const { devices, python } = await startTfPython();
const rand = rng(3737);

type Nested = number | Nested[];
const tensor = (shape: number[], scale = 1): Nested =>
  shape.length === 0
    ? (rand() * 2 - 1) * scale
    : Array.from({ length: shape[0] }, () => tensor(shape.slice(1), scale));

interface Case {
  layer: string;
  kwargs: Record<string, unknown>;
  [input: string]: unknown;
}

const conv = (
  layer: string,
  kwargs: Record<string, unknown>,
  x: number[],
  weights: number[][],
): Case => ({ layer, kwargs, x: tensor(x, 2), weights: weights.map((w) => tensor(w, 0.7)) });

const CONV_CASES: Case[] = [
  // 'same' with an even kernel and stride 2 pads one more after than before
  conv(
    'Conv1D',
    { filters: 3, kernel_size: 4, strides: 2, padding: 'same' },
    [2, 9, 2],
    [[4, 2, 3], [3]],
  ),
  conv(
    'Conv1D',
    { filters: 2, kernel_size: 3, padding: 'causal', dilation_rate: 2, activation: 'tanh' },
    [2, 7, 2],
    [[3, 2, 2], [2]],
  ),
  conv('Conv1D', { filters: 4, kernel_size: 3, groups: 2 }, [2, 6, 4], [[3, 2, 4], [4]]),
  conv(
    'Conv2D',
    { filters: 3, kernel_size: [4, 3], strides: 2, padding: 'same' },
    [2, 7, 6, 2],
    [[4, 3, 2, 3], [3]],
  ),
  conv(
    'Conv2D',
    { filters: 2, kernel_size: 3, dilation_rate: 2, padding: 'same', activation: 'tanh' },
    [1, 7, 6, 2],
    [[3, 3, 2, 2], [2]],
  ),
  conv(
    'Conv2D',
    { filters: 4, kernel_size: 3, groups: 2, use_bias: false },
    [1, 5, 5, 4],
    [[3, 3, 2, 4]],
  ),
  conv(
    'DepthwiseConv2D',
    { kernel_size: 3, strides: 2, padding: 'same', depth_multiplier: 2 },
    [2, 6, 5, 3],
    [[3, 3, 3, 2], [6]],
  ),
  conv(
    'DepthwiseConv2D',
    { kernel_size: [2, 3], dilation_rate: 2 },
    [1, 6, 7, 2],
    [[2, 3, 2, 1], [2]],
  ),
  conv(
    'SeparableConv2D',
    { filters: 4, kernel_size: 3, depth_multiplier: 2, padding: 'same' },
    [1, 5, 5, 2],
    [[3, 3, 2, 2], [1, 1, 4, 4], [4]],
  ),
  conv(
    'DepthwiseConv1D',
    { kernel_size: 3, strides: 2, padding: 'same', depth_multiplier: 2, activation: 'tanh' },
    [2, 7, 2],
    [[3, 2, 2], [4]],
  ),
  conv(
    'SeparableConv1D',
    { filters: 3, kernel_size: 2, dilation_rate: 2, padding: 'same' },
    [2, 6, 3],
    [[2, 3, 1], [1, 3, 3], [3]],
  ),
  conv(
    'Conv2DTranspose',
    { filters: 3, kernel_size: 3, strides: 2 },
    [2, 3, 4, 2],
    [[3, 3, 3, 2], [3]],
  ),
  conv(
    'Conv2DTranspose',
    { filters: 2, kernel_size: 4, strides: 2, padding: 'same' },
    [1, 3, 3, 3],
    [[4, 4, 2, 3], [2]],
  ),
  conv(
    'Conv2DTranspose',
    { filters: 2, kernel_size: 3, strides: 2, padding: 'same', output_padding: 1 },
    [1, 3, 2, 2],
    [[3, 3, 2, 2], [2]],
  ),
  // strides above the kernel: the output runs past the scattered copies (zeros there, plus bias)
  conv(
    'Conv2DTranspose',
    { filters: 2, kernel_size: 2, strides: 3, activation: 'tanh' },
    [1, 2, 3, 2],
    [[2, 2, 2, 2], [2]],
  ),
  conv(
    'Conv2DTranspose',
    { filters: 2, kernel_size: 3, dilation_rate: 2, padding: 'same' },
    [1, 4, 4, 2],
    [[3, 3, 2, 2], [2]],
  ),
  conv(
    'Conv1DTranspose',
    { filters: 2, kernel_size: 3, strides: 2, padding: 'same' },
    [2, 4, 3],
    [[3, 2, 3], [2]],
  ),
];

/** Keras's weights of a MultiHeadAttention: query, key, value, attention_output (kernel, bias). */
function mhaWeights(
  dims: { q: number; k: number; v: number },
  heads: number,
  keyDim: number,
  valueDim: number,
  out: number[],
) {
  return [
    [dims.q, heads, keyDim],
    [heads, keyDim],
    [dims.k, heads, keyDim],
    [heads, keyDim],
    [dims.v, heads, valueDim],
    [heads, valueDim],
    [heads, valueDim, ...out],
    out,
  ].map((shape) => tensor(shape, 0.6));
}

/** A random 0/1 mask [B, T, S] in which every query attends to at least its own position. */
const attentionMask = (b: number, t: number, s: number): number[][][] =>
  Array.from({ length: b }, () =>
    Array.from({ length: t }, (_, i) =>
      Array.from({ length: s }, (_, j) => (i === j || rand() > 0.4 ? 1 : 0)),
    ),
  );

const ATTENTION_CASES: Case[] = [
  // self-attention with an attention mask
  {
    layer: 'MultiHeadAttention',
    kwargs: { num_heads: 2, key_dim: 3 },
    query: tensor([2, 4, 5], 1.5),
    mask: attentionMask(2, 4, 4),
    weights: mhaWeights({ q: 5, k: 5, v: 5 }, 2, 3, 3, [5]),
  },
  // cross-attention with a separate key, value_dim, output_shape and the causal mask
  {
    layer: 'MultiHeadAttention',
    kwargs: { num_heads: 2, key_dim: 2, value_dim: 3, output_shape: 4 },
    query: tensor([2, 3, 5], 1.5),
    value: tensor([2, 5, 3], 1.5),
    key: tensor([2, 5, 2], 1.5),
    causal: true,
    weights: mhaWeights({ q: 5, k: 2, v: 3 }, 2, 2, 3, [4]),
  },
  // rank 4: attention over both inner axes jointly (the default)
  {
    layer: 'MultiHeadAttention',
    kwargs: { num_heads: 2, key_dim: 2 },
    query: tensor([1, 2, 3, 4], 1.5),
    weights: mhaWeights({ q: 4, k: 4, v: 4 }, 2, 2, 2, [4]),
  },
  // rank 4, attention along axis 2 only (axis 1 acts as a batch axis), query and value differ
  {
    layer: 'MultiHeadAttention',
    kwargs: { num_heads: 1, key_dim: 2, attention_axes: [2] },
    query: tensor([1, 2, 3, 4], 1.5),
    value: tensor([1, 2, 3, 4], 1.5),
    weights: mhaWeights({ q: 4, k: 4, v: 4 }, 1, 2, 2, [4]),
  },
];

interface CaseResult {
  y: number[];
  shape: number[];
  computed?: (number | null)[];
  scores?: number[];
  scores_shape?: number[];
  grads: number[][];
}

function compare(
  cases: Case[],
  ours: { cases: CaseResult[] },
  reference: { cases: CaseResult[] },
  tol: number,
): void {
  cases.forEach((c, i) => {
    const [o, r] = [ours.cases[i], reference.cases[i]];
    const what = `${c.layer} ${JSON.stringify(c.kwargs)}`;
    expect(o.shape, `${what}: shape`).toEqual(r.shape);
    expect(o.computed, `${what}: compute_output_shape`).toEqual(r.shape.slice(1));
    expectNear(o.y, r.y, tol, `${what}: y`);
    if (r.scores) {
      expect(o.scores_shape, `${what}: scores shape`).toEqual(r.scores_shape);
      expectNear(o.scores ?? [], r.scores, tol, `${what}: scores`);
    }
    expect(o.grads.length, `${what}: gradients`).toBe(r.grads.length);
    r.grads.forEach((g, j) => expectNear(o.grads[j], g, tol, `${what}: gradient ${j}`));
  });
}

const run = {
  python,
  ours: OURS,
  reference: REFERENCE,
  devices: devices.map((d) => tfName(d.name)),
};

// Two suites, so that each device's run stays well inside the test timeout on SwiftShader.
const TRANSPOSED = CONV_CASES.filter((c) => c.layer.includes('Transpose'));
const FORWARD = CONV_CASES.filter((c) => !c.layer.includes('Transpose'));

describeAgainstFormulas<{ cases: CaseResult[] }>(
  'keras-conv-attention.test.ts',
  'Keras Conv1D/2D, DepthwiseConv2D and SeparableConv2D against their documented formulas (float64 NumPy)',
  'values, shapes and gradients agree on %s',
  { ...run, input: { cases: FORWARD } },
  (ours, reference) => compare(FORWARD, ours, reference, 1e-4),
);

describeAgainstFormulas<{ cases: CaseResult[] }>(
  'keras-conv-attention.test.ts',
  'Keras Conv1DTranspose/Conv2DTranspose against TF conv_transpose (float64 NumPy)',
  'values, shapes and gradients agree on %s',
  { ...run, input: { cases: TRANSPOSED } },
  (ours, reference) => compare(TRANSPOSED, ours, reference, 1e-4),
);

describeAgainstFormulas<{ cases: CaseResult[] }>(
  'keras-conv-attention.test.ts',
  'Keras MultiHeadAttention against its documented formula (float64 NumPy)',
  'values, scores, shapes and gradients agree on %s',
  { ...run, input: { cases: ATTENTION_CASES } },
  (ours, reference) => compare(ATTENTION_CASES, ours, reference, 1e-3),
);

describe("Keras's shapes, parameter counts and errors", () => {
  it("summarises a model of the convolution variants with Keras's shapes and counts", async () => {
    const printed = await python.output(`
tf.keras.backend.clear_session()
model = models.Sequential([
    layers.Conv2D(4, 3, strides=2, padding="same", groups=2, input_shape=(9, 8, 2)),
    layers.DepthwiseConv2D(3, depth_multiplier=2, padding="same"),
    layers.SeparableConv2D(4, 3, depth_multiplier=2),
    layers.Conv2DTranspose(3, 4, strides=2, padding="same"),
    layers.Conv2DTranspose(2, 3, strides=2, output_padding=1),
])
model.summary()
model2 = models.Sequential([layers.Conv1D(3, 4, padding="causal", dilation_rate=2, input_shape=(10, 2)), layers.Conv1DTranspose(2, 3, strides=2)])
print(model2.output_shape)
mha = layers.MultiHeadAttention(num_heads=2, key_dim=3, value_dim=4, output_shape=6)
mha.build((None, 7, 5), (None, 9, 3))
print(mha.count_params(), [w.name for w in mha.named_weights])
print([list(w.shape) for w in mha.weights])
print(mha.compute_output_shape((None, 7, 5), (None, 9, 3)))
`);
    expect(printed).toBe(
      [
        'Model: "sequential"',
        '_________________________________________________________________',
        'Layer (type)                 Output Shape              Param #   ',
        '=================================================================',
        'conv2d (Conv2D)              (None, 5, 4, 4)           40        ',
        '_________________________________________________________________',
        'depthwise_conv2d (DepthwiseC (None, 5, 4, 8)           80        ',
        '_________________________________________________________________',
        'separable_conv2d (SeparableC (None, 3, 2, 4)           212       ',
        '_________________________________________________________________',
        'conv2d_transpose (Conv2DTran (None, 6, 4, 3)           195       ',
        '_________________________________________________________________',
        'conv2d_transpose_1 (Conv2DTr (None, 14, 10, 2)         56        ',
        '=================================================================',
        'Total params: 583',
        'Trainable params: 583',
        'Non-trainable params: 0',
        '_________________________________________________________________',
        '[None, 21, 2]',
        "146 ['multi_head_attention/query/kernel:0', 'multi_head_attention/query/bias:0', " +
          "'multi_head_attention/key/kernel:0', 'multi_head_attention/key/bias:0', " +
          "'multi_head_attention/value/kernel:0', 'multi_head_attention/value/bias:0', " +
          "'multi_head_attention/attention_output/kernel:0', 'multi_head_attention/attention_output/bias:0']",
        '[[5, 2, 3], [2, 3], [3, 2, 3], [2, 3], [3, 2, 4], [2, 4], [2, 4, 6], [6]]',
        '[None, 7, 6]',
        '',
      ].join('\n'),
    );
  });

  it('builds a functional model with self-attention and predicts as the layer computes', async () => {
    const printed = await python.output(`
tf.keras.backend.clear_session()
inputs = tf.keras.Input(shape=(4, 6))
attention = layers.MultiHeadAttention(num_heads=2, key_dim=3)
outputs = attention(inputs, inputs, use_causal_mask=True)
model = tf.keras.Model(inputs, outputs)
print(model.output_shape, model.count_params())
x = tf.random.uniform((2, 4, 6))
print(bool(tf.reduce_all(model(x) == attention(x, x, use_causal_mask=True))))
`);
    expect(printed).toBe('[None, 4, 6] 168\nTrue\n');
  });

  it("runs the examples of Keras's MultiHeadAttention docstring on symbolic inputs", async () => {
    const printed = await python.output(`
layer = layers.MultiHeadAttention(num_heads=2, key_dim=2)
target = tf.keras.Input(shape=[8, 16])
source = tf.keras.Input(shape=[4, 16])
output_tensor, weights = layer(target, source, return_attention_scores=True)
print(output_tensor.shape)
print(weights.shape)
layer = layers.MultiHeadAttention(num_heads=2, key_dim=2, attention_axes=(2, 3))
input_tensor = tf.keras.Input(shape=[5, 3, 4, 16])
output_tensor = layer(input_tensor, input_tensor)
print(output_tensor.shape)
`);
    // TF 2.x's TensorShape repr of a KerasTensor's shape (Keras 3 prints the tuple)
    expect(printed).toBe(
      'TensorShape([None, 8, 16])\nTensorShape([None, 2, 8, 4])\nTensorShape([None, 5, 3, 4, 16])\n',
    );
  });

  it("raises Keras's errors for bad arguments and inputs", async () => {
    const printed = await python.output(`
tf.keras.backend.clear_session()

def show(make):
    try:
        make()
    except Exception as e:
        print(type(e).__name__, e)

show(lambda: layers.Conv2D(2, 3, padding="causal"))
show(lambda: layers.DepthwiseConv1D(3, padding="causal"))
show(lambda: layers.Conv1D(3, 2, groups=2))
show(lambda: layers.Conv1D(4, 2, groups=2)(tf.zeros((1, 5, 3))))
show(lambda: layers.Conv2D(2, 3, strides=2, dilation_rate=2))
show(lambda: layers.Conv2DTranspose(2, 3, strides=2, output_padding=2))
show(lambda: layers.DepthwiseConv2D(3)(tf.zeros((1, 5, 3))))
show(lambda: layers.MultiHeadAttention(2, 3)(tf.zeros((1, 4, 5)), tf.zeros((1, 6, 5)), key=tf.zeros((1, 5, 5))))
`);
    expect(printed.split('\n')).toEqual([
      "ValueError The `padding` argument must be a list/tuple or one of {'valid', 'same'}. Received: causal",
      "ValueError The `padding` argument must be a list/tuple or one of {'valid', 'same'}. Received: causal",
      'ValueError The number of filters must be evenly divisible by the number of groups. Received: groups=2, filters=3.',
      'ValueError The number of input channels must be evenly divisible by the number of groups. Received groups=2, but the input has 3 channels (full input shape is (None, 5, 3)).',
      'ValueError `strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: strides=(2, 2) and dilation_rate=(2, 2)',
      'ValueError Strides must be greater than output padding. Received strides=(2, 2), output_padding=(2, 2).',
      'ValueError Input 0 of layer "depthwise_conv2d" is incompatible with the layer: expected min_ndim=4, found ndim=3. Full shape received: (None, 5, 3)',
      'ValueError All dimensions of `value` and `key`, except the last one, must be equal. Received: value_shape=(None, 6, 5) and key_shape=(None, 5, 5)',
      '',
    ]);
  });
});
