/** Binds kernels/lstm-cell.wgsl: one LSTM step's gates and state update, and its gradient. */

import type { OutView, View } from '../../backend';
import lstmCellWgsl from '../../../../kernels/lstm-cell.wgsl?raw';
import { grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import { LSTM_CELL } from './param-layouts';

const source = LSTM_CELL.source(lstmCellWgsl);

/** state [B, 2H] = [h' | c'] and act [B, 4H] from gates [B, 4H] and c [B, H]. */
export function lstmCell(
  ctx: KernelContext,
  gates: View,
  c: View,
  state: OutView,
  act: OutView,
): void {
  const [batch, hidden] = c.shape;
  if (batch * hidden === 0) return;
  const kernel = ctx.kernel('lstm-cell', 'forward', 'wwrr', source, () => ({}));
  ctx
    .params(LSTM_CELL)
    .set('batch', batch)
    .set('hidden', hidden)
    .set('gOffset', gates.offset)
    .set('cOffset', c.offset)
    .set('cRowStride', c.strides[0])
    .set('sOffset', state.offset)
    .set('aOffset', act.offset);
  ctx.run(kernel, [outputOf(state), outputOf(act), gpuOf(gates), gpuOf(c)], grid64(batch * hidden));
}

/** gGates [B, 4H] and gC [B, H] from act, c, state and gState [B, 2H]. */
export function lstmCellBackward(
  ctx: KernelContext,
  act: View,
  c: View,
  state: View,
  gState: View,
  gGates: OutView,
  gC: OutView,
): void {
  const [batch, hidden] = c.shape;
  if (batch * hidden === 0) return;
  const kernel = ctx.kernel('lstm-cell', 'backward', 'wwrrrr', source, () => ({
    flags: ['BACKWARD'],
  }));
  ctx
    .params(LSTM_CELL)
    .set('batch', batch)
    .set('hidden', hidden)
    .set('aOffset', act.offset)
    .set('cOffset', c.offset)
    .set('cRowStride', c.strides[0])
    .set('sOffset', state.offset)
    .set('gsOffset', gState.offset)
    .set('ggOffset', gGates.offset)
    .set('gcOffset', gC.offset);
  ctx.run(
    kernel,
    [outputOf(gGates), outputOf(gC), gpuOf(act), gpuOf(c), gpuOf(state), gpuOf(gState)],
    grid64(batch * hidden),
  );
}
