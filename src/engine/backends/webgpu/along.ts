/**
 * Binds kernels/gather-along.wgsl, scan.wgsl and sort.wgsl: gather and scatter-add by an index of
 * columns, inclusive scans and row sorts, all along the last dim of 2-D views.
 */

import type { OutView, ScanOp, View } from '../../backend';
import gatherWgsl from '../../../../kernels/gather-along.wgsl?raw';
import scanWgsl from '../../../../kernels/scan.wgsl?raw';
import sortWgsl from '../../../../kernels/sort.wgsl?raw';
import { grid, grid64, type KernelContext } from './context';
import { fill } from './elementwise';
import { gpuOf, outputOf } from './gpu-buffer';
import { GATHER_ALONG, SCAN, SORT } from './param-layouts';
import { wgslType } from './wgsl-types';

const gatherSource = GATHER_ALONG.source(gatherWgsl);
const scanSource = SCAN.source(scanWgsl);
const sortSource = SORT.source(sortWgsl);

/** Rows up to this long sort in one workgroup's shared memory (sized to the padded row). */
const SORT_SHARED_MAX = 1024;
/** Rows up to this long scan with one invocation per row (a loop beats 64 lanes and barriers). */
const SCAN_THREAD_MAX = 64;

function checkIndex(kernel: string, index: View): void {
  if (index.dtype !== 'int32') throw new Error(`${kernel}: index must be int32`);
}

function writeGatherParams(ctx: KernelContext, x: View, index: View, cols: number): void {
  const [rows, k] = index.shape;
  ctx
    .params(GATHER_ALONG)
    .set('rows', rows)
    .set('cols', cols)
    .set('k', k)
    .set('xOffset', x.offset)
    .set('xRowStride', x.strides[0])
    .set('xColStride', x.strides[1])
    .set('indexOffset', index.offset)
    .set('indexRowStride', index.strides[0])
    .set('indexColStride', index.strides[1]);
}

/** out[r, k] = x[r, index[r, k]] for x: [R, C], index: [R, K]. */
export function gatherAlong(ctx: KernelContext, x: View, index: View, out: OutView): void {
  checkIndex('gatherAlong', index);
  const n = index.shape[0] * index.shape[1];
  if (n === 0) return;
  const type = wgslType(x.dtype);
  const kernel = ctx.kernel('gather-along', type, 'wrr', gatherSource, () => ({
    values: { T: type },
  }));
  writeGatherParams(ctx, x, index, x.shape[1]);
  ctx.run(kernel, [outputOf(out), gpuOf(x), gpuOf(index)], grid64(n));
}

/** out [R, C] = 0, then out[r, index[r, k]] += values[r, k]. */
export function scatterAddAlong(ctx: KernelContext, values: View, index: View, out: OutView): void {
  checkIndex('scatterAddAlong', index);
  fill(ctx, out, 0);
  const n = index.shape[0] * index.shape[1];
  if (n === 0) return;
  const type = wgslType(values.dtype);
  const flags = type === 'i32' ? ['SCATTER', 'INT'] : ['SCATTER'];
  const kernel = ctx.kernel('scatter-add-along', type, 'wrr', gatherSource, () => ({
    flags,
    values: { T: type },
  }));
  writeGatherParams(ctx, values, index, out.shape[1]);
  ctx.run(kernel, [outputOf(out), gpuOf(values), gpuOf(index)], grid64(n));
}

/** Inclusive running sums or products along each row of x [R, C]. */
export function scan(
  ctx: KernelContext,
  op: ScanOp,
  x: View,
  reverse: boolean,
  out: OutView,
): void {
  const [rows, cols] = x.shape;
  if (rows * cols === 0) return;
  const type = wgslType(x.dtype);
  const thread = cols <= SCAN_THREAD_MAX;
  const flags: string[] = [];
  if (op === 'prod') flags.push('PROD');
  if (reverse) flags.push('REVERSE');
  if (thread) flags.push('THREAD');
  const kernel = ctx.kernel('scan', `${type},${flags.join(',')}`, 'wr', scanSource, () => ({
    flags,
    values: { T: type },
  }));
  ctx
    .params(SCAN)
    .set('rows', rows)
    .set('cols', cols)
    .set('offset', x.offset)
    .set('rowStride', x.strides[0])
    .set('colStride', x.strides[1]);
  ctx.run(kernel, [outputOf(out), gpuOf(x)], thread ? grid64(rows) : grid(rows));
}

/** Sorts each row of x [R, C] into values and int32 column indices (sort.wgsl). */
export function sortRows(
  ctx: KernelContext,
  x: View,
  descending: boolean,
  values: OutView,
  indices: OutView,
): void {
  const [rows, cols] = x.shape;
  if (rows * cols === 0) return;
  let padded = 1;
  while (padded < cols) padded *= 2;
  const type = wgslType(x.dtype);
  const order = descending ? ['DESCENDING'] : [];
  if (type === 'i32') order.push('INT');
  const writeParams = (block: number, span: number): void => {
    ctx
      .params(SORT)
      .set('rows', rows)
      .set('cols', cols)
      .set('padded', padded)
      .set('offset', x.offset)
      .set('rowStride', x.strides[0])
      .set('colStride', x.strides[1])
      .set('block', block)
      .set('span', span);
  };
  const outputs = [outputOf(values), outputOf(indices)];
  if (cols <= SORT_SHARED_MAX) {
    const shared = Math.max(padded, 64);
    const kernel = ctx.kernel(
      'sort',
      `${type},${shared},${order.join()}`,
      'wwr',
      sortSource,
      () => ({
        flags: order,
        values: { T: type, SHARED: shared },
      }),
    );
    writeParams(0, 0);
    ctx.run(kernel, [...outputs, gpuOf(x)], grid(rows));
    return;
  }
  // Longer rows: copy them out, then one dispatch per step of the network, in place.
  const init = ctx.kernel('sort-init', type, 'wwr', sortSource, () => ({
    flags: ['INIT'],
    values: { T: type },
  }));
  writeParams(0, 0);
  ctx.run(init, [...outputs, gpuOf(x)], grid64(rows * cols));
  const step = ctx.kernel('sort-step', `${type},${order.join()}`, 'ww', sortSource, () => ({
    flags: ['STEP', ...order],
    values: { T: type },
  }));
  for (let block = 2; block <= padded; block *= 2) {
    for (let span = block / 2; span > 0; span /= 2) {
      writeParams(block, span);
      ctx.run(step, outputs, grid64((rows * padded) / 2));
    }
  }
}
