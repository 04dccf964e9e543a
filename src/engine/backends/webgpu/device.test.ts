import { describe, expect, it } from 'vitest';
import { createNodeGpuBackend, nodeGpuBackend } from '../../testing/node-gpu';
import { expandWgsl } from './wgsl-template';
import { grid64 } from './context';
import { sizeClass } from './buffer-pool';
import { describeKernels, expectEqual, randomFloats, rng } from './test-support';
import type { WebGPUBackend } from './index';

const backend = await nodeGpuBackend();

describe('wgsl template', () => {
  it('keeps the chosen #if branches and fills placeholders, blanking the rest', () => {
    const source = [
      'a /*T*/',
      '//#if X',
      'x',
      '//#elif Y && !Z',
      'y',
      '//#else',
      'z',
      '//#endif',
    ].join('\n');
    expect(expandWgsl('t', source, { flags: ['Y'], values: { T: 'f32' } }).split('\n')).toEqual([
      'a f32',
      '',
      '',
      '',
      'y',
      '',
      '',
      '',
    ]);
    expect(expandWgsl('t', source, { values: { T: 'i32' } })).toContain('z');
    expect(() => expandWgsl('t', 'a /*MISSING*/')).toThrow(/MISSING/);
  });

  it('size classes hold the request, are multiples of 16, and waste at most a quarter', () => {
    for (const bytes of [1, 4, 255, 257, 1000, 4097, 123457, 10_000_000]) {
      const size = sizeClass(bytes);
      expect(size).toBeGreaterThanOrEqual(bytes);
      expect(size % 16).toBe(0);
      if (bytes > 256) expect(size).toBeLessThanOrEqual(bytes * 1.25 + 16);
    }
  });
});

describeKernels('WebGPU device', backend, (gpu, ws) => {
  it('reports its adapter and limits', () => {
    expect(gpu.kind).toBe('webgpu');
    expect(gpu.limits.maxStorageBufferBindingSize).toBeGreaterThanOrEqual(128 * 1024 * 1024);
    expect(typeof gpu.info.vendor).toBe('string');
    expect(gpu.lost).toBeInstanceOf(Promise);
  });

  it('reads back what was written, whole or as a sub-range, for both dtypes', async () => {
    const floats = randomFloats(129, rng(1));
    const f = ws.view(floats, [129]);
    expectEqual(await gpu.read(f.view.buffer, 'float32', 0, 129), floats);
    expectEqual(await gpu.read(f.view.buffer, 'float32', 33, 7), floats.subarray(33, 40));
    const ints = Int32Array.from({ length: 65 }, (_, i) => ((i * 7919) % 1000) - 500);
    const n = ws.view(ints, [65]);
    expectEqual(await gpu.read(n.view.buffer, 'int32', 0, 65), ints);
    expect((await gpu.read(n.view.buffer, 'int32', 3, 0)).length).toBe(0);
  });

  it('runs hundreds of dependent dispatches across several submits in order', async () => {
    const x = ws.view(new Float32Array(33).fill(0.5), [33]);
    const y = ws.output('float32', [33]);
    const submitsBefore = gpu.context.queue.submits;
    for (let i = 0; i < 150; i++) {
      const [from, to] = i % 2 === 0 ? [x.view, y] : [y, x.view];
      gpu.binaryScalar('add', from, 1, false, to);
    }
    // The last (150th) add wrote x: 0.5 + 150; y holds the 149th.
    expectEqual(await ws.read(x.view), new Float32Array(33).fill(150.5));
    expectEqual(await ws.read(y), new Float32Array(33).fill(149.5));
    expect(gpu.context.queue.submits - submitsBefore).toBeGreaterThanOrEqual(3);
  });

  it('orders a host write after queued work that reads the old contents', async () => {
    const source = ws.view(new Float32Array([1, 2, 3]), [3]);
    const before = ws.output('float32', [3]);
    const after = ws.output('float32', [3]);
    gpu.unary('neg', source.view, before);
    gpu.write(source.view.buffer, new Float32Array([10, 20, 30]));
    gpu.unary('neg', source.view, after);
    expectEqual(await ws.read(before), [-1, -2, -3]);
    expectEqual(await ws.read(after), [-10, -20, -30]);
  });

  it('writes pending host data in order with the work around it (writeAsync)', async () => {
    const target = ws.view(new Float32Array([1, 1, 1, 1]), [4]);
    const early = ws.output('float32', [4]);
    const late = ws.output('float32', [4]);
    gpu.unary('square', target.view, early);
    let resolve: (data: Float32Array) => void = () => {};
    gpu.writeAsync(target.view.buffer, new Promise<Float32Array>((r) => (resolve = r)));
    gpu.unary('square', target.view, late);
    const reading = ws.read(late);
    setTimeout(() => resolve(new Float32Array([2, 3, 4, 5])), 20);
    expectEqual(await reading, [4, 9, 16, 25]);
    expectEqual(await ws.read(early), [1, 1, 1, 1]);
  });

  it('updates in place when an output is also an input (read from a copy)', async () => {
    const a = ws.view(new Float32Array([1, 2, 3, 4, 5]), [5]);
    const b = ws.view(new Float32Array([10, 20, 30, 40, 50]), [5]);
    gpu.binary('add', a.view, b.view, a.view);
    expectEqual(await ws.read(a.view), [11, 22, 33, 44, 55]);
  });

  it('reuses pooled buffers of the same size class and frees them on emptyCache', () => {
    const first = gpu.allocate(1000);
    const created = gpu.poolStats().createdBuffers;
    const gpuBuffer = (first as unknown as { gpu: GPUBuffer }).gpu;
    gpu.release(first);
    expect(gpu.poolStats().freeBuffers).toBeGreaterThan(0);
    const second = gpu.allocate(900);
    expect((second as unknown as { gpu: GPUBuffer }).gpu).toBe(gpuBuffer);
    expect(gpu.poolStats().createdBuffers).toBe(created);
    gpu.release(second);
    gpu.emptyCache();
    expect(gpu.poolStats().freeBuffers).toBe(0);
    expect(gpu.poolStats().freeBytes).toBe(0);
    const third = gpu.allocate(1000);
    expect((third as unknown as { gpu: GPUBuffer }).gpu).not.toBe(gpuBuffer);
    expect(gpu.poolStats().createdBuffers).toBe(created + 1);
    gpu.release(third);
    expect(() => gpu.release(third)).toThrow(/after release/);
  });
});

describe.skipIf(!backend)('WebGPU errors', () => {
  it('reports a WGSL compile failure with the kernel name, and device loss', async () => {
    const own = (await createNodeGpuBackend()) as WebGPUBackend;
    const ctx = own.context;
    const kernel = ctx.kernel('broken-kernel', 'k1', 'w', 'fn main( {', () => ({}));
    const out = own.allocate(16);
    ctx.queue.params();
    ctx.run(kernel, [(out as unknown as { gpu: GPUBuffer }).gpu], grid64(4));
    await expect(own.synchronize()).rejects.toThrow(/broken-kernel\[k1\]/);
    // Once known, the failure is thrown at once by later uses of that kernel.
    expect(() => ctx.kernel('broken-kernel', 'k1', 'w', 'fn main( {', () => ({}))).toThrow(
      /broken-kernel/,
    );
    own.device.destroy();
    const info = await own.lost;
    expect(info.reason).toBe('destroyed');
  });
});
