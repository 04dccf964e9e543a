/**
 * F.scaled_dot_product_attention and nn.MultiheadAttention in Python against real PyTorch
 * (Debian's python3-torch 1.13, CPU; its SDPA is the formula, 1.13 has no F form) from the same
 * weights and inputs: outputs, attention weights, input and parameter gradients within 1e-3
 * relative (the attention stacks' budget), reprs and parameter names. The program is
 * testing/torch_attention_program.py.
 */
import { expect } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { rng } from '../../engine/testing/harness';
// Runs in both Pythons: INPUT, and DEVICE under ours, are defined before it; it leaves RESULT.
import PROGRAM from './testing/torch_attention_program.py?raw';
import { describeAgainstRealTorch, expectNear } from './testing/peer-program';
import { startPython } from './testing/pyodide';

const devices = (await testDevices()).map((d) => (d.kind === 'gpu' ? 'cuda:0' : 'cpu'));
const python = await startPython();

const rand = rng(3636);
// A prime count, so the tensors cut from it in turn (wrapping around) do not repeat each other.
const INPUT = { values: Array.from({ length: 1009 }, () => (rand() * 2 - 1) * 0.9 || 0.3) };

interface Sdpa {
  y: number[];
  shape: number[];
  grads: number[][];
}
interface Mha {
  out: number[];
  shape: number[];
  weights: number[] | null;
  weights_shape: number[] | null;
  grads: number[][];
  params: Record<string, number[]>;
  is_tuple: boolean;
}
interface Result {
  has_sdpa: boolean;
  sdpa?: Record<string, Sdpa>;
  mha?: Record<string, Mha>;
  reprs?: string[];
  names?: string[];
  state?: string[];
  zero_biases?: number[][];
}

const TOL = 1e-3;

describeAgainstRealTorch<Result>(
  'torch-attention.test.ts',
  'F.scaled_dot_product_attention against real PyTorch (Debian python3-torch)',
  'values and gradients agree on %s',
  { python, program: PROGRAM, input: { ...INPUT, only: ['sdpa'] }, devices },
  (ours, real) => {
    expect(ours.has_sdpa).toBe(true);
    const want = real.sdpa ?? {};
    expect(Object.keys(ours.sdpa ?? {})).toEqual(Object.keys(want));
    for (const [name, w] of Object.entries(want)) {
      const got = (ours.sdpa ?? {})[name];
      expect(got.shape, name).toEqual(w.shape);
      expectNear(got.y, w.y, TOL, `${name} values`);
      w.grads.forEach((g, i) => expectNear(got.grads[i], g, TOL, `${name} grad ${'qkv'[i]}`));
    }
  },
);

describeAgainstRealTorch<Result>(
  'torch-attention.test.ts',
  'nn.MultiheadAttention against real PyTorch (Debian python3-torch)',
  'outputs, weights, gradients and reprs agree on %s',
  { python, program: PROGRAM, input: { ...INPUT, only: ['mha'] }, devices },
  (ours, real) => {
    const want = real.mha ?? {};
    expect(Object.keys(ours.mha ?? {})).toEqual(Object.keys(want));
    for (const [name, w] of Object.entries(want)) {
      const got = (ours.mha ?? {})[name];
      expect(got.shape, name).toEqual(w.shape);
      // Python's None arrives as undefined from Pyodide, null from JSON.
      expect(got.weights_shape ?? null, `${name} weights shape`).toEqual(w.weights_shape);
      expectNear(got.out, w.out, TOL, `${name} output`);
      if (w.weights) expectNear(got.weights ?? [], w.weights, TOL, `${name} weights`);
      else expect(got.weights ?? null).toBeNull();
      w.grads.forEach((g, i) => expectNear(got.grads[i], g, TOL, `${name} input grad ${i}`));
      expect(Object.keys(got.params)).toEqual(Object.keys(w.params));
      for (const [p, g] of Object.entries(w.params))
        expectNear(got.params[p], g, TOL, `${name} ${p}.grad`);
      expect(got.is_tuple).toBe(true);
    }
    expect(ours.reprs).toEqual(real.reprs);
    expect(ours.names).toEqual(real.names);
    expect(ours.state).toEqual(real.state);
    expect(ours.zero_biases).toEqual(real.zero_biases);
  },
);
