/**
 * Binds kernels/matmul.wgsl (register-blocked, 8x8 per invocation) and kernels/matmul-tiled.wgsl (shared-memory
 * tiles), and chooses between them in one function the autotuner can later replace.
 */

import type { OutView, View } from '../../backend';
import registerSource from '../../../../kernels/matmul.wgsl?raw';
import tiledSource from '../../../../kernels/matmul-tiled.wgsl?raw';
import type { AdapterProfile, KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import type { MatmulVariant } from './variants';

export interface MatmulShape {
  readonly batch: number;
  readonly m: number;
  readonly n: number;
  readonly k: number;
}

/**
 * The variant to run. CPU emulations get the register kernel (barriers are expensive there and
 * it measured fastest); real GPUs get shared-memory tiles once there are whole 64x64 tiles to
 * fill, the register kernel for thin or small products.
 */
export function chooseMatmulVariant(profile: AdapterProfile, shape: MatmulShape): MatmulVariant {
  if (profile.cpuEmulated) return 'register';
  return shape.m >= 64 && shape.n >= 64 ? 'tiled' : 'register';
}

/** Strides of a [B, M, K] / [B, K, N] view with size-1 dimensions' strides zeroed (they never move). */
function strides3(view: View): [number, number, number] {
  const [s0, s1, s2] = view.strides;
  const [d0, d1, d2] = view.shape;
  return [d0 === 1 ? 0 : s0, d1 === 1 ? 0 : s1, d2 === 1 ? 0 : s2];
}

const aligned = (...values: number[]): boolean => values.every((v) => v % 4 === 0);

/** Most batches in one dispatch (one grid axis). */
const MAX_BATCH_PER_DISPATCH = 65535;

export function matmul(
  ctx: KernelContext,
  a: View,
  b: View,
  out: OutView,
  variant: MatmulVariant | undefined = ctx.overrides.matmul,
): void {
  if (a.dtype !== 'float32' || b.dtype !== 'float32' || out.dtype !== 'float32') {
    throw new Error('matmul: WebGPU kernels take float32 operands');
  }
  const [batch, m, k] = a.shape;
  const n = b.shape[2];
  if (batch === 0 || m === 0 || n === 0) return;
  const [sab, sam, sak] = strides3(a);
  const [sbb, sbk, sbn] = strides3(b);
  const chosen = variant ?? chooseMatmulVariant(ctx.profile, { batch, m, n, k });
  const flags: string[] = [];
  let groups: [number, number];
  let kernel;
  if (chosen === 'register') {
    if (sak === 1 && k % 4 === 0 && aligned(a.offset, sam, sab)) flags.push('A_VEC_K');
    else if (sam === 1 && m % 4 === 0 && aligned(a.offset, sak, sab)) flags.push('A_VEC_M');
    if (sbn === 1 && n % 4 === 0 && aligned(b.offset, sbk, sbb)) flags.push('B_VEC_N');
    else if (sbk === 1 && k % 4 === 0 && aligned(b.offset, sbn, sbb)) flags.push('B_VEC_K');
    if (n % 4 === 0) flags.push('OUT_VEC');
    // Thin products (a few rows) get 4-row tiles and wide workgroups, so fewer invocations compute
    // clamped rows that are never stored.
    const tileRows = m <= 4 ? 4 : 8;
    if (tileRows === 4) flags.push('TM4');
    const [wgx, wgy] = m <= 4 ? [64, 1] : [8, 8];
    kernel = ctx.kernel(
      'matmul',
      `${flags.join(',')}|${wgx}x${wgy}`,
      'wrr',
      registerSource,
      () => ({
        flags,
        values: { WGX: wgx, WGY: wgy },
      }),
    );
    groups = [Math.ceil(n / 8 / wgx), Math.ceil(m / tileRows / wgy)];
  } else {
    if (sak === 1) flags.push('A_K_MAJOR');
    if (sbn === 1) flags.push('B_N_MAJOR');
    kernel = ctx.kernel('matmul-tiled', flags.join(','), 'wrr', tiledSource, () => ({ flags }));
    groups = [Math.ceil(n / 64), Math.ceil(m / 64)];
  }
  const buffers = [outputOf(out), gpuOf(a), gpuOf(b)];
  for (let base = 0; base < batch; base += MAX_BATCH_PER_DISPATCH) {
    ctx.queue
      .params()
      .u32(0, m)
      .u32(1, n)
      .u32(2, k)
      .u32(3, base)
      .i32(4, a.offset)
      .i32(5, sab)
      .i32(6, sam)
      .i32(7, sak)
      .i32(8, b.offset)
      .i32(9, sbb)
      .i32(10, sbk)
      .i32(11, sbn);
    ctx.run(kernel, buffers, [
      groups[0],
      groups[1],
      Math.min(MAX_BATCH_PER_DISPATCH, batch - base),
    ]);
  }
}
