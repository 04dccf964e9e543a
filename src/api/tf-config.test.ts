import { create, globals } from 'webgpu';
import { beforeEach, describe, expect, it } from 'vitest';
import { initEngine } from '../engine';
import { tf } from './tf';

Object.assign(globalThis, globals);
const gpu = create([]);

describe('tf.config', () => {
  beforeEach(async () => {
    await initEngine({ gpu });
  });

  it('lists physical and logical devices with TensorFlow names', () => {
    const gpus = tf.config.listPhysicalDevices('GPU');
    expect(gpus.map(String)).toEqual([
      "PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')",
    ]);
    expect(tf.config.listPhysicalDevices().map((d) => d.name)).toEqual([
      '/physical_device:CPU:0',
      '/physical_device:GPU:0',
    ]);
    expect(tf.config.listLogicalDevices('GPU').map((d) => d.name)).toEqual(['/device:GPU:0']);
    const details = tf.config.experimental.getDeviceDetails(gpus[0]);
    expect(String(details.deviceName).length).toBeGreaterThan(0);
    expect(details.cpuEmulation).toBe(true);
  });

  it("runs the chapter's two logical GPUs on one physical GPU, then refuses changes", async () => {
    const gpus = tf.config.experimental.listPhysicalDevices('GPU');
    const { VirtualDeviceConfiguration } = tf.config.experimental;
    tf.config.experimental.setVirtualDeviceConfiguration(gpus[0], [
      new VirtualDeviceConfiguration({ memoryLimit: 1024 }),
      new VirtualDeviceConfiguration(1024),
    ]);
    const logical = tf.config.experimental.listLogicalDevices('GPU');
    expect(`${gpus.length} Physical GPU, ${logical.length} Logical GPUs`).toBe(
      '1 Physical GPU, 2 Logical GPUs',
    );
    expect(tf.config.getLogicalDeviceConfiguration(gpus[0])?.map((c) => c.memoryLimit)).toEqual([
      1024, 1024,
    ]);
    expect(tf.config.experimental.getMemoryInfo('GPU:1')).toEqual({ current: 0, peak: 0 });
    const x = tf.device('/gpu:1', () => tf.constant([1, 2, 3]));
    expect(x.device).toBe('gpu:1');
    expect(tf.config.experimental.getMemoryInfo('GPU:1').current).toBe(12);
    // The same configuration again is accepted (as TensorFlow does); a different one is not.
    tf.config.setLogicalDeviceConfiguration(gpus[0], [
      new tf.config.LogicalDeviceConfiguration({ memoryLimit: 1024 }),
      new tf.config.LogicalDeviceConfiguration({ memoryLimit: 1024 }),
    ]);
    expect(() =>
      tf.config.setLogicalDeviceConfiguration(gpus[0], [
        new tf.config.LogicalDeviceConfiguration(512),
      ]),
    ).toThrow('Virtual devices cannot be modified after being initialized');
    expect(() => tf.config.experimental.setMemoryGrowth(gpus[0], true)).toThrow(
      'Cannot set memory growth on device when virtual devices configured',
    );
    expect(await x.tolist()).toEqual([1, 2, 3]);
  });

  it('memory growth, visibility and their TensorFlow errors', () => {
    const [gpu0] = tf.config.listPhysicalDevices('GPU');
    tf.config.experimental.setMemoryGrowth(gpu0, true);
    expect(tf.config.experimental.getMemoryGrowth(gpu0)).toBe(true);
    expect(() =>
      tf.config.setLogicalDeviceConfiguration(gpu0, [new tf.config.LogicalDeviceConfiguration()]),
    ).toThrow('Setting memory limit is required for GPU virtual devices');
    tf.config.setVisibleDevices([], 'GPU');
    expect(tf.config.getVisibleDevices('GPU')).toEqual([]);
    expect(tf.config.listPhysicalDevices('GPU')).toHaveLength(1);
    expect(tf.config.listLogicalDevices('GPU')).toEqual([]);
    // Without a visible GPU tf places on the cpu, as TensorFlow's soft placement does.
    expect(tf.constant([1]).device).toBe('cpu');
    expect(() => tf.config.setVisibleDevices([gpu0], 'GPU')).toThrow(
      'Visible devices cannot be modified after being initialized',
    );
    expect(() => tf.config.experimental.setMemoryGrowth(gpu0, false)).toThrow(
      'Physical devices cannot be modified after being initialized',
    );
  });
});
