import { expect, it } from 'vitest';
import { nodeGpuBackend } from '../../testing/node-gpu';
import { chooseMatmulVariant, splitKPiece } from './matmul';
import { matmulCandidates } from './variants';
import { describeKernels, at, randomFloats, rng, type HostView } from './test-support';
import type { MatmulVariant } from './variants';

const backend = await nodeGpuBackend();

/** a: [B, M, K] (transposeA: stored as [B, K, M]); b: [B, K, N] (transposeB: stored [B, N, K]). */
interface Case {
  batch: number;
  m: number;
  k: number;
  n: number;
  transposeA?: boolean;
  transposeB?: boolean;
  /** b shared by every batch (batch stride 0). */
  broadcastB?: boolean;
  /** Elements skipped at the start of both buffers. */
  offset?: number;
}

describeKernels('matmul kernels', backend, (gpu, ws) => {
  function operand(
    rows: number,
    cols: number,
    batch: number,
    transpose: boolean,
    broadcast: boolean,
    offset: number,
    seed: number,
  ): HostView {
    const stored = broadcast ? 1 : batch;
    const data = randomFloats(offset + stored * rows * cols, rng(seed));
    const batchStride = broadcast ? 0 : rows * cols;
    const strides = transpose ? [batchStride, 1, rows] : [batchStride, cols, 1];
    return ws.view(data, [batch, rows, cols], strides, offset);
  }

  async function check(c: Case, variant: MatmulVariant): Promise<void> {
    const offset = c.offset ?? 0;
    const a = operand(c.m, c.k, c.batch, !!c.transposeA, false, offset, c.m * 31 + c.k);
    const b = operand(c.k, c.n, c.batch, !!c.transposeB, !!c.broadcastB, offset, c.n * 17 + c.k);
    const out = ws.output('float32', [c.batch, c.m, c.n]);
    gpu.overrides.matmul = variant;
    gpu.context.autotune = false;
    gpu.matmul(a.view, b.view, out);
    const actual = await ws.read(out);
    for (let batch = 0; batch < c.batch; batch++) {
      for (let i = 0; i < c.m; i++) {
        for (let j = 0; j < c.n; j++) {
          let sum = 0;
          let magnitude = 0;
          for (let k = 0; k < c.k; k++) {
            const term = at(a, [batch, i, k]) * at(b, [batch, k, j]);
            sum += term;
            magnitude += Math.abs(term);
          }
          const got = actual[(batch * c.m + i) * c.n + j];
          if (!(Math.abs(got - sum) <= 1e-6 * magnitude + 1e-6)) {
            expect.fail(
              `${JSON.stringify(c)} ${variant}: out[${batch},${i},${j}] = ${got}, expected ${sum}`,
            );
          }
        }
      }
    }
  }

  const sizes: [number, number, number][] = [
    [1, 1, 1],
    [3, 7, 5],
    [7, 33, 3],
    [33, 65, 7],
    [65, 3, 129],
    [129, 129, 65],
    [8, 12, 16],
    // K and N multiples of 4 with an odd M: the vec4 members' own path, with edge tiles.
    [33, 68, 20],
    [64, 64, 64],
    [1, 128, 4],
    [4, 129, 1],
  ];

  // Every variant the tuner may pick, plus plain twins of the quad shapes (adapters without
  // subgroups), a thin 1x8 blocked shape and a small shared-memory tile.
  const variants: MatmulVariant[] = [
    ...matmulCandidates(true),
    's16x8@4x8',
    's1x8@32x1',
    't4x4@8x8',
  ];
  for (const variant of variants) {
    it(`${variant}: odd and aligned sizes in every transpose layout`, async () => {
      for (const [m, k, n] of sizes) {
        for (const transposeA of [false, true]) {
          for (const transposeB of [false, true]) {
            await check({ batch: 1, m, k, n, transposeA, transposeB }, variant);
          }
        }
      }
    });

    it(`${variant}: batches, stride-0 broadcast of b, and offsets (aligned or not)`, async () => {
      await check({ batch: 3, m: 7, k: 33, n: 5, broadcastB: true }, variant);
      await check({ batch: 2, m: 16, k: 8, n: 12, broadcastB: true, offset: 4 }, variant);
      await check({ batch: 2, m: 16, k: 8, n: 12, offset: 3 }, variant);
      await check(
        { batch: 3, m: 12, k: 20, n: 8, transposeA: true, transposeB: true, offset: 4 },
        variant,
      );
      await check({ batch: 1, m: 5, k: 0, n: 3 }, variant);
    });
  }

  it('runs the vec4 members as vec4 where the operands fit, and their scalar twins elsewhere', () => {
    const blocked = gpu.context.pipelines.labels().filter((l) => l.startsWith('matmul-blocked['));
    for (const variant of matmulCandidates(false).filter((v) => v.startsWith('v'))) {
      const twin = variant.replace(/^v/, 's');
      expect(blocked.some((l) => l.includes(variant) && l.includes('VEC4'))).toBe(true);
      expect(blocked.some((l) => l.includes(twin))).toBe(true);
    }
  });

  // Quad members run as quads where the device has subgroups, and as their plain twins elsewhere.
  it('runs the quad members as quads exactly where the device has subgroups', () => {
    const subgroups = gpu.device.features.has('subgroups');
    const blocked = gpu.context.pipelines.labels().filter((l) => l.startsWith('matmul-blocked['));
    for (const variant of matmulCandidates(true).filter((v) => /^[qx]/.test(v))) {
      const twin = variant.replace(/^[qx]/, 's');
      const ran = subgroups
        ? blocked.some((l) => l.includes(variant) && l.includes('QUAD'))
        : blocked.some((l) => l.includes(twin));
      expect(ran).toBe(true);
    }
  });

  // An x… member's lanes sum a quad's k steps in different orders, so a lane past the right edge
  // must store into a column of its own lane (edgeColumn), not into one whose owner's sum has
  // other bits. The same columns of a product with no edge there must match bit for bit (on
  // devices without subgroups the plain twins run, for which it holds as well).
  it('x members: edge lanes never overwrite a column with other bits', async () => {
    const [m, k, wide] = [19, 27, 128];
    const aData = randomFloats(m * k, rng(5));
    const bData = randomFloats(k * wide, rng(6));
    for (const variant of matmulCandidates(true).filter((v) => v.startsWith('x'))) {
      gpu.overrides.matmul = variant;
      gpu.context.autotune = false;
      const a = ws.view(aData, [1, m, k]);
      const whole = ws.output('float32', [1, m, wide]);
      gpu.matmul(a.view, ws.view(bData, [1, k, wide]).view, whole);
      const expected = await ws.read(whole);
      for (const n of [37, 6, 4]) {
        const out = ws.output('float32', [1, m, n]);
        gpu.matmul(a.view, ws.view(bData, [1, k, n], [k * wide, wide, 1]).view, out);
        const actual = await ws.read(out);
        for (let i = 0; i < m; i++) {
          for (let j = 0; j < n; j++) {
            if (!Object.is(actual[i * n + j], expected[i * wide + j])) {
              throw new Error(
                `${variant}, n=${n}: (${i}, ${j}) ${actual[i * n + j]} != ${expected[i * wide + j]}`,
              );
            }
          }
        }
      }
    }
  });

  it('exercises every load layout of the register kernel', () => {
    const compiled = gpu.context.pipelines.labels().filter((l) => l.startsWith('matmul['));
    for (const flag of ['A_VEC_K', 'A_VEC_M', 'B_VEC_N', 'B_VEC_K', 'TM4', 'OUT_VEC']) {
      expect(
        compiled.some((label) => label.includes(flag)),
        flag,
      ).toBe(true);
    }
    // And the fully scalar (strided, unaligned) form.
    expect(compiled.some((label) => label.startsWith('matmul[|'))).toBe(true);
  });

  it('split-K: few outputs over a long K (with a leftover piece), in both layouts', async () => {
    gpu.overrides.matmul = undefined;
    // Pieces that divide K: one product and the sum of its pieces; a prime K (9001, 10007) also
    // needs a product of its leftover piece.
    for (const [m, k, n, transposeA, dispatches] of [
      [2, 9000, 1, true, 2],
      [3, 8192, 5, false, 2],
      [1, 10_000, 2, true, 2],
      [2, 9001, 1, true, 3],
      [3, 10_007, 2, false, 3],
    ] as const) {
      const before = gpu.context.queue.dispatches;
      await check({ batch: 1, m, k, n, transposeA }, gpu.context.candidates[0]);
      expect(gpu.context.queue.dispatches - before, `${m}x${k}x${n}`).toBe(dispatches);
    }
  });

  it('cuts K into pieces that divide it when one is near 1024 long', () => {
    expect(splitKPiece(1_000_000)).toBe(1000);
    expect(splitKPiece(60_000)).toBe(1000);
    expect(splitKPiece(1 << 20)).toBe(1024);
    expect(splitKPiece(9900)).toBe(990);
    expect(splitKPiece(9001)).toBe(1024);
    for (const k of [8192, 9000, 12_345, 99_991, 1_000_000]) {
      const piece = splitKPiece(k);
      expect(piece).toBeGreaterThanOrEqual(768);
      expect(piece).toBeLessThanOrEqual(1280);
      if (piece !== 1024) expect(k % piece).toBe(0);
    }
  });

  it('chooses a forced variant, the default for products too small to tune, small blocks for small outputs', () => {
    const input = { batch: 1, m: 64, n: 32, k: 8, aLayout: 'k', bLayout: 'n' } as const;
    gpu.overrides.matmul = 'tiled';
    expect(chooseMatmulVariant(gpu.context, input)).toBe('tiled');
    gpu.overrides.matmul = undefined;
    expect(chooseMatmulVariant(gpu.context, input)).toBe(gpu.context.candidates[0]);
    // A 32 x 9 output (a first convolution's weight gradient) whatever its batch and K.
    const small = { ...input, batch: 128, m: 32, n: 9, k: 676, summed: true };
    expect(chooseMatmulVariant(gpu.context, small)).toBe('s4x4@4x4');
  });
});
