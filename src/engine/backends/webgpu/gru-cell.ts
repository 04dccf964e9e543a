/** Binds kernels/gru-cell.wgsl: one GRU step's gates and state update, and its gradient. */

import type { OutView, View } from '../../backend';
import gruCellWgsl from '../../../../kernels/gru-cell.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import { GRU_CELL } from './param-layouts';

const source = GRU_CELL.source(gruCellWgsl);

/** out [B, H] = h' and act [B, 4H] from x, hp [B, 3H] and h [B, H]. */
export function gruCell(
  ctx: KernelContext,
  x: View,
  hp: View,
  h: View,
  out: OutView,
  act: OutView,
): void {
  const [batch, hidden] = h.shape;
  if (batch * hidden === 0) return;
  const kernel = ctx.kernel('gru-cell', 'forward', 'wwrrr', source, () => ({}));
  ctx
    .params(GRU_CELL)
    .set('batch', batch)
    .set('hidden', hidden)
    .set('xOffset', x.offset)
    .set('hpOffset', hp.offset)
    .set('hOffset', h.offset)
    .set('outOffset', out.offset)
    .set('aOffset', act.offset);
  ctx.run(
    kernel,
    [outputOf(out), outputOf(act), gpuOf(x), gpuOf(hp), gpuOf(h)],
    grid64(batch * hidden),
  );
}

/** gX, gHp [B, 3H] and gH [B, H] from act, h and gOut [B, H]. */
export function gruCellBackward(
  ctx: KernelContext,
  act: View,
  h: View,
  gOut: View,
  gX: OutView,
  gHp: OutView,
  gH: OutView,
): void {
  const [batch, hidden] = h.shape;
  if (batch * hidden === 0) return;
  const kernel = ctx.kernel('gru-cell', 'backward', 'wwwrrr', source, () => ({
    flags: ['BACKWARD'],
  }));
  // The gradients take their forward counterparts' offset slots (gX: xOffset, gH: outOffset).
  ctx
    .params(GRU_CELL)
    .set('batch', batch)
    .set('hidden', hidden)
    .set('aOffset', act.offset)
    .set('hOffset', h.offset)
    .set('goOffset', gOut.offset)
    .set('xOffset', gX.offset)
    .set('hpOffset', gHp.offset)
    .set('outOffset', gH.offset);
  ctx.run(
    kernel,
    [outputOf(gX), outputOf(gHp), outputOf(gH), gpuOf(act), gpuOf(h), gpuOf(gOut)],
    grid64(batch * hidden),
  );
}
