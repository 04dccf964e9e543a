import { describe, expect, it } from 'vitest';
import type { AdamStep, View } from '../backend';
import { cpuKernels } from './cpu/kernels';
import {
  KERNEL_NAMES,
  mapViews,
  RoutedKernels,
  type KernelArgs,
  type KernelName,
  type KernelTable,
} from './kernel-table';
import { webgpuKernels } from './webgpu/kernels';

/** Records what it is asked to run. */
class Recorder extends RoutedKernels {
  calls: [KernelName, unknown[]][] = [];
  protected route<K extends KernelName>(name: K, args: KernelArgs<K>): void {
    this.calls.push([name, args]);
  }
}

const view = (buffer: { bytes: number }): View => ({
  buffer,
  dtype: 'float32',
  shape: [2],
  strides: [1],
  offset: 0,
});

/** An Adam step's hyperparameters (any will do: nothing runs). */
const STEP: AdamStep = {
  beta1: 0.9,
  beta2: 0.999,
  stepSize: 1,
  vScale: 1,
  eps: 1e-8,
  weightDecay: 0,
  maximize: false,
};

describe('the kernel table', () => {
  it('is implemented in full by every backend and routed by every wrapper', () => {
    expect(Object.keys(cpuKernels).sort()).toEqual([...KERNEL_NAMES].sort());
    expect(Object.keys(webgpuKernels).sort()).toEqual([...KERNEL_NAMES].sort());
    const recorder = new Recorder();
    for (const name of KERNEL_NAMES) expect(typeof recorder[name]).toBe('function');
    const slot = {
      param: view({ bytes: 8 }),
      grad: view({ bytes: 8 }),
      m: view({ bytes: 8 }),
      v: view({ bytes: 8 }),
    };
    recorder.adam([slot], STEP);
    expect(recorder.calls.map(([name]) => name)).toEqual(['adam']);
  });

  it('maps views, also one inside an options object', () => {
    const before = { bytes: 8 };
    const after = { bytes: 8 };
    const args: KernelArgs<'gemm'> = [
      view(before),
      view(before),
      view(before),
      { bias: view(before), relu: true },
    ];
    const mapped = mapViews<'gemm'>(args, (v) => ({ ...v, buffer: after }));
    expect([mapped[0].buffer, mapped[1].buffer, mapped[2].buffer]).toEqual([after, after, after]);
    expect(mapped[3].bias?.buffer).toBe(after);
    expect(mapped[3].relu).toBe(true);
    // Views in an array of objects (Adam's slots); arguments without views keep their identity.
    const slot = { param: view(before), grad: view(before), m: view(before), v: view(before) };
    const adamArgs = mapViews<'adam'>([[slot, slot], STEP], (v) => ({ ...v, buffer: after }));
    for (const mappedSlot of adamArgs[0]) {
      for (const v of Object.values(mappedSlot)) expect(v.buffer).toBe(after);
    }
    expect(adamArgs[1]).toBe(STEP);
    expect(slot.param.buffer).toBe(before);
  });

  it('does not compile without every kernel', () => {
    const { adam: _adam, ...rest } = cpuKernels;
    // @ts-expect-error a backend table without adam is not a KernelTable
    const partial: KernelTable<unknown> = rest;
    expect(Object.keys(partial)).not.toContain('adam');
  });
});
