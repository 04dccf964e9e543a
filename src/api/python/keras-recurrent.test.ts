/**
 * Keras's SimpleRNN, LSTM, GRU (both reset_after forms) and Bidirectional against float64 NumPy
 * implementations of their documented formulas (testing/keras_recurrent_reference.py): outputs
 * (return_sequences, return_state, go_backwards, initial_state) and the gradients GradientTape
 * gives for the input and every weight, from the same weights (set_weights) and random inputs;
 * Embedding(mask_zero=True) and Masking feeding LSTM, GRU and Bidirectional with padded batches, whose masked
 * steps follow Keras's backend.rnn. Within 1e-3 relative, as the issue asks of recurrent stacks.
 */
import { describe, expect, it } from 'vitest';
import { rng } from '../../engine/testing/harness';
import { describeAgainstFormulas } from './testing/keras-reference';
import { expectNear } from './testing/peer-program';
import { startTfPython, tfName } from './testing/tf-python';
import OURS from './testing/keras_recurrent_program.py?raw';
import REFERENCE from './testing/keras_recurrent_reference.py?raw';

const { devices, python } = await startTfPython();
const rand = rng(3737);
type Nested = number | Nested[];
const randomTensor = (shape: readonly number[], scale: number): Nested =>
  shape.length === 0
    ? (rand() * 2 - 1) * scale
    : Array.from({ length: shape[0] }, () => randomTensor(shape.slice(1), scale));

interface LayerSpec {
  class: string;
  args: unknown[];
  kwargs: Record<string, unknown>;
  layer?: LayerSpec;
}

const [B, T, F] = [2, 4, 3];
const GATES: Record<string, number> = { SimpleRNN: 1, LSTM: 4, GRU: 3 };

/** Keras's weight shapes of a recurrent layer on `inFeatures` inputs. */
function weightShapes(spec: LayerSpec, inFeatures: number): number[][] {
  const u = spec.args[0] as number;
  const g = GATES[spec.class] * u;
  const resetAfter = spec.class === 'GRU' && spec.kwargs.reset_after !== false;
  return [[inFeatures, g], [u, g], resetAfter ? [2, g] : [g]];
}

/** The shapes of what the layer returns (Keras's list with return_state). */
function outputShapes(spec: LayerSpec): number[][] {
  const inner = spec.layer ?? spec;
  const u = inner.args[0] as number;
  const kw = inner.kwargs;
  let width = u;
  if (spec.layer && (spec.kwargs.merge_mode ?? 'concat') === 'concat') width = 2 * u;
  const y = kw.return_sequences ? [B, T, width] : [B, width];
  if (!kw.return_state) return [y];
  const states = inner.class === 'LSTM' ? 2 : 1;
  return [y, ...Array.from({ length: states * (spec.layer ? 2 : 1) }, () => [B, u])];
}

function recurrentCase(spec: LayerSpec, extra: Record<string, unknown> = {}) {
  const inner = spec.layer ?? spec;
  const shapes = weightShapes(inner, F);
  const all = spec.layer ? [...shapes, ...shapes] : shapes;
  return {
    layer: spec,
    input_shape: [T, F],
    x: randomTensor([B, T, F], 1.5),
    weights: all.map((s) => randomTensor(s, 0.6)),
    upstream: outputShapes(spec).map((s) => randomTensor(s, 1)),
    ...extra,
  };
}

/** Embedding(mask_zero=True) → spec on a padded batch (zeros after each sequence, one inside). */
function maskedCase(spec: LayerSpec) {
  const [vocab, dim] = [6, 3];
  const inner = spec.layer ?? spec;
  const shapes = weightShapes(inner, dim);
  const all = spec.layer ? [...shapes, ...shapes] : shapes;
  return {
    layer: spec,
    input_shape: [T, dim],
    vocab,
    dim,
    ids: [
      [3, 1, 0, 0],
      [5, 0, 2, 4],
    ],
    embeddings: randomTensor([vocab, dim], 1.2),
    weights: all.map((s) => randomTensor(s, 0.6)),
    upstream: outputShapes(spec).map((s) => randomTensor(s, 1)),
  };
}

