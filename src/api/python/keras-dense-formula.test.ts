/**
 * The pattern of the Keras formula tests (testing/keras-reference.ts): Dense with tanh, its output
 * and the gradients GradientTape gives for the input, kernel and bias, against a float64 NumPy
 * implementation of Dense's documented formula, from the same weights (set_weights) and inputs.
 */
import { expect } from 'vitest';
import { rng } from '../../engine/testing/harness';
import { describeAgainstFormulas } from './testing/keras-reference';
import { expectNear } from './testing/peer-program';
import { startTfPython, tfName } from './testing/tf-python';
import OURS from './testing/keras_dense_program.py?raw';
import REFERENCE from './testing/keras_dense_reference.py?raw';

const { devices, python } = await startTfPython();
const rand = rng(37);
const matrix = (rows: number, cols: number, scale: number) =>
  Array.from({ length: rows }, () => Array.from({ length: cols }, () => (rand() * 2 - 1) * scale));
const INPUT = {
  x: matrix(5, 4, 2),
  kernel: matrix(4, 3, 0.8),
  bias: matrix(1, 3, 0.5)[0],
  upstream: matrix(5, 3, 1),
};

interface Result {
  y: number[];
  grads: number[][];
}

describeAgainstFormulas<Result>(
  'keras-dense-formula.test.ts',
  'Keras Dense against its documented formula (float64 NumPy)',
  'values and gradients agree on %s',
  {
    python,
    ours: OURS,
    reference: REFERENCE,
    input: INPUT,
    devices: devices.map((d) => tfName(d.name)),
  },
  (ours, reference) => {
    expectNear(ours.y, reference.y, 1e-4, 'y');
    expect(ours.grads.length).toBe(3);
    ['x', 'kernel', 'bias'].forEach((name, i) =>
      expectNear(ours.grads[i], reference.grads[i], 1e-4, `d/d${name}`),
    );
  },
);
