/** Binds kernels/softmax.wgsl: row-wise softmax and log-softmax of a strided 2-D view. */

import type { OutView, View } from '../../backend';
import softmaxSource from '../../../../kernels/softmax.wgsl?raw';
import { grid, grid64, type AdapterProfile, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import type { RowMode } from './variants';

/**
 * A workgroup per row once rows are long enough to pay for its barriers, else an invocation per
 * row. CPU emulations pay ~40 us per workgroup, so there only a few very long rows (which would
 * leave all but a few lanes idle) get workgroups: [1000, 1000] took 20 ms as invocations and 91
 * ms as workgroups, [1, 10^6] 87 ms and 35 ms.
 */
export function chooseSoftmaxMode(profile: AdapterProfile, rows: number, cols: number): RowMode {
  if (profile.cpuEmulated) return rows < 8 && cols >= 8192 ? 'workgroup' : 'thread';
  return cols >= 256 ? 'workgroup' : 'thread';
}

export function softmax(
  ctx: KernelContext,
  x: View,
  out: OutView,
  log: boolean,
  force: RowMode | undefined = ctx.overrides.softmax,
): void {
  const [rows, cols] = x.shape;
  if (rows === 0 || cols === 0) return;
  const mode = force ?? chooseSoftmaxMode(ctx.profile, rows, cols);
  const flags: string[] = [];
  if (log) flags.push('LOG');
  if (mode === 'workgroup') flags.push('WORKGROUP');
  const kernel = ctx.kernel('softmax', flags.join(','), 'wr', softmaxSource, () => ({ flags }));
  ctx.queue
    .params()
    .u32(0, rows)
    .u32(1, cols)
    .i32(2, x.offset)
    .i32(3, x.strides[0])
    .i32(4, x.strides[1]);
  ctx.run(kernel, [outputOf(out), gpuOf(x)], mode === 'workgroup' ? grid(rows) : grid64(rows));
}