/** Masking(maskValue) → spec on float steps, some of them all maskValue (padding). */
function maskingCase(spec: LayerSpec, maskValue: number) {
  const c = recurrentCase(spec);
  const x = c.x as number[][][];
  for (const [b, t] of [
    [0, 2],
    [0, 3],
    [1, 1],
  ])
    x[b][t] = x[b][t].map(() => maskValue);
  return { ...c, mask_value: maskValue };
}

const rnn = (cls: string, units: number, kwargs: Record<string, unknown> = {}): LayerSpec => ({
  class: cls,
  args: [units],
  kwargs,
});
const bidirectional = (layer: LayerSpec, kwargs: Record<string, unknown> = {}): LayerSpec => ({
  class: 'Bidirectional',
  args: [],
  kwargs,
  layer,
});

const CASES = [
  ['SimpleRNN, return_sequences', recurrentCase(rnn('SimpleRNN', 4, { return_sequences: true }))],
  [
    'SimpleRNN relu, go_backwards',
    recurrentCase(rnn('SimpleRNN', 4, { activation: 'relu', go_backwards: true })),
  ],
  ['LSTM, last output', recurrentCase(rnn('LSTM', 4))],
  [
    'LSTM, return_state + go_backwards + return_sequences',
    recurrentCase(
      rnn('LSTM', 4, { return_state: true, go_backwards: true, return_sequences: true }),
    ),
  ],
  [
    'LSTM, initial_state',
    recurrentCase(rnn('LSTM', 3, { return_sequences: true }), {
      initial_state: [randomTensor([B, 3], 0.8), randomTensor([B, 3], 0.8)],
    }),
  ],
  [
    'LSTM, sigmoid/tanh activations (separate ops)',
    recurrentCase(rnn('LSTM', 3, { activation: 'sigmoid', recurrent_activation: 'tanh' })),
  ],
  [
    'GRU reset_after=True, return_sequences',
    recurrentCase(rnn('GRU', 4, { return_sequences: true })),
  ],
  [
    'GRU reset_after=True, return_state + go_backwards',
    recurrentCase(rnn('GRU', 4, { return_state: true, go_backwards: true })),
  ],
  [
    'GRU reset_after=True, sigmoid activation (separate ops)',
    recurrentCase(rnn('GRU', 3, { activation: 'sigmoid', return_sequences: true })),
  ],
  [
    'GRU reset_after=False, return_state',
    recurrentCase(
      rnn('GRU', 4, { reset_after: false, return_state: true, return_sequences: true }),
    ),
  ],
  [
    'Bidirectional(GRU), merge_mode sum',
    recurrentCase(bidirectional(rnn('GRU', 3), { merge_mode: 'sum' })),
  ],
  [
    'Bidirectional(LSTM, return_sequences), concat',
    recurrentCase(bidirectional(rnn('LSTM', 3, { return_sequences: true }))),
  ],
  [
    'Embedding(mask_zero) → LSTM(return_sequences)',
    maskedCase(rnn('LSTM', 3, { return_sequences: true })),
  ],
  ['Embedding(mask_zero) → GRU, last output', maskedCase(rnn('GRU', 3))],
  [
    'Masking(-1) → LSTM(return_sequences)',
    maskingCase(rnn('LSTM', 3, { return_sequences: true }), -1),
  ],
  [
    'Embedding(mask_zero) → Bidirectional(LSTM(return_sequences)), ave',
    maskedCase(bidirectional(rnn('LSTM', 3, { return_sequences: true }), { merge_mode: 'ave' })),
  ],
] as const;

interface Result {
  shapes: number[][];
  y: number[][];
  grads: number[][];
}

// In parts, so each device's test stays well inside the timeout on SwiftShader.
const PARTS = [
  ['SimpleRNN and LSTM', CASES.slice(0, 6)],
  ['GRU', CASES.slice(6, 10)],
  ['Bidirectional and masked batches', CASES.slice(10)],
] as const;

