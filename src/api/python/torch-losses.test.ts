/**
 * torch.nn's losses in Python against real PyTorch (Debian's python3-torch, 1.13, CPU) on the same
 * random inputs, on cpu and WebGPU: every reduction and option (class weights, ignore_index,
 * label_smoothing, probability targets, pos_weight, beta, delta, log_target), values and input
 * gradients, module reprs, buffers and fields. The program is testing/torch_losses_program.py.
 */
import { expect } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { rng } from '../../engine/testing/harness';
// Runs in both Pythons: INPUT, and DEVICE under ours, are defined before it; it leaves RESULT.
import PROGRAM from './testing/torch_losses_program.py?raw';
import { describeAgainstRealTorch, expectNear } from './testing/peer-program';
import { startPython } from './testing/pyodide';

const devices = (await testDevices()).map((d) => (d.kind === 'gpu' ? 'cuda:0' : 'cpu'));
const python = await startPython();

const rand = rng(3636);
const uniform = (low: number, high: number) => low + (high - low) * rand();
const values = (n: number, low: number, high: number) =>
  Array.from({ length: n }, () => uniform(low, high));
/** Rows of 3 random probabilities summing to 1. */
function probabilityRows(rows: number): number[] {
  return Array.from({ length: rows }, () => {
    const row = values(3, 0.1, 1);
    const total = row.reduce((s, v) => s + v, 0);
    return row.map((v) => v / total);
  }).flat();
}

const INPUT = {
  logits: values(12, -3, 3),
  labels: [0, 2, 1, 2],
  labels_ignored: [0, -100, 1, 2],
  labels3: [0, 2, 1, 1],
  class_weight: [0.5, 2, 1.25],
  probs: probabilityRows(4),
  // Differences of both signs on each side of beta = 0.5, 1 and delta = 0.7.
  target: values(12, -3, 3),
  p: values(12, 0.02, 0.98),
  binary: [...values(8, 0, 1), 0, 1, 1, 0],
  pos_weight: [3, 0.5, 1.5],
  log_target: probabilityRows(4).map(Math.log),
  upstream: values(12, -1, 1),
};

interface Case {
  y: number[];
  grad: number[];
}
interface Result {
  cases: Record<string, Case>;
  reprs: string[];
  buffers: string[];
  fields: (number | string | boolean)[];
  extras: Record<string, { y: number[] | number[][]; grad?: number[] }>;
  one_hot: unknown[];
  extra_reprs: string[];
  prelu_state: string[];
  grad_fns: string[];
}

describeAgainstRealTorch<Result>(
  'torch-losses.test.ts',
  'losses against real PyTorch (Debian python3-torch)',
  'values, gradients, reprs and buffers agree on %s',
  { python, program: PROGRAM, input: INPUT, devices },
  (ours, real) => {
    expect(Object.keys(ours.cases)).toEqual(Object.keys(real.cases));
    for (const [name, want] of Object.entries(real.cases)) {
      expectNear(ours.cases[name].y, want.y, 1e-5, `${name} values`);
      expectNear(ours.cases[name].grad, want.grad, 1e-5, `${name} gradient`);
    }
    expect(ours.reprs).toEqual(real.reprs);
    expect(ours.buffers).toEqual(real.buffers);
    expect(ours.fields).toEqual(real.fields);
    // prelu, normalize, cosine_similarity, Unflatten, Softmax, LogSoftmax, Dropout (p=0, eval).
    expect(Object.keys(ours.extras)).toEqual(Object.keys(real.extras));
    for (const [name, want] of Object.entries(real.extras)) {
      expectNear(ours.extras[name].y.flat(), want.y.flat(), 1e-5, `${name} values`);
      expectNear(ours.extras[name].grad ?? [], want.grad ?? [], 1e-5, `${name} gradient`);
    }
    expect(ours.one_hot).toEqual(real.one_hot);
    expect(ours.extra_reprs).toEqual(real.extra_reprs);
    expect(ours.prelu_state).toEqual(real.prelu_state);
    expect(ours.grad_fns).toEqual(real.grad_fns);
  },
);
