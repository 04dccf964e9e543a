/**
 * Tensor functions made of the engine's ops (creation, masks, splits and repeats, einsum,
 * statistics, comparisons, in-place updates, grad modes) in Python, against real PyTorch
 * (Debian's python3-torch, 1.13, CPU) on the same random inputs: values, dtypes, shapes and
 * input gradients. The program is testing/torch_functions_program.py.
 */
import { expect } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { rng } from '../../engine/testing/harness';
// Runs in both Pythons: INPUT, and DEVICE under ours, are defined before it; it leaves RESULT.
import PROGRAM from './testing/torch_functions_program.py?raw';
import { describeAgainstRealTorch, expectNear } from './testing/peer-program';
import { startPython } from './testing/pyodide';

const devices = (await testDevices()).map((d) => (d.kind === 'gpu' ? 'cuda:0' : 'cpu'));
const python = await startPython();

const rand = rng(36);
const uniform = (low: number, high: number) => low + (high - low) * rand();
const INPUT = {
  x: Array.from({ length: 80 }, () => uniform(-3, 3)),
  w: Array.from({ length: 200 }, () => uniform(-1, 1)),
};

type Value = number | string | boolean;
interface Case {
  y?: Value[][];
  shape?: number[][];
  dtype?: string[];
  tuple?: boolean;
  grads?: (Value[] | null)[];
  error?: string;
}
interface Result {
  grad: Record<string, Case>;
  large: Record<string, Case>;
  values: Record<string, Case | unknown>;
  in_place: { steps: Record<string, Value[]>; modes: Record<string, boolean[]> };
  autograd_in_place: Record<string, Value[] | string>;
}

/** Values compared within `tol` (relative above 1); infinities and NaN (strings) and bools exactly. */
function near(ours: Value[], theirs: Value[], tol: number, what: string): void {
  expect(ours.length, what).toBe(theirs.length);
  const asNumber = (v: Value): number | string => (typeof v === 'boolean' ? +v : v);
  theirs.forEach((want, i) => {
    const got = asNumber(ours[i]);
    if (typeof want === 'string' || typeof got === 'string')
      expect(got, `${what}[${i}]`).toBe(want);
    else expectNear([got], [asNumber(want) as number], tol, `${what}[${i}]`);
  });
}

function compareCase(name: string, ours: Case, theirs: Case, tol: number): void {
  expect(ours.error, `${name}: error`).toBe(theirs.error);
  if (theirs.error !== undefined) return;
  expect(ours.shape, `${name}: shapes`).toEqual(theirs.shape);
  expect(ours.dtype, `${name}: dtypes`).toEqual(theirs.dtype);
  expect(ours.tuple, `${name}: a tuple`).toBe(theirs.tuple);
  theirs.y?.forEach((y, i) => near(ours.y?.[i] ?? [], y, tol, `${name} values[${i}]`));
  expect(ours.grads?.length, `${name}: gradients`).toBe(theirs.grads?.length);
  theirs.grads?.forEach((g, i) => {
    if (g === null) expect(ours.grads?.[i], `${name} grad[${i}]`).toBeNull();
    else near(ours.grads?.[i] ?? [], g, tol, `${name} grad[${i}]`);
  });
}

describeAgainstRealTorch<Result>(
  'torch-functions.test.ts',
  'tensor functions against real PyTorch (Debian python3-torch)',
  'values, dtypes and gradients agree on %s',
  { python, program: PROGRAM, input: INPUT, devices },
  (ours, real) => {
    for (const group of ['grad', 'large'] as const) {
      expect(Object.keys(ours[group])).toEqual(Object.keys(real[group]));
      for (const [name, want] of Object.entries(real[group])) {
        compareCase(name, ours[group][name], want, 1e-4);
      }
    }
    for (const [name, want] of Object.entries(real.values)) {
      const got = ours.values[name];
      if (want !== null && typeof want === 'object' && 'y' in want)
        compareCase(name, got as Case, want as Case, 1e-5);
      else expect(got, name).toEqual(want);
    }
    for (const [name, want] of Object.entries(real.in_place.steps))
      near(ours.in_place.steps[name], want, 1e-5, `in place: ${name}`);
    expect(ours.in_place.modes).toEqual(real.in_place.modes);
    for (const [name, want] of Object.entries(real.autograd_in_place)) {
      const got = ours.autograd_in_place[name];
      if (typeof want === 'string') expect(got, name).toBe(want);
      else near(got as Value[], want, 1e-5, `autograd in place: ${name}`);
    }
  },
);
