/**
 * The normalisation layers in Python against real PyTorch (Debian's python3-torch, 1.13, CPU) on
 * the same random inputs: LayerNorm, BatchNorm1d/2d, GroupNorm, InstanceNorm1d/2d over two
 * training steps (values, input and parameter gradients, running statistics) and in evaluation
 * mode, F.layer_norm/batch_norm/group_norm/instance_norm, reprs, state-dict keys and buffers.
 * The program is testing/torch_norm_program.py.
 */
import { expect } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { rng } from '../../engine/testing/harness';
// Runs in both Pythons: INPUT, and DEVICE under ours, are defined before it; it leaves RESULT.
import PROGRAM from './testing/torch_norm_program.py?raw';
import { describeAgainstRealTorch, expectNear } from './testing/peer-program';
import { startPython } from './testing/pyodide';

const devices = (await testDevices()).map((d) => (d.kind === 'gpu' ? 'cuda:0' : 'cpu'));
const python = await startPython();

const rand = rng(36);
const uniform = (low: number, high: number) => low + (high - low) * rand();
const INPUT = {
  // Offset from zero and of several scales, so the statistics are not trivial.
  values: Array.from({ length: 160 }, (_, i) => uniform(-2, 3) * (1 + (i % 3))),
  upstream: Array.from({ length: 120 }, () => uniform(-1, 1)),
  params: Array.from({ length: 16 }, () => uniform(0.5, 1.5) * (rand() < 0.5 ? -1 : 1)),
};

type Values = Record<string, number[]>;
interface Result {
  modules: Record<string, Values>;
  functional: Record<string, { y: number[]; grad: number[] }>;
  running: number[];
  attributes: (string | number[])[];
  errors: string[];
  training: Values;
  reprs: string[];
  state_dict: string[];
  buffers: [string, string, number[]][];
}

describeAgainstRealTorch<Result>(
  'torch-norm.test.ts',
  'normalisation layers against real PyTorch (Debian python3-torch)',
  'values, gradients, running statistics and reprs agree on %s',
  { python, program: PROGRAM, input: INPUT, devices },
  (ours, real) => {
    expect(Object.keys(ours.modules)).toEqual(Object.keys(real.modules));
    for (const [name, want] of Object.entries(real.modules)) {
      expect(Object.keys(ours.modules[name]), name).toEqual(Object.keys(want));
      for (const [what, values] of Object.entries(want))
        expectNear(ours.modules[name][what], values, 1e-4, `${name}: ${what}`);
    }
    for (const [name, want] of Object.entries(real.functional)) {
      expectNear(ours.functional[name].y, want.y, 1e-4, `${name} values`);
      expectNear(ours.functional[name].grad, want.grad, 1e-4, `${name} gradient`);
    }
    expectNear(ours.running, real.running, 1e-4, 'F.batch_norm running');
    // The last entry is the running mean after momentum was set later; the rest is exact.
    const last = real.attributes.length - 1;
    expect(ours.attributes.slice(0, last)).toEqual(real.attributes.slice(0, last));
    expectNear(
      ours.attributes[last] as number[],
      real.attributes[last] as number[],
      1e-4,
      'momentum set later',
    );
    for (const [what, values] of Object.entries(real.training))
      expectNear(ours.training[what], values, 1e-4, `CNN training: ${what}`);
    expect(ours.errors).toEqual(real.errors);
    expect(ours.reprs).toEqual(real.reprs);
    expect(ours.state_dict).toEqual(real.state_dict);
    expect(ours.buffers).toEqual(real.buffers);
  },
);
