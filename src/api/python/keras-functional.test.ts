/**
 * The Keras functional API from Python (keras.Input, layers called on KerasTensors, keras.Model
 * over them; src/api/tf/keras/engine/, models/functional.ts, layers/merging.ts): a two-input
 * model with a Dense branch per input, Concatenate, a shared Dense used twice and a residual Add,
 * against float64 NumPy formulas from the same weights — output, GradientTape gradients for the
 * inputs and every weight, a two-output model, one SGD fit epoch and predict on a list of inputs.
 * Also KerasTensor reprs and shapes, the summary as TF 2.x prints a functional model, and Keras's
 * errors.
 */
import { expect } from 'vitest';
import { rng } from '../../engine/testing/harness';
import { describeAgainstFormulas } from './testing/keras-reference';
import { expectNear } from './testing/peer-program';
import { startTfPython, tfName } from './testing/tf-python';
import OURS from './testing/keras_functional_program.py?raw';
import REFERENCE from './testing/keras_functional_reference.py?raw';
import MERGING from './testing/keras_merging_program.py?raw';
import MERGING_REFERENCE from './testing/keras_merging_reference.py?raw';

const { devices, python } = await startTfPython();
const rand = rng(3705);
const matrix = (rows: number, cols: number, scale: number) =>
  Array.from({ length: rows }, () => Array.from({ length: cols }, () => (rand() * 2 - 1) * scale));
const dense = (inputs: number, units: number) => ({
  kernel: matrix(inputs, units, 0.8),
  bias: matrix(1, units, 0.3)[0],
});
const N = 5;
const INPUT = {
  xa: matrix(N, 4, 1.5),
  xb: matrix(N, 3, 1.5),
  branch_a: dense(4, 4),
  branch_b: dense(3, 4),
  shared: dense(8, 5),
  proj: dense(4, 5),
  head: dense(5, 2),
  upstream: matrix(N, 2, 1),
  target: matrix(N, 2, 1),
  target_res: matrix(N, 5, 1),
};
const WEIGHTS = ['branch_a', 'branch_b', 'shared', 'proj', 'head'].flatMap((n) => [
  `${n}.kernel`,
  `${n}.bias`,
]);

interface Numbers {
  y: number[];
  grads: number[][];
  two: number[][];
  after_fit: number[][];
  predicted: number[];
  after_two: number[][];
}
interface Ours extends Numbers {
  predicted_dict: number[];
  reprs: string[];
  shapes: [string, string, string, number];
  names: string[];
  third: string[];
  ids: string;
  inputs: string[];
  count: number;
  summary: string;
  errors: Record<string, [string, string] | null>;
  doubled: number[];
  seq_summary: string;
}

const SUMMARY = `Model: "two_branch"
__________________________________________________________________________________________________
Layer (type)                    Output Shape         Param #     Connected to                     
==================================================================================================
a (InputLayer)                  [(None, 4)]          0                                            
__________________________________________________________________________________________________
b (InputLayer)                  [(None, 3)]          0                                            
__________________________________________________________________________________________________
branch_a (Dense)                (None, 4)            20          a[0][0]                          
__________________________________________________________________________________________________
branch_b (Dense)                (None, 4)            16          b[0][0]                          
__________________________________________________________________________________________________
cat (Concatenate)               (None, 8)            0           branch_a[0][0]                   
                                                                 branch_b[0][0]                   
__________________________________________________________________________________________________
shared (Dense)                  (None, 5)            45          cat[0][0]                        
                                                                 concatenate[0][0]                
__________________________________________________________________________________________________
proj (Dense)                    (None, 5)            25          a[0][0]                          
__________________________________________________________________________________________________
residual (Add)                  (None, 5)            0           shared[0][0]                     
                                                                 proj[0][0]                       
__________________________________________________________________________________________________
concatenate (Concatenate)       (None, 8)            0           branch_b[0][0]                   
                                                                 branch_a[0][0]                   
__________________________________________________________________________________________________
add (Add)                       (None, 5)            0           residual[0][0]                   
                                                                 shared[1][0]                     
__________________________________________________________________________________________________
head (Dense)                    (None, 2)            12          add[0][0]                        
==================================================================================================
Total params: 118
Trainable params: 118
Non-trainable params: 0
__________________________________________________________________________________________________
`;

