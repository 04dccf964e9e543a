/**
 * Configuring devices keeps every fast path: a small CNN training step on one of two logical GPUs
 * (made by configureDevices, as tf.config.setLogicalDeviceConfiguration does, so its backend is a
 * DeferredBackend) dispatches the same kernels, as many times, as on the unsplit GPU, counted with
 * the WebGPU backend's dispatch profiler, and computes the same losses.
 */
import { create, globals } from 'webgpu';
import { describe, expect, it } from 'vitest';
import type { KernelTime } from '../backend';
import * as nn from '../nn';
import * as ops from '../ops';
import { Adam } from '../optim';
import { manualSeed } from '../random';
import type { Tensor } from '../tensor';
import { DeferredBackend } from './deferred-backend';
import type { Device } from './device';
import { configureDevices, gpuDevices, initEngine } from './registry';
import { synchronize } from './stats';

Object.assign(globalThis, globals);
const gpu = create([]);

type Net = nn.Module & ((x: Tensor) => Tensor);
type Loss = nn.Module & ((x: Tensor, y: Tensor) => Tensor);

/** conv → relu → pool → conv → pool → flatten → linear → relu → linear, cross-entropy, Adam. */
function cnn(device: Device) {
  manualSeed(7);
  const net = new nn.Sequential(
    new nn.Conv2d(1, 4, 3),
    new nn.ReLU(),
    new nn.MaxPool2d(2),
    new nn.Conv2d(4, 8, 3, { padding: 1 }),
    new nn.MaxPool2d(2),
    new nn.Flatten(),
    new nn.Linear(8 * 3 * 3, 16),
    new nn.ReLU(),
    new nn.Linear(16, 10),
  ) as unknown as Net;
  net.to(device);
  const loss = new nn.CrossEntropyLoss() as unknown as Loss;
  const optimizer = new Adam(net.parameters(), { lr: 1e-2 });
  const x = ops
    .fromData(
      Array.from({ length: 8 * 14 * 14 }, (_, i) => Math.sin(i * 0.37) + 0.1),
      { device },
    )
    .keep();
  const images = ops.reshape(x, [8, 1, 14, 14]).keep();
  const labels = ops.fromData(
    Int32Array.from({ length: 8 }, (_, i) => (i * 3) % 10),
    { device },
  );
  labels.keep();
  return async (): Promise<number> => {
    optimizer.zeroGrad();
    const value = loss(net(images), labels);
    value.backward();
    optimizer.step();
    return value.item();
  };
}

/** Losses of three steps and the kernels (label → dispatches) the third one ran. */
async function run(device: Device): Promise<{ losses: number[]; kernels: Map<string, number> }> {
  const step = cnn(device);
  const losses = [await step(), await step()];
  await synchronize(device);
  await device.capability('tuning')?.tuned();
  const profiling = device.capability('profiling');
  if (!profiling) throw new Error(`${device.name} cannot time its dispatches`);
  const stop = profiling.profileDispatches();
  losses.push(await step());
  await synchronize(device);
  const times: KernelTime[] = await stop();
  return { losses, kernels: new Map(times.map((t) => [t.label, t.count])) };
}

const sorted = (kernels: Map<string, number>) =>
  [...kernels].sort(([a], [b]) => a.localeCompare(b));

describe('a CNN step on a split GPU', () => {
  it('dispatches the same kernels, as often, as on the unsplit GPU, with the same losses', async () => {
    await initEngine({ gpu, devices: null });
    const plain = await run(gpuDevices()[0]);

    await initEngine({ gpu, devices: null });
    configureDevices('virtual', () => ({
      visible: null,
      gpus: [{ memoryGrowth: false, logical: [{ memoryLimit: 256 }, { memoryLimit: 256 }] }],
    }));
    const split = gpuDevices()[1];
    expect(split.realBackend).toBeInstanceOf(DeferredBackend);
    const onSplit = await run(split);

    // The fused kernels are there (and no columns are unfolded for a stride-1 convolution).
    const labels = [...plain.kernels.keys()];
    for (const fused of ['adam', 'softmax-cross-entropy']) {
      expect(labels.some((label) => label.startsWith(fused))).toBe(true);
    }
    expect(labels.some((label) => label.startsWith('im2col'))).toBe(false);
    expect(sorted(onSplit.kernels)).toEqual(sorted(plain.kernels));
    expect(onSplit.losses).toEqual(plain.losses);
  });
});
