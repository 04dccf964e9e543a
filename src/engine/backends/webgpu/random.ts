/** Binds kernels/random.wgsl: Philox-4x32-10 uniform and normal tensors (see random-reference.ts). */

import type { OutView, RandomParams } from '../../backend';
import randomWgsl from '../../../../kernels/random.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { outputOf } from './gpu-buffer';
import { RANDOM } from './param-layouts';
import { elementCount } from './uniforms';

const source = RANDOM.source(randomWgsl);

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
  ctx
    .params(RANDOM)
    .set('n', n)
    .set('seedLo', seed >>> 0)
    .set('seedHi', Math.floor(seed / TWO_POW_32) >>> 0)
    .set('counterLo', counter >>> 0)
    .set('counterHi', Math.floor(counter / TWO_POW_32) >>> 0)
    .set('a', params.a)
    .set('b', params.b);
  // One invocation per Philox block of four stream positions.
  const blocks = Math.ceil(((counter % 4) + n) / 4);
  ctx.run(kernel, [outputOf(out)], grid64(blocks));
}