describeAgainstFormulas<Ours, Numbers>(
  'keras-functional.test.ts',
  'The Keras functional API against its formulas (float64 NumPy)',
  'values, gradients, a fit step, predict, reprs, summary and errors agree on %s',
  {
    python,
    ours: OURS,
    reference: REFERENCE,
    input: INPUT,
    devices: devices.map((d) => tfName(d.name)),
  },
  (ours, reference) => {
    expectNear(ours.y, reference.y, 1e-4, 'y');
    expect(ours.grads.length).toBe(2 + WEIGHTS.length);
    ['xa', 'xb', ...WEIGHTS].forEach((name, i) =>
      expectNear(ours.grads[i], reference.grads[i], 1e-4, `d/d${name}`),
    );
    expectNear(ours.two[0], reference.two[0], 1e-4, 'two-output model: out');
    expectNear(ours.two[1], reference.two[1], 1e-4, 'two-output model: residual');
    WEIGHTS.forEach((name, i) =>
      expectNear(ours.after_fit[i], reference.after_fit[i], 1e-4, `${name} after fit`),
    );
    expectNear(ours.predicted, reference.predicted, 1e-4, 'predict after fit');
    expectNear(ours.predicted_dict, reference.predicted, 1e-4, 'predict on a dict of inputs');
    WEIGHTS.forEach((name, i) =>
      expectNear(
        ours.after_two[i],
        reference.after_two[i],
        1e-4,
        `${name} after fitting the two-output model (mse + 0.5 huber)`,
      ),
    );

    expect(ours.reprs).toEqual([
      '<KerasTensor shape=(None, 784), dtype=float32, sparse=False, name=keras_tensor>',
      '<KerasTensor shape=(None, 4), dtype=float32, sparse=False, name=a>',
      expect.stringMatching(
        /^<KerasTensor shape=\(None, 2\), dtype=float32, sparse=False, name=keras_tensor_\d+>$/,
      ),
    ]);
    expect(ours.shapes).toEqual(['TensorShape([None, 784])', '(None, 2)', 'tf.float32', 2]);
    expect(ours.names).toEqual([
      'a',
      'b',
      'branch_a',
      'branch_b',
      'cat',
      'shared',
      'proj',
      'residual',
      'concatenate',
      'add',
      'head',
    ]);
    expect(ours.inputs).toEqual(['a', 'b']);
    expect(ours.third).toEqual(['branch_a', 'head']);
    expect(ours.ids).toBe(
      '<KerasTensor shape=(None, None, 3), dtype=int32, sparse=False, name=ids>',
    );
    expect(ours.count).toBe(118);
    expect(ours.summary).toBe(SUMMARY);

    expectNear(
      ours.doubled,
      INPUT.xa.flat().map((v) => 2 * v),
      1e-6,
      'a Python Layer subclass in a functional model',
    );
    expect(ours.seq_summary).toBe(
      [
        'Model: "sequential"',
        '_________________________________________________________________',
        'Layer (type)                 Output Shape              Param #   ',
        '=================================================================',
        'seq_dense (Dense)            (None, 3)                 21        ',
        '=================================================================',
        'Total params: 21',
        'Trainable params: 21',
        'Non-trainable params: 0',
        '_________________________________________________________________',
        '',
      ].join('\n'),
    );
    const { errors } = ours;
    expect(errors.add_shapes).toEqual([
      'ValueError',
      'Exception encountered when calling layer "bad_add" (type Add).\n\nInputs have incompatible shapes. Received shapes (4,) and (5,)',
    ]);
    expect(errors.concat_shapes).toEqual([
      'ValueError',
      expect.stringContaining(
        'A `Concatenate` layer requires inputs with matching shapes except for the concatenation axis. Received: input_shape=[(None, 4), (None, 2, 3)]',
      ),
    ]);
    expect(errors.input_count?.[0]).toBe('ValueError');
    expect(errors.input_count?.[1]).toMatch(
      /^Layer "two_branch" expects 2 input\(s\), but it received 1 input tensors\. Inputs received: /,
    );
    expect(errors.input_shape).toEqual([
      'ValueError',
      'Input 1 of layer "two_branch" is incompatible with the layer: expected shape=(None, 3), found shape=(5, 4)',
    ]);
    expect(errors.disconnected?.[0]).toBe('ValueError');
    expect(errors.disconnected?.[1]).toMatch(
      /^Graph disconnected: cannot obtain value for tensor <KerasTensor shape=\(None, 3\), dtype=float32, sparse=False, name=b> at layer "branch_b"\. The following previous layers were accessed without issue: \[/,
    );
    expect(errors.not_a_list?.[0]).toBe('ValueError');
    expect(errors.not_a_list?.[1]).toContain('A merge layer should be called on a list of inputs.');
  },
);

const M = 4;
const MERGE_INPUT = {
  x1: matrix(M, 3, 1.5),
  x2: matrix(M, 3, 1.5),
  x3: matrix(M, 3, 1.5),
  col: matrix(M, 1, 1.5),
  a: [0, 1, 2, 3].map(() => matrix(2, 3, 1.5)),
  b: [0, 1, 2, 3].map(() => matrix(4, 3, 1.5)),
  up_add: matrix(M, 3, 1),
  up_add_broadcast: matrix(M, 3, 1),
  up_subtract: matrix(M, 3, 1),
  up_multiply: matrix(M, 3, 1),
  up_average: matrix(M, 3, 1),
  up_maximum: matrix(M, 3, 1),
  up_minimum: matrix(M, 3, 1),
  up_concatenate: matrix(M, 4, 1),
  up_concatenate_axis1: [0, 1, 2, 3].map(() => matrix(6, 3, 1)),
  up_dot: matrix(M, 1, 1),
  up_dot_normalize: matrix(M, 1, 1),
  up_dot_3d: [0, 1, 2, 3].map(() => matrix(2, 4, 1)),
};

interface MergeCase {
  y: number[];
  shape: number[];
  grads: number[][];
}
type Merged = Record<string, MergeCase> & { forms: Record<string, number[]> };

describeAgainstFormulas<Merged>(
  'keras-functional.test.ts',
  'Keras merging layers against their formulas (float64 NumPy)',
  'values, shapes and gradients of every merging layer agree on %s',
  {
    python,
    ours: MERGING,
    reference: MERGING_REFERENCE,
    input: MERGE_INPUT,
    devices: devices.map((d) => tfName(d.name)),
  },
  (ours, reference) => {
    const { forms, ...cases } = reference;
    expect(Object.keys(ours).sort()).toEqual(Object.keys(reference).sort());
    for (const [name, expected] of Object.entries(cases) as [string, MergeCase][]) {
      const got = ours[name];
      expect(got.shape, name).toEqual(expected.shape);
      expectNear(got.y, expected.y, 1e-4, name);
      expect(got.grads.length, name).toBe(expected.grads.length);
      got.grads.forEach((g, i) => expectNear(g, expected.grads[i], 1e-4, `${name}: d/dinput${i}`));
    }
    for (const [name, expected] of Object.entries(forms))
      expectNear(ours.forms[name], expected, 1e-4, `layers.${name}`);
  },
);
