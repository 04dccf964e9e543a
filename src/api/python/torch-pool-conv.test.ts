/**
 * Pooling, padding, interpolation and convolution variants in Python, against real PyTorch
 * (Debian's python3-torch, 1.13, CPU) on the same random inputs and weights: values, input
 * gradients, parameter gradients and the modules' reprs, on the cpu backend and on WebGPU. The
 * program is testing/torch_pool_conv_program.py.
 */
import { expect } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { rng } from '../../engine/testing/harness';
// Runs in both Pythons: INPUT, and DEVICE under ours, are defined before it; it leaves RESULT.
import PROGRAM from './testing/torch_pool_conv_program.py?raw';
import { describeAgainstRealTorch, expectNear } from './testing/peer-program';
import { startPython } from './testing/pyodide';

const devices = (await testDevices()).map((d) => (d.kind === 'gpu' ? 'cuda:0' : 'cpu'));
const python = await startPython();

const rand = rng(36);
// Distinct values away from zero, so max pooling has no ties and no gradient is accidentally 0.
const signed = () => (rand() < 0.5 ? -1 : 1) * (0.1 + rand());
const INPUT = {
  x: Array.from({ length: 1024 }, signed),
  w: Array.from({ length: 1024 }, signed),
  p: Array.from({ length: 512 }, signed),
};

type Case = Record<string, number[]> & { shape: number[] };
interface Result {
  cases: Record<string, Case>;
  reprs: string[];
  shapes: Record<string, number[]>;
}

describeAgainstRealTorch<Result>(
  'torch-pool-conv.test.ts',
  'pooling, padding, interpolation and convolutions against real PyTorch (Debian python3-torch)',
  'values, gradients and reprs agree on %s',
  { python, program: PROGRAM, input: INPUT, devices },
  (ours, real) => {
    expect(Object.keys(ours.cases)).toEqual(Object.keys(real.cases));
    for (const [name, want] of Object.entries(real.cases)) {
      const got = ours.cases[name];
      expect(got.shape, `${name} shape`).toEqual(want.shape);
      expect(Object.keys(got).sort(), `${name} results`).toEqual(Object.keys(want).sort());
      for (const key of Object.keys(want).filter((k) => k !== 'shape'))
        expectNear(got[key], want[key], 1e-4, `${name} ${key}`);
    }
    expect(ours.reprs).toEqual(real.reprs);
    expect(ours.shapes).toEqual(real.shapes);
  },
);
