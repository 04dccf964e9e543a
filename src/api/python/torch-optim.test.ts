/**
 * torch.optim and torch.nn.utils in Python against real PyTorch (Debian's python3-torch, 1.13,
 * CPU) from the same weights and data: every optimizer with each option that changes its math
 * (weights after each of 3 steps), parameter groups, state_dict round trips, reprs and errors;
 * every learning-rate schedule's lr sequence; gradient clipping. The program is
 * testing/torch_optim_program.py.
 */
import { expect } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { rng } from '../../engine/testing/harness';
// Runs in both Pythons: INPUT, and DEVICE under ours, are defined before it; it leaves RESULT.
import PROGRAM from './testing/torch_optim_program.py?raw';
import { describeAgainstRealTorch, expectNear } from './testing/peer-program';
import { startPython } from './testing/pyodide';

const devices = (await testDevices()).map((d) => (d.kind === 'gpu' ? 'cuda:0' : 'cpu'));
const python = await startPython();

const rand = rng(36);
const matrix = (rows: number, cols: number) =>
  Array.from({ length: rows }, () => Array.from({ length: cols }, () => 2 * rand() - 1));
const INPUT = {
  w1: matrix(3, 4),
  b1: matrix(1, 3)[0],
  w2: matrix(2, 3),
  b2: matrix(1, 2)[0],
  x: matrix(5, 4),
  y: matrix(5, 2),
};

type Steps = number[][];
interface RoundTrip {
  keys: Record<string, string[]>;
  by_param: string[];
  weights: number[];
  groups: [string, string][][];
}
interface Schedule {
  lrs: number[];
  momenta: number[];
  get_last_lr: boolean;
  last_epoch: number | null;
}
interface Result {
  optimizers_a: Record<string, Steps>;
  optimizers_b: Record<string, Steps>;
  groups: Record<string, Steps>;
  state_dicts: Record<string, RoundTrip>;
  zero_grad: { zeros: number; none: boolean[] };
  schedules: Record<string, Schedule>;
  grouped_schedules: Record<string, Schedule>;
  plateaus: Record<string, Schedule>;
  scheduler_state: { keys: string[]; last_epoch: number; initial_lr: number; repr: string };
  clipping: {
    clip: Record<string, { total: number | null; grads: number[] }>;
    vector: number[];
    vector_shape: number[];
    vector_back: number[];
    nonfinite: string;
  };
  reprs: string[];
  errors: string[];
}

function expectSchedules(ours: Record<string, Schedule>, real: Record<string, Schedule>): void {
  expect(Object.keys(ours)).toEqual(Object.keys(real));
  for (const [name, want] of Object.entries(real)) {
    // Host float64 arithmetic on both sides: far tighter than the weights' 1e-4.
    expectNear(ours[name].lrs, want.lrs, 1e-12, `${name} lr`);
    expectNear(ours[name].momenta, want.momenta, 1e-12, `${name} momentum`);
    expect(ours[name].get_last_lr, `${name} get_last_lr()`).toBe(want.get_last_lr);
    // Python None arrives as undefined from Pyodide, as null from JSON.
    expect(ours[name].last_epoch ?? null, `${name} last_epoch`).toBe(want.last_epoch);
  }
}

function expectSteps(ours: Record<string, Steps>, real: Record<string, Steps>): void {
  expect(Object.keys(ours)).toEqual(Object.keys(real));
  for (const [name, want] of Object.entries(real)) {
    want.forEach((weights, step) =>
      expectNear(ours[name][step], weights, 1e-4, `${name} step ${step + 1}`),
    );
  }
}

// Three runs, each one test per device under the test timeout: SGD and Adam's family; the other
// optimizers and parameter groups; the rest (state dicts, schedules, clipping, reprs, errors).
type StepPart = 'optimizers_a' | 'optimizers_b' | 'groups';
const TRAINING: StepPart[][] = [['optimizers_a'], ['optimizers_b', 'groups']];
const REST = [
  'state_dicts',
  'zero_grad',
  'schedules',
  'grouped_schedules',
  'plateaus',
  'scheduler_state',
  'clipping',
  'reprs',
  'errors',
];

TRAINING.forEach((parts, i) =>
  describeAgainstRealTorch<Result>(
    'torch-optim.test.ts',
    `torch.optim against real PyTorch (Debian python3-torch), part ${i + 1}`,
    `${parts.join(' and ')}: 3 steps of every option agree on %s`,
    { python, program: PROGRAM, input: { ...INPUT, parts }, devices },
    (ours, real) => {
      for (const part of parts) expectSteps(ours[part], real[part]);
    },
  ),
);

describeAgainstRealTorch<Result>(
  'torch-optim.test.ts',
  'torch.optim.lr_scheduler and torch.nn.utils against real PyTorch (Debian python3-torch)',
  'state dicts, schedules, clipping, reprs and errors agree on %s',
  { python, program: PROGRAM, input: { ...INPUT, parts: REST }, devices },
  (ours, real) => {
    for (const [name, want] of Object.entries(real.state_dicts)) {
      expect(ours.state_dicts[name].keys, `${name} state keys`).toEqual(want.keys);
      expect(ours.state_dicts[name].groups, `${name} param_groups`).toEqual(want.groups);
      expect(ours.state_dicts[name].by_param, `${name} state[p]`).toEqual(want.by_param);
      expectNear(ours.state_dicts[name].weights, want.weights, 1e-4, `${name} after loading`);
    }
    expect(ours.zero_grad).toEqual(real.zero_grad);
    expectSchedules(ours.schedules, real.schedules);
    expectSchedules(ours.grouped_schedules, real.grouped_schedules);
    expectSchedules(ours.plateaus, real.plateaus);
    expect(ours.scheduler_state).toEqual(real.scheduler_state);
    const [clip, realClip] = [ours.clipping, real.clipping];
    expect(Object.keys(clip.clip)).toEqual(Object.keys(realClip.clip));
    for (const [name, want] of Object.entries(realClip.clip)) {
      const got = clip.clip[name];
      if (want.total === null) expect(got.total ?? null, name).toBeNull();
      else expectNear([got.total ?? NaN], [want.total], 1e-5, `${name} total norm`);
      expectNear(got.grads, want.grads, 1e-5, `${name} gradients`);
    }
    expect(clip.vector_shape).toEqual(realClip.vector_shape);
    expectNear(clip.vector, realClip.vector, 0, 'parameters_to_vector');
    expectNear(clip.vector_back, realClip.vector_back, 1e-6, 'vector_to_parameters');
    expect(clip.nonfinite).toEqual(realClip.nonfinite);
    expect(ours.reprs).toEqual(real.reprs);
    expect(ours.errors).toEqual(real.errors);
  },
);
