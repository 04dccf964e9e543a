/**
 * Keras layers and models subclassed in Python (tensorflow/keras/_subclassing.py over the TS twins
 * PythonLayer / PythonModel): the advanced quickstart's pattern — a custom Linear layer with
 * add_weight in build, a Model holding it and a Dense layer, `training` passed to call — against
 * float64 NumPy formulas from the same weights: outputs, GradientTape gradients for the input and
 * every trainable variable, and the weights after one SGD fit epoch. Also Keras's summary of a
 * subclassed model ("multiple" shapes), its errors, and the user's frame when `call` raises in fit.
 */
import { expect } from 'vitest';
import { rng } from '../../engine/testing/harness';
import { describeAgainstFormulas } from './testing/keras-reference';
import { expectNear } from './testing/peer-program';
import { startTfPython, tfName } from './testing/tf-python';
import OURS from './testing/keras_subclassing_program.py?raw';
import REFERENCE from './testing/keras_subclassing_reference.py?raw';

const { devices, python } = await startTfPython();
const rand = rng(3707);
const matrix = (rows: number, cols: number, scale: number) =>
  Array.from({ length: rows }, () => Array.from({ length: cols }, () => (rand() * 2 - 1) * scale));
const INPUT = {
  x: matrix(6, 4, 1.5),
  w: matrix(4, 5, 0.7),
  b: matrix(1, 5, 0.3)[0],
  kernel: matrix(5, 3, 0.8),
  bias: matrix(1, 3, 0.4)[0],
  upstream: matrix(6, 3, 1),
  target: matrix(6, 3, 1),
};

interface Numbers {
  outputs: Record<string, number[]>;
  grads: Record<string, number[][]>;
  after_fit: number[][];
}
interface Ours extends Numbers {
  summary: string;
  seen_shape: string;
  layers_are_ours: [boolean, string];
  names: string[];
  count: number;
  isinstance: boolean[];
  errors: Record<string, [string, string, string] | null>;
  stacked_row: string;
  tracked: Record<string, unknown[]>;
}

const SUMMARY = `Model: "my_model"
_________________________________________________________________
Layer (type)                 Output Shape              Param #   
=================================================================
linear (Linear)              multiple                  25        
_________________________________________________________________
dense (Dense)                multiple                  18        
=================================================================
Total params: 43
Trainable params: 43
Non-trainable params: 0
_________________________________________________________________`;

describeAgainstFormulas<Ours, Numbers>(
  'keras-subclassing.test.ts',
  'Keras Layer and Model subclassed in Python against their formulas (float64 NumPy)',
  'values, gradients, a fit step, summary and errors agree on %s',
  {
    python,
    ours: OURS,
    reference: REFERENCE,
    input: INPUT,
    devices: devices.map((d) => tfName(d.name)),
  },
  (ours, reference) => {
    const variables = ['x', 'w', 'b', 'kernel', 'bias'];
    for (const training of ['False', 'True']) {
      expectNear(ours.outputs[training], reference.outputs[training], 1e-4, `y (${training})`);
      expect(ours.grads[training].length).toBe(5);
      variables.forEach((name, i) =>
        expectNear(
          ours.grads[training][i],
          reference.grads[training][i],
          1e-4,
          `d/d${name} (${training})`,
        ),
      );
    }
    variables
      .slice(1)
      .forEach((name, i) =>
        expectNear(ours.after_fit[i], reference.after_fit[i], 1e-4, `${name} after fit`),
      );
    expect(ours.summary).toBe(SUMMARY);
    // Keras builds a layer called eagerly with the input's full shape.
    expect(ours.seen_shape).toBe('TensorShape([6, 4])');
    expect(ours.layers_are_ours).toEqual([true, 'JsObject']);
    expect(ours.names).toEqual(['my_model', 'linear', 'dense']);
    expect(ours.count).toBe(43);
    expect(ours.isinstance).toEqual([true, true, true, false]);
    expect(ours.tracked).toEqual({
      keras3_add_weight: [[3, 3], 1],
      reads_back: [true],
      // The inner layer gets its model's training: fit's True, a plain call's unset (None: call's
      // default applies, as in Keras), predict's False.
      training_seen: [true, undefined, false],
      variable_linear: [2, [6.5, 8.5, 10.5, 12.5]],
      compute_sum: [[4, 4], 1, 1],
      functional: [true, [6, 2]],
    });
    expect(ours.stacked_row).toMatch(/^linear_\d \(Linear\) +\(None, 4\) +16 +$/);
    const { errors } = ours;
    expect(errors.summary_unbuilt?.slice(0, 2)).toEqual([
      'ValueError',
      'This model has not yet been built. Build the model first by calling `build()` or calling `fit()` with some data, or specify an `input_shape` argument in the first layer(s) for automatic build.',
    ]);
    expect(errors.count_unbuilt?.slice(0, 2)).toEqual([
      'ValueError',
      "You tried to call `count_params` on layer linear_1, but the layer isn't built. You can build it manually via: `linear_1.build(batch_input_shape)`.",
    ]);
    expect(errors.no_super?.slice(0, 2)).toEqual([
      'RuntimeError',
      'It looks like you are subclassing `Model` and you forgot to call `super().__init__()`. Always start with this line.',
    ]);
    expect(errors.train_step?.slice(0, 2)).toEqual([
      'NotImplementedError',
      "CustomStep.train_step: fit runs Keras's own step here and does not call an overridden train_step; write the loop with tf.GradientTape instead",
    ]);
    const [kind, message, trace] = errors.call_raises ?? ['', '', ''];
    expect([kind, message]).toEqual(['ValueError', 'bad input in call']);
    // The user's own frame last: the line of `call` that raised (cells have no source lines here).
    expect(trace).toMatch(/line \d+, in call\n(\s+raise .*\n)?ValueError: bad input in call\n$/);
  },
);
