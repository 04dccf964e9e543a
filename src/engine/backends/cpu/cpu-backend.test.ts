import { describe, expect, it } from 'vitest';
import { CpuBackend } from '.';

describe('the CPU backend', () => {
  it('queues kernels behind a pending copy and runs them in order', async () => {
    const cpu = new CpuBackend();
    const a = cpu.allocate(12);
    const b = cpu.allocate(12);
    let deliver: (v: Float32Array) => void = () => {};
    cpu.writeAsync(a, new Promise<Float32Array>((resolve) => (deliver = resolve)));
    expect(cpu.idle).toBe(false);
    const view = (buffer: typeof a) => ({
      buffer,
      dtype: 'float32' as const,
      shape: [3],
      strides: [1],
      offset: 0,
    });
    cpu.binaryScalar('mul', view(a), 10, false, view(b));
    expect(cpu.readSync(b, 'float32', 0, 3)).toBeNull();
    deliver(Float32Array.of(1, 2, 3));
    expect(Array.from(await cpu.read(b, 'float32', 0, 3))).toEqual([10, 20, 30]);
    expect(cpu.idle).toBe(true);
  });

  it('walks strided and broadcast views', async () => {
    const cpu = new CpuBackend();
    const a = cpu.allocate(6 * 4);
    cpu.write(a, Float32Array.of(1, 2, 3, 4, 5, 6));
    const b = cpu.allocate(2 * 4);
    cpu.write(b, Float32Array.of(10, 20));
    const out = cpu.allocate(6 * 4);
    // a viewed as its transpose [3, 2] plus b broadcast along rows.
    cpu.binary(
      'add',
      { buffer: a, dtype: 'float32', shape: [3, 2], strides: [1, 3], offset: 0 },
      { buffer: b, dtype: 'float32', shape: [3, 2], strides: [0, 1], offset: 0 },
      { buffer: out, dtype: 'float32', shape: [3, 2], strides: [2, 1], offset: 0 },
    );
    expect(Array.from(await cpu.read(out, 'float32', 0, 6))).toEqual([11, 24, 12, 25, 13, 26]);
  });

  it('reports a label out of range from its gather kernel', () => {
    const cpu = new CpuBackend();
    const x = cpu.allocate(4 * 4);
    const idx = cpu.allocate(2 * 4);
    cpu.write(idx, Int32Array.of(1, 5));
    const out = cpu.allocate(2 * 4);
    expect(() =>
      cpu.gatherColumns(
        { buffer: x, dtype: 'float32', shape: [2, 2], strides: [2, 1], offset: 0 },
        { buffer: idx, dtype: 'int32', shape: [2], strides: [1], offset: 0 },
        { buffer: out, dtype: 'float32', shape: [2], strides: [1], offset: 0 },
      ),
    ).toThrow('label 5 is out of range: expected a value in [0, 1]');
  });

  it('reuses released buffers of the same size, but not ones released behind a pending copy', async () => {
    const cpu = new CpuBackend();
    const first = cpu.allocate(4000);
    cpu.release(first);
    expect(cpu.allocate(4000)).toBe(first);
    expect(cpu.allocate(4000)).not.toBe(first);
    // A buffer released while a copy is still on its way may yet be touched by queued kernels.
    const late = cpu.allocate(400);
    let deliver: (v: Float32Array) => void = () => {};
    cpu.writeAsync(late, new Promise<Float32Array>((resolve) => (deliver = resolve)));
    cpu.release(late);
    deliver(new Float32Array(100).fill(1));
    await cpu.synchronize();
    expect(cpu.allocate(400)).not.toBe(late);
    const kept = cpu.allocate(400);
    cpu.release(kept);
    cpu.emptyCache();
    expect(cpu.allocate(400)).not.toBe(kept);
  });

  it('reads the data as it is when read is called, even if the buffer is reused before the await', async () => {
    const cpu = new CpuBackend();
    const buffer = cpu.allocate(12);
    cpu.write(buffer, Float32Array.of(1, 2, 3));
    const reading = cpu.read(buffer, 'float32', 0, 3);
    cpu.release(buffer);
    const reused = cpu.allocate(12);
    expect(reused).toBe(buffer);
    cpu.write(reused, Float32Array.of(7, 8, 9));
    expect(Array.from(await reading)).toEqual([1, 2, 3]);
  });
});
