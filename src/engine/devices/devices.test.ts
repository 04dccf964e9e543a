import { create, globals } from 'webgpu';
import { describe, expect, it } from 'vitest';
import { parseDeviceName } from './device-name';
import { defaultDevice, withTfDevice } from './placement';
import { getDevice, gpuDevices, initEngine, listDevices } from './registry';

describe('device names', () => {
  it('reduce every spelling to cpu or gpu:N', () => {
    expect(parseDeviceName('cuda:1').name).toBe('gpu:1');
    expect(parseDeviceName('/device:GPU:2').name).toBe('gpu:2');
    expect(parseDeviceName('/gpu:0').name).toBe('gpu:0');
    expect(parseDeviceName('cuda').name).toBe('gpu:0');
    expect(parseDeviceName('/cpu:0').name).toBe('cpu');
    expect(parseDeviceName({ name: 'gpu:3' }).name).toBe('gpu:3');
  });
});

describe('initEngine', () => {
  it('runs everything on the cpu without WebGPU', async () => {
    const status = await initEngine({ gpu: null });
    expect(status.backend).toBe('cpu');
    expect(listDevices().map((d) => d.name)).toEqual(['cpu']);
    expect(() => getDevice('cuda')).toThrow('gpu:0 is not available: no GPU');
    expect(defaultDevice('tf').name).toBe('cpu');
    // TensorFlow's soft placement: a GPU scope without a GPU places on the cpu.
    expect(withTfDevice('/gpu:0', () => defaultDevice('tf').name)).toBe('cpu');
  });

  it('makes the WebGPU adapter gpu:0, the default for tf but not torch', async () => {
    Object.assign(globalThis, globals);
    const status = await initEngine({ gpu: create([]) });
    expect(status.backend).toBe('webgpu');
    expect(gpuDevices()).toHaveLength(1);
    expect(gpuDevices()[0].info.label.length).toBeGreaterThan(0);
    expect(defaultDevice('torch').name).toBe('cpu');
    expect(defaultDevice('tf').name).toBe('gpu:0');
    expect(withTfDevice('/cpu:0', () => defaultDevice('tf').name)).toBe('cpu');
    const inside = await withTfDevice('/cpu:0', async () => {
      await Promise.resolve();
      return defaultDevice('tf').name;
    });
    expect(inside).toBe('cpu');
    expect(defaultDevice('tf').name).toBe('gpu:0');
  });
});
