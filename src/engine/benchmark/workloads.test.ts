/**
 * The benchmark's training steps as kernels: issue 19's linear-regression step (nn.Linear(2, 1),
 * MSELoss, Adam) runs in six WebGPU dispatches, whatever row mode the adapter's reductions are
 * tuned to, and six CPU kernel calls (the CPU keeps its own product kernels).
 */
import { describe, expect, it } from 'vitest';
import { dispatches, testDevices } from '../testing/devices';
import { linregStep } from './workloads';

const devices = await testDevices();

describe.each(devices.map((d) => [d.name, d] as const))('workloads on %s', (_, device) => {
  it('a linear-regression step takes six dispatches (six CPU calls)', async () => {
    // More points than one chunk holds in either row mode: each long sum takes its two passes.
    const step = linregStep(device, 10007);
    const first = await step();
    await step();
    await device.backend.synchronize();
    const before = dispatches(device);
    await step();
    // The forward chain (x @ wᵀ + b − y, squared, summed) and the pass over its partial sums; the
    // loss's scaling with the gradient's seed; the backward chain with three sums (b's gradient
    // and xᵀ @ g) and its pass; one Adam step of both parameters. On the CPU: the two products,
    // the three chains (no passes) and Adam.
    expect(dispatches(device) - before).toBe(6);
    // Adam with lr 0.03 moves the loss from its start (y's spread is several units).
    const later = await step();
    expect(later).toBeLessThan(first);
  });
});
