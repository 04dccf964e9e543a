import { create, globals } from 'webgpu';
import { beforeEach, describe, expect, it } from 'vitest';
import type { WebGPUBackend } from '../backends/webgpu';
import * as ops from '../ops';
import { DeferredBackend } from './deferred-backend';
import type { Device } from './device';
import { DeviceLostError } from './lost-backend';
import { DeviceMemoryError } from './memory-account';
import {
  configureDevices,
  getDevice,
  gpuDevices,
  gpusInitialized,
  initEngine,
  onDeviceLost,
  physicalGpus,
  recoverLostDevices,
  RuntimeError,
} from './registry';
import { deviceReport, memorySnapshot } from './report';
import { parseDeviceSettings, type DeviceSettings } from './settings';
import { emptyCache, memoryAllocated, memoryReserved, synchronize } from './stats';

Object.assign(globalThis, globals);
const gpu = create([]);
const MIB = 1024 * 1024;

function split(...limits: (number | null)[]): DeviceSettings {
  return {
    visible: null,
    gpus: [{ memoryGrowth: false, logical: limits.map((memoryLimit) => ({ memoryLimit })) }],
  };
}

/** Random values of a fixed pattern (never zero), as a host array and a tensor on `device`. */
function data(
  n: number,
  device: Device,
  salt = 1,
): [Float32Array, ReturnType<typeof ops.fromData>] {
  const host = Float32Array.from({ length: n }, (_, i) => Math.sin(i * 1.7 + salt) + 1.5);
  return [host, ops.fromData(host, { device })];
}

describe('device settings', () => {
  it('validate untrusted input and refuse conflicting options', () => {
    expect(parseDeviceSettings(undefined)).toEqual({ visible: null, gpus: [] });
    expect(parseDeviceSettings({ visible: [1, 1, 0], gpus: [null] })).toEqual({
      visible: [1, 0],
      gpus: [{ memoryGrowth: false, logical: null }],
    });
    expect(() => parseDeviceSettings({ gpus: [{ logical: [{ memoryLimit: -4 }] }] })).toThrow(
      'a memory limit is a positive number of MiB, got -4',
    );
    expect(() =>
      parseDeviceSettings({
        gpus: [{ logical: Array.from({ length: 9 }, () => ({ memoryLimit: 1 })) }],
      }),
    ).toThrow('at most 8 logical GPUs');
    expect(() =>
      parseDeviceSettings({ gpus: [{ memoryGrowth: true, logical: [{ memoryLimit: 64 }] }] }),
    ).toThrow('memory growth and logical GPUs');
    expect(() => parseDeviceSettings({ visible: ['0'] })).toThrow('"visible" must be a list');
  });
});

