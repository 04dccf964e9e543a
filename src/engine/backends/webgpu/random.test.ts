import { describe, expect, it } from 'vitest';
import type { RandomParams } from '../../backend';
import { nodeGpuBackend } from '../../testing/node-gpu';
import { philox4x32, randomFillReference } from './random-reference';
import { describeKernels, expectClose, expectEqual } from './test-support';

const backend = await nodeGpuBackend();

const hex = (words: number[]) => words.map((w) => w.toString(16).padStart(8, '0'));

describe('Philox-4x32-10 reference', () => {
  it('matches the Random123 known-answer vectors', () => {
    expect(hex(philox4x32([0, 0, 0, 0], [0, 0]))).toEqual([
      '6627e8d5',
      'e169c58d',
      'bc57ac4c',
      '9b00dbd8',
    ]);
    const ones = 0xffffffff;
    expect(hex(philox4x32([ones, ones, ones, ones], [ones, ones]))).toEqual([
      '408f276d',
      '41c83b0e',
      'a20bc7c6',
      '6d5451fd',
    ]);
    expect(
      hex(philox4x32([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0])),
    ).toEqual(['d16cfe09', '94fdcceb', '5001e420', '24126ea1']);
  });
});

describeKernels('random kernel', backend, (gpu, ws) => {
  async function generate(n: number, params: RandomParams): Promise<Float32Array> {
    const out = ws.output('float32', [n]);
    gpu.random(out, params);
    return (await ws.read(out)) as Float32Array;
  }

  function reference(n: number, params: RandomParams): Float32Array {
    const out = new Float32Array(n);
    randomFillReference(out, params);
    return out;
  }

  it('uniform output is bit-identical to the TypeScript reference', async () => {
    const cases: RandomParams[] = [
      { kind: 'uniform', seed: 0, counter: 0, a: 0, b: 1 },
      { kind: 'uniform', seed: 42, counter: 1000, a: -3, b: 5.5 },
      { kind: 'uniform', seed: 123456789, counter: 7, a: 1e-3, b: 2e3 },
      // Seeds above 2^32 use the key's high word; a counter crossing 2^32 carries.
      { kind: 'uniform', seed: 2 ** 40 + 5, counter: 2 ** 34 - 5, a: -1, b: 1 },
    ];
    for (const params of cases) {
      for (const n of [1, 7, 1000]) {
        expectEqual(await generate(n, params), reference(n, params));
      }
    }
  });

  it('element i depends only on (seed, counter + i), whatever the launch', async () => {
    const whole = await generate(129, { kind: 'uniform', seed: 9, counter: 0, a: 0, b: 1 });
    for (const start of [1, 2, 3, 37]) {
      const tail = await generate(129 - start, {
        kind: 'uniform',
        seed: 9,
        counter: start,
        a: 0,
        b: 1,
      });
      expectEqual(tail, whole.subarray(start));
    }
    const normal = await generate(40, { kind: 'normal', seed: 9, counter: 0, a: 0, b: 1 });
    const normalTail = await generate(35, { kind: 'normal', seed: 9, counter: 5, a: 0, b: 1 });
    expectEqual(normalTail, normal.subarray(5));
    const other = await generate(129, { kind: 'uniform', seed: 10, counter: 0, a: 0, b: 1 });
    expect(other.filter((v, i) => v === whole[i]).length).toBeLessThan(3);
  });

  it('uniform values fill [a, b) evenly', async () => {
    const values = await generate(100_000, { kind: 'uniform', seed: 5, counter: 0, a: -2, b: 6 });
    let sum = 0;
    const bins = new Array<number>(8).fill(0);
    for (const v of values) {
      expect(v >= -2 && v < 6).toBe(true);
      sum += v;
      bins[Math.floor(v + 2)]++;
    }
    expect(Math.abs(sum / values.length - 2)).toBeLessThan(0.03);
    for (const count of bins) expect(Math.abs(count - 12_500)).toBeLessThan(500);
  });

  it('normal output matches the reference closely and has the requested mean and spread', async () => {
    const params: RandomParams = { kind: 'normal', seed: 77, counter: 3, a: 1.5, b: 0.5 };
    // Consecutive pairs share a radius (cos and sin of one angle), so check their independence.
    let correlation = 0;
    const values = await generate(100_000, params);
    expectClose(values.subarray(0, 2000), reference(2000, params), { rel: 2e-6, abs: 1e-6 });
    let sum = 0;
    let squares = 0;
    for (const v of values) {
      expect(Number.isFinite(v)).toBe(true);
      sum += v;
      squares += v * v;
    }
    const mean = sum / values.length;
    const std = Math.sqrt(squares / values.length - mean * mean);
    for (let i = 0; i + 1 < values.length; i++) {
      correlation += (values[i] - mean) * (values[i + 1] - mean);
    }
    expect(Math.abs(correlation / (values.length - 1) / std ** 2)).toBeLessThan(0.02);
    expect(Math.abs(mean - 1.5)).toBeLessThan(0.01);
    expect(Math.abs(std - 0.5)).toBeLessThan(0.01);
  });
});
