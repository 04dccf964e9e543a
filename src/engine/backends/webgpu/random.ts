/** Binds kernels/random.wgsl: Philox-4x32-10 uniform and normal tensors (see random-reference.ts). */

import type { OutView, RandomParams } from '../../backend';
import source from '../../../../kernels/random.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { outputOf } from './gpu-buffer';
import { elementCount } from './uniforms';

const TWO_POW_32 = 2 ** 32;

export function random(ctx: KernelContext, out: OutView, params: RandomParams): void {
  if (out.dtype !== 'float32') throw new Error('random: WebGPU generates float32 tensors');
  const n = elementCount(out.shape);
  if (n === 0) return;
  const normal = params.kind === 'normal';
  const kernel = ctx.kernel('random', params.kind, 'w', source, () => ({
    flags: normal ? ['NORMAL'] : [],
  }));
  const seed = Math.floor(params.seed);
  const counter = Math.floor(params.counter);
  ctx.queue
    .params()
    .u32(0, n)
    .u32(1, seed >>> 0)
    .u32(2, Math.floor(seed / TWO_POW_32) >>> 0)
    .u32(3, counter >>> 0)
    .u32(4, Math.floor(counter / TWO_POW_32) >>> 0)
    .f32(5, params.a)
    .f32(6, params.b);
  // One invocation per Philox block of four stream positions.
  const blocks = Math.ceil(((counter % 4) + n) / 4);
  ctx.run(kernel, [outputOf(out)], grid64(blocks));
}
