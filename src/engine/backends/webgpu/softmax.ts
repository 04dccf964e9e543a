/** Binds kernels/softmax.wgsl: row-wise softmax and log-softmax of a strided 2-D view. */

import type { OutView, View } from '../../backend';
import softmaxWgsl from '../../../../kernels/softmax.wgsl?raw';
import { grid, grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import { chooseRowMode, extentOf, trialShape } from './rowmode-tune';
import { SOFTMAX } from './param-layouts';
import type { RowMode } from './variants';

const softmaxSource = SOFTMAX.source(softmaxWgsl);

/**
 * The mode before a shape class is tuned (and for ops too small to tune), from the shape alone: a
 * workgroup per row only for a few very long rows, else an invocation per row. An invocation per
 * row is never catastrophic when there are rows enough to go round (CPU emulations pay ~40 us per
 * workgroup: [1000, 1000] took 20 ms as invocations, 91 ms as workgroups), but a few long rows
 * would leave one lane looping over a whole row — a workgroup wins there on CPU emulations too
 * ([1, 10^6]: 87 ms as invocations, 35 ms as workgroups) and by far more on GPUs.
 */
export function defaultSoftmaxMode(rows: number, cols: number): RowMode {
  return rows < 8 && cols >= 8192 ? 'workgroup' : 'thread';
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
  const input = gpuOf(x);
  const contiguous = x.strides[1] === 1 || cols === 1;
  const mode =
    force ??
    chooseRowMode(
      ctx,
      { family: 'softmax', rows, inner: cols, contiguous },
      defaultSoftmaxMode(rows, cols),
      () => {
        const [trialRows, trialCols] = trialShape(x.shape);
        return {
          input,
          ...extentOf([trialRows, trialCols], x.strides, x.offset),
          outBytes: trialRows * trialCols * 4,
          outType: 'float32',
          record: (trialMode, buffer, shift, scratch) =>
            dispatch(
              ctx,
              buffer,
              x.offset - shift,
              x.strides,
              trialRows,
              trialCols,
              scratch,
              log,
              trialMode,
            ),
        };
      },
    );
  dispatch(ctx, input, x.offset, x.strides, rows, cols, outputOf(out), log, mode);
}

/** Records one softmax of `rows` rows of `cols` elements at `offset` of `input` into `out`. */
function dispatch(
  ctx: KernelContext,
  input: GPUBuffer,
  offset: number,
  strides: readonly number[],
  rows: number,
  cols: number,
  out: GPUBuffer,
  log: boolean,
  mode: RowMode,
): void {
  const flags: string[] = [];
  if (log) flags.push('LOG');
  if (mode === 'workgroup') flags.push('WORKGROUP');
  const kernel = ctx.kernel('softmax', flags.join(','), 'wr', softmaxSource, () => ({ flags }));
  ctx
    .params(SOFTMAX)
    .set('rows', rows)
    .set('cols', cols)
    .set('offset', offset)
    .set('rowStride', strides[0])
    .set('colStride', strides[1]);
  ctx.run(kernel, [out, input], mode === 'workgroup' ? grid(rows) : grid64(rows));
}
