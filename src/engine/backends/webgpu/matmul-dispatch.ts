/**
 * Records one matrix product with a named kernel variant: picks the register, shared-memory or
 * register-blocked kernel (with its fused epilogue), writes the parameter slot and dispatches.
 */
import registerSource from '../../../../kernels/matmul.wgsl?raw';
import tiledSource from '../../../../kernels/matmul-tiled.wgsl?raw';
import type { KernelContext } from './context';
import { blockedGroups, blockedKernel, type Epilogue } from './matmul-blocked';
import { blockedSpecOf, defaultMatmulVariant, type MatmulVariant } from './variants';

export interface MatmulShape {
  readonly batch: number;
  readonly m: number;
  readonly n: number;
  readonly k: number;
}

/** A [B, M, K] or [B, K, N] operand as the kernels address it: buffer, offset, three strides. */
export interface Operand {
  readonly gpu: GPUBuffer;
  readonly offset: number;
  readonly strides: readonly [number, number, number];
}

const aligned = (...values: number[]): boolean => values.every((v) => v % 4 === 0);

/** Most batches in one dispatch (one grid axis). */
const MAX_BATCH_PER_DISPATCH = 65535;

/** Whether the device was opened with subgroups (quad broadcasts). */
export function hasSubgroups(ctx: KernelContext): boolean {
  return ctx.device.features.has('subgroups');
}

/** Records one product with the given variant (all batches). */
export function dispatchVariant(
  ctx: KernelContext,
  variant: MatmulVariant,
  a: Operand,
  b: Operand,
  out: GPUBuffer,
  shape: MatmulShape,
  epilogue: Epilogue & {
    biasBuffer?: GPUBuffer;
    biasOffset?: number;
    pixels?: number;
    /** Sum the batch's products into one [M, N] output. */
    sumBatches?: boolean;
  } = {},
): void {
  const { batch, m, n, k } = shape;
  const [sab, sam, sak] = a.strides;
  const [sbb, sbk, sbn] = b.strides;
  let groups: [number, number];
  let kernel;
  const blocked = blockedSpecOf(variant);
  const fused = epilogue.bias || epilogue.relu || epilogue.nchw || epilogue.sumBatches;
  if (blocked || fused) {
    let spec = blocked ?? blockedSpecOf(defaultMatmulVariant(hasSubgroups(ctx)))!;
    // A quad variant asked for where subgroups are missing runs its plain twin.
    if (spec.quad && !hasSubgroups(ctx)) spec = { ...spec, quad: false };
    kernel = blockedKernel(ctx, spec, epilogue);
    groups = blockedGroups(spec, m, n);
  } else if (variant === 'register') {
    const flags: string[] = [];
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
    const flags: string[] = [];
    if (sak === 1) flags.push('A_K_MAJOR');
    if (sbn === 1) flags.push('B_N_MAJOR');
    kernel = ctx.kernel('matmul-tiled', flags.join(','), 'wrr', tiledSource, () => ({ flags }));
    groups = [Math.ceil(n / 64), Math.ceil(m / 64)];
  }
  const buffers = [out, a.gpu, b.gpu];
  if (epilogue.bias && epilogue.biasBuffer) buffers.push(epilogue.biasBuffer);
  if (epilogue.sumBatches) {
    writeParams(ctx, shape, a, b, 0, epilogue, batch);
    ctx.run(kernel, buffers, [groups[0], groups[1], 1]);
    return;
  }
  for (let base = 0; base < batch; base += MAX_BATCH_PER_DISPATCH) {
    writeParams(ctx, shape, a, b, base, epilogue, 1);
    ctx.run(kernel, buffers, [
      groups[0],
      groups[1],
      Math.min(MAX_BATCH_PER_DISPATCH, batch - base),
    ]);
  }
}

function writeParams(
  ctx: KernelContext,
  { m, n, k }: MatmulShape,
  a: Operand,
  b: Operand,
  base: number,
  epilogue: { pixels?: number; biasOffset?: number },
  summed: number,
): void {
  const [sab, sam, sak] = a.strides;
  const [sbb, sbk, sbn] = b.strides;
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
    .i32(11, sbn)
    .u32(12, epilogue.pixels ?? 1)
    .u32(13, epilogue.biasOffset ?? 0)
    .u32(14, summed);
}