for (const [what, cases] of PARTS) {
  describeAgainstFormulas<Result[]>(
    'keras-recurrent.test.ts',
    `Keras recurrent layers against their documented formulas (float64 NumPy): ${what}`,
    'values and gradients agree on %s',
    {
      python,
      ours: OURS,
      reference: REFERENCE,
      input: { cases: cases.map(([, c]) => c) },
      devices: devices.map((d) => tfName(d.name)),
    },
    (ours, reference) => {
      expect(ours.length).toBe(cases.length);
      cases.forEach(([title], i) => {
        expect(ours[i].shapes, `${title}: shapes`).toEqual(reference[i].shapes);
        ours[i].y.forEach((y, k) =>
          expectNear(y, reference[i].y[k], 1e-3, `${title}: output ${k}`),
        );
        expect(ours[i].grads.length, `${title}: gradients`).toBe(reference[i].grads.length);
        ours[i].grads.forEach((g, k) =>
          expectNear(g, reference[i].grads[k], 1e-3, `${title}: gradient ${k}`),
        );
      });
    },
  );
}

const SUMMARY = `Model: "sequential"
_________________________________________________________________
Layer (type)                 Output Shape              Param #   
=================================================================
embedding (Embedding)        (None, 6, 8)              160       
_________________________________________________________________
lstm (LSTM)                  (None, 6, 16)             1600      
_________________________________________________________________
gru (GRU)                    (None, 8)                 624       
_________________________________________________________________
dense (Dense)                (None, 1)                 9         
=================================================================
Total params: 2,393
Trainable params: 2,393
Non-trainable params: 0
_________________________________________________________________
`;

describe('Keras recurrent models from Python', () => {
  it.each(devices.map((d) => tfName(d.name)))(
    'Embedding(mask_zero) → LSTM → GRU → Dense: summary, then fit lowers the loss on %s',
    async (device) => {
      const printed = await python.output(`
with tf.device("${device}"):
    tf.keras.backend.clear_session()
    tf.random.set_seed(11)
    model = tf.keras.Sequential([
        tf.keras.layers.Embedding(20, 8, input_length=6, mask_zero=True),
        tf.keras.layers.LSTM(16, return_sequences=True),
        tf.keras.layers.GRU(8),
        tf.keras.layers.Dense(1),
    ])
    model.summary()
    ids = tf.random.uniform((32, 6), minval=1, maxval=20, dtype=tf.int32)
    lengths = tf.random.uniform((32, 1), minval=2, maxval=7, dtype=tf.int32)
    x = ids * tf.cast(tf.range(6)[None, :] < lengths, tf.int32)  # zero padding after each length
    y = tf.cast(lengths, tf.float32) / 6.0
    model.compile(optimizer=tf.keras.optimizers.Adam(0.02), loss="mse")
    history = model.fit(x, y, epochs=3, batch_size=32, verbose=0)
    print(history.history["loss"])
`);
      const [summary, losses] = [printed.slice(0, SUMMARY.length), printed.slice(SUMMARY.length)];
      expect(summary).toBe(SUMMARY);
      const loss = JSON.parse(losses.trim()) as number[];
      expect(loss).toHaveLength(3);
      expect(loss.every(Number.isFinite)).toBe(true);
      expect(loss[2]).toBeLessThan(loss[0]);
    },
  );

  it("raises Keras's errors with Keras's exception types", async () => {
    const printed = await python.output(`
for make in (
    lambda: tf.keras.layers.LSTM(0),
    lambda: tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(2), merge_mode="max"),
    lambda: tf.keras.layers.GRU(2, stateful=True),
    lambda: tf.keras.layers.LSTM(2)(tf.zeros((2, 3, 4)), initial_state=[tf.zeros((2, 2))]),
):
    try:
        make()
    except (ValueError, TypeError) as error:
        print(type(error).__name__ + ": " + str(error))
`);
    expect(printed.trim().split('\n')).toEqual([
      'ValueError: Received an invalid value for argument `units`, expected a positive integer, got 0.',
      'ValueError: Invalid merge mode. Received: max. Merge mode should be one of {"sum", "mul", "ave", "concat", None}',
      'TypeError: GRU: stateful=True is not supported (states are not kept between calls)',
      expect.stringMatching(
        /^ValueError: Layer lstm(_\d+)? expects 2 state\(s\), but it received 1 initial state\(s\)\.$/,
      ),
    ]);
  });
});
