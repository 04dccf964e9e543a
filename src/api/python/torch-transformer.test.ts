/**
 * nn.TransformerEncoderLayer, nn.TransformerEncoder and nn.Transformer.generate_square_subsequent_mask
 * in Python against real PyTorch (Debian's python3-torch 1.13, CPU) from the same weights and inputs,
 * in eval mode: outputs, input and parameter gradients within 1e-3 relative (the attention stacks'
 * budget), reprs, state dict keys and the encoder's copies of its layer. The program is
 * testing/torch_transformer_program.py.
 */
import { expect } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { rng } from '../../engine/testing/harness';
// Runs in both Pythons: INPUT, and DEVICE under ours, are defined before it; it leaves RESULT.
import PROGRAM from './testing/torch_transformer_program.py?raw';
import { describeAgainstRealTorch, expectNear } from './testing/peer-program';
import { startPython } from './testing/pyodide';

const devices = (await testDevices()).map((d) => (d.kind === 'gpu' ? 'cuda:0' : 'cpu'));
const python = await startPython();

const rand = rng(3637);
// A prime count, so the tensors cut from it in turn (wrapping around) do not repeat each other.
const INPUT = { values: Array.from({ length: 1013 }, () => (rand() * 2 - 1) * 0.9 || 0.3) };

interface Case {
  y: number[];
  shape: number[];
  x_grad: number[];
  params: Record<string, number[]>;
}
interface Result {
  cases: Record<string, Case>;
  reprs?: string[];
  keys?: string[];
  copied?: boolean[];
  mask?: string[];
}

const TOL = 1e-3;
// One suite per group: each stays under the default time limit on WebGPU's SwiftShader.
const GROUPS = [
  ['layer post-norm causal', 'layer pre-norm gelu batch_first padding', 'reprs'],
  ['encoder of 2 with norm'],
];

for (const only of GROUPS) {
  describeAgainstRealTorch<Result>(
    'torch-transformer.test.ts',
    `transformer encoder against real PyTorch (Debian python3-torch): ${only.join('; ')}`,
    'outputs, gradients and reprs agree on %s',
    { python, program: PROGRAM, input: { ...INPUT, only }, devices },
    (ours, real) => {
      expect(Object.keys(ours.cases)).toEqual(Object.keys(real.cases));
      for (const [name, want] of Object.entries(real.cases)) {
        const got = ours.cases[name];
        expect(got.shape, name).toEqual(want.shape);
        expectNear(got.y, want.y, TOL, `${name} output`);
        expectNear(got.x_grad, want.x_grad, TOL, `${name} input grad`);
        expect(Object.keys(got.params)).toEqual(Object.keys(want.params));
        for (const [p, g] of Object.entries(want.params))
          expectNear(got.params[p], g, TOL, `${name} ${p}.grad`);
      }
      if (only.includes('reprs')) {
        expect(ours.reprs).toEqual(real.reprs);
        expect(ours.keys).toEqual(real.keys);
        expect(ours.copied).toEqual([true, true]);
        expect(ours.mask).toEqual(real.mask);
      }
    },
  );
}