describe('logical GPUs', () => {
  beforeEach(async () => {
    await initEngine({ gpu, devices: split(1, 2) });
  });

  it('splits one physical GPU into logical GPUs with their own limits', () => {
    expect(physicalGpus()).toHaveLength(1);
    expect(gpuDevices().map((d) => d.name)).toEqual(['gpu:0', 'gpu:1']);
    expect(gpuDevices().map((d) => d.memory.limit)).toEqual([1 * MIB, 2 * MIB]);
    const backends = gpuDevices().map((d) => d.realBackend as WebGPUBackend);
    // One GPUDevice each: that is what lets them compute at the same time.
    expect(backends[0].device).not.toBe(backends[1].device);
    const report = deviceReport();
    expect(report.logical.map((l) => [l.tfName, l.memoryLimit])).toEqual([
      ['/device:GPU:0', MIB],
      ['/device:GPU:1', 2 * MIB],
    ]);
    expect(report.physical[0].limits.maxStorageBufferBindingSize).toBeGreaterThan(0);
    expect(report.physical[0].features).toContain('timestamp-query');
  });

  it('enforces a limit with an error naming device, bytes asked, in use and limit', async () => {
    const gpu0 = getDevice('gpu:0');
    const [host, kept] = data(200_000, gpu0);
    expect(memoryAllocated(gpu0)).toBe(800_000);
    let error: unknown = null;
    try {
      ops.zeros([200_000], { device: gpu0 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DeviceMemoryError);
    expect((error as Error).message).toBe(
      'Out of memory on gpu:0: tried to allocate 781.25 KiB (800000 bytes) with 781.25 KiB ' +
        '(800000 bytes) already in use and a limit of 1.00 MiB (1048576 bytes). Free tensors ' +
        "(dispose(), tidy()) or raise the device's memory limit.",
    );
    // Nothing was allocated or corrupted: the kept tensor reads back and work goes on.
    expect(memoryAllocated(gpu0)).toBe(800_000);
    expect(Array.from(await kept.data())).toEqual(Array.from(host));
    const sum = await ops.add(ops.fromData([1, 2], { device: gpu0 }), 1).tolist();
    expect(sum).toEqual([2, 3]);
    // The other logical GPU has its own account: the same size fits there twice.
    const gpu1 = getDevice('gpu:1');
    const a = ops.zeros([200_000], { device: gpu1 });
    const b = ops.ones([200_000], { device: gpu1 });
    expect(memoryAllocated(gpu1)).toBe(1_600_000);
    expect(await ops.sum(b).item()).toBe(200_000);
    a.dispose();
    b.dispose();
  });

  it('copies between logical GPUs and the cpu exactly, with gradients', async () => {
    const [host, onCpu] = data(33, getDevice('cpu'));
    onCpu.requiresGrad = true;
    const there = onCpu.to('gpu:0').to('gpu:1');
    expect(there.device).toBe('gpu:1');
    expect(Array.from(await there.cpu().data())).toEqual(Array.from(host));
    ops.sum(ops.mul(there, there)).backward();
    const grad = Array.from(await (onCpu.grad as NonNullable<typeof onCpu.grad>).data());
    grad.forEach((g, i) => expect(g).toBeCloseTo(2 * host[i], 5));
  });

  it('returns pooled memory with emptyCache and reports it', async () => {
    const gpu1 = getDevice('gpu:1');
    const t = ops.ones([4096], { device: gpu1 });
    await synchronize(gpu1);
    t.dispose();
    expect(memoryAllocated(gpu1)).toBe(0);
    expect(memoryReserved(gpu1)).toBeGreaterThanOrEqual(4096 * 4);
    expect(memorySnapshot().find((s) => s.device === 'gpu:1')?.pooled).toBeGreaterThan(0);
    emptyCache(gpu1);
    expect(memoryReserved(gpu1)).toBe(0);
  });
});

describe('concurrency', () => {
  beforeEach(async () => {
    await initEngine({ gpu, devices: split(null, null) });
  });

  it('two logical GPUs compute at the same time (completion order)', async () => {
    const [gpu0, gpu1] = gpuDevices();
    const big = (device: Device) => {
      let x = ops.full([384, 384], 1 / 384, { device });
      for (let i = 0; i < 6; i++) {
        const next = ops.matmul(x, x);
        x.dispose();
        x = next;
      }
      x.dispose();
    };
    const small = (device: Device) => ops.add(ops.full([8], 1, { device }), 1).dispose();
    // Compile every kernel on both devices first, so only the work itself is measured.
    big(gpu0);
    big(gpu1);
    small(gpu0);
    small(gpu1);
    await Promise.all([synchronize(gpu0), synchronize(gpu1)]);

    const race = async (longOn: Device, shortOn: Device): Promise<string[]> => {
      const order: string[] = [];
      big(longOn);
      const long = synchronize(longOn).then(() => order.push('long'));
      small(shortOn);
      const short = synchronize(shortOn).then(() => order.push('short'));
      await Promise.all([long, short]);
      return order;
    };
    // Control: one device runs its queue in order, so work enqueued later finishes later.
    expect(await race(gpu0, gpu0)).toEqual(['long', 'short']);
    // Two logical GPUs: gpu:1's small job does not wait behind gpu:0's long one.
    expect(await race(gpu0, gpu1)).toEqual(['short', 'long']);
  });
});

describe('configuration before first use', () => {
  it('hides GPUs that are not visible', async () => {
    await initEngine({ gpu, devices: { visible: [], gpus: [] } });
    expect(physicalGpus()).toHaveLength(1);
    expect(gpuDevices()).toHaveLength(0);
    expect(() => getDevice('gpu:0')).toThrow('no GPU is visible');
    await initEngine({ gpu, devices: { visible: [0, 3], gpus: [] } });
    expect(gpuDevices().map((d) => d.name)).toEqual(['gpu:0']);
    expect(deviceReport().physical[0].visible).toBe(true);
  });

  it('rebuilds devices usable on the next line, and refuses changes after first use', async () => {
    await initEngine({ gpu, devices: null });
    expect(gpuDevices()).toHaveLength(1);
    expect(gpusInitialized()).toBe(false);
    configureDevices('virtual', () => split(64, 64, 64));
    expect(gpuDevices().map((d) => d.name)).toEqual(['gpu:0', 'gpu:1', 'gpu:2']);
    // The new GPUDevices are still opening: the work is recorded and replayed when they are.
    expect(gpuDevices()[2].realBackend).toBeInstanceOf(DeferredBackend);
    const [host, x] = data(7, gpuDevices()[2]);
    const y = ops.mul(x, 3);
    x.dispose();
    expect(Array.from(await y.data())).toEqual(Array.from(host, (v) => Math.fround(v * 3)));
    expect(gpusInitialized()).toBe(true);
    expect(() => configureDevices('virtual', () => split(32))).toThrow(RuntimeError);
    expect(() => configureDevices('virtual', () => split(32))).toThrow(
      'Virtual devices cannot be modified after being initialized',
    );
    expect(() => configureDevices('visible', (s) => ({ ...s, visible: [] }))).toThrow(
      'Visible devices cannot be modified after being initialized',
    );
    expect(gpuDevices()).toHaveLength(3);
  });
});

describe('device loss', () => {
  it('notices a lost GPUDevice, names it, and recreates it without a reload', async () => {
    await initEngine({ gpu, devices: split(null, null) });
    const [gpu0, gpu1] = gpuDevices();
    const [, before] = data(16, gpu0);
    const [host1, other] = data(16, gpu1, 2);
    await synchronize();
    const lost = new Promise<{ device: string; reason: string }>((resolve) => {
      const stop = onDeviceLost((event) => {
        stop();
        resolve(event);
      });
    });
    (gpu0.realBackend as WebGPUBackend).device.destroy();
    const event = await lost;
    expect(event.device).toBe('gpu:0');
    expect(event.reason).toMatch(/^destroyed/);
    // Tensors of the lost device fail clearly; the other logical GPU is untouched.
    await expect(before.data()).rejects.toThrow(DeviceLostError);
    await expect(before.data()).rejects.toThrow('gpu:0 was lost (destroyed');
    expect(() => ops.add(before, 1)).toThrow('gpu:0 was lost');
    expect(Array.from(await other.data())).toEqual(Array.from(host1));

    expect(recoverLostDevices()).toEqual(['gpu:0']);
    const fresh = getDevice('gpu:0');
    expect(fresh).not.toBe(gpu0);
    const [host, again] = data(16, fresh, 3);
    expect(Array.from(await ops.mul(again, 2).data())).toEqual(
      Array.from(host, (v) => Math.fround(v * 2)),
    );
    expect(deviceReport().logical.map((l) => l.lost)).toEqual([null, null]);
  });
});
