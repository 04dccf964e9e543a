/**
 * nn.RNN, nn.LSTM and nn.GRU in Python against real PyTorch (Debian's python3-torch, 1.13, CPU)
 * from the same weights and inputs: outputs, final states, and the gradients of the input, the
 * initial states and every parameter (within 1e-3 relative, the recurrent stacks' budget: errors
 * compound over the steps), reprs, parameter names and shapes. The program is
 * testing/torch_recurrent_program.py.
 */
import { expect } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { rng } from '../../engine/testing/harness';
// Runs in both Pythons: INPUT, and DEVICE under ours, are defined before it; it leaves RESULT.
import PROGRAM from './testing/torch_recurrent_program.py?raw';
import { describeAgainstRealTorch, expectNear } from './testing/peer-program';
import { startPython } from './testing/pyodide';

const devices = (await testDevices()).map((d) => (d.kind === 'gpu' ? 'cuda:0' : 'cpu'));
const python = await startPython();

const rand = rng(36);
// A prime count, so the tensors cut from it in turn (wrapping around) do not repeat each other.
const INPUT = { values: Array.from({ length: 997 }, () => (rand() * 2 - 1) * 0.8 || 0.3) };

interface Case {
  output: number[];
  output_shape: number[];
  finals: number[][];
  final_shapes: number[][];
  x_grad: number[];
  state_grads: number[][];
  params: Record<string, number[]>;
  repr: string;
  is_tuple: boolean;
}
interface Result {
  cases: Record<string, Case>;
  reprs?: string[];
  names?: string[];
  shapes?: number[][];
  fields?: (number | boolean)[];
}

const TOL = 1e-3;

// One suite per group: each runs in its own test, under the default time limit, on WebGPU's
// SwiftShader too.
const GROUPS = [
  ['LSTM(4, 8, 2, batch_first, bidirectional) with (h0, c0)'],
  ['LSTM(4, 8, bias=False) unbatched', 'GRU(4, 8)'],
  ['GRU(4, 8, 2, bidirectional, batch_first) with h0'],
  ['RNN(4, 8, 2, relu) with h0', 'RNN(4, 8) unbatched with h0', 'reprs'],
];

for (const only of GROUPS) {
  describeAgainstRealTorch<Result>(
    'torch-recurrent.test.ts',
    `recurrent layers against real PyTorch (Debian python3-torch): ${only.join('; ')}`,
    'outputs, states, gradients and reprs agree on %s',
    { python, program: PROGRAM, input: { ...INPUT, only }, devices },
    (ours, real) => {
      expect(Object.keys(ours.cases)).toEqual(Object.keys(real.cases));
      expect(Object.keys(real.cases).length).toBe(only.filter((n) => n !== 'reprs').length);
      for (const [name, want] of Object.entries(real.cases)) {
        const got = ours.cases[name];
        expect(got.output_shape, `${name} output shape`).toEqual(want.output_shape);
        expect(got.final_shapes, `${name} state shapes`).toEqual(want.final_shapes);
        expectNear(got.output, want.output, TOL, `${name} output`);
        want.finals.forEach((f, i) => expectNear(got.finals[i], f, TOL, `${name} final ${i}`));
        expectNear(got.x_grad, want.x_grad, TOL, `${name} input grad`);
        expect(got.state_grads.length).toBe(want.state_grads.length);
        want.state_grads.forEach((g, i) =>
          expectNear(got.state_grads[i], g, TOL, `${name} state grad ${i}`),
        );
        expect(Object.keys(got.params), `${name} parameter names`).toEqual(
          Object.keys(want.params),
        );
        for (const [p, g] of Object.entries(want.params))
          expectNear(got.params[p], g, TOL, `${name} ${p}.grad`);
        expect(got.repr).toBe(want.repr);
        expect(got.is_tuple).toBe(true);
      }
      if (only.includes('reprs')) {
        expect(ours.reprs).toEqual(real.reprs);
        expect(ours.names).toEqual(real.names);
        expect(ours.shapes).toEqual(real.shapes);
        expect(ours.fields).toEqual(real.fields);
      }
    },
  );
}
