/**
 * One LSTM step as one kernel each way (the backend's lstmCell and lstmCellBackward): the four
 * gates' nonlinearities and the state update, which as separate ops cost some ten dispatches
 * forward and more backward per step. nn.LSTM calls it once per timestep.
 */
import { withGrad } from '../autograd';
import { formatShape, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { contiguous } from './shape-ops';
import { emptyTensor, inputsDevice, kernelView, requireFloat, scoped } from './support';

/** c's rows may be apart (the previous step's state); each row itself must be contiguous. */
function rowsContiguous(c: Tensor): Tensor {
  return c.strides[1] === 1 || c.shape[1] <= 1 ? c : contiguous(c);
}

/**
 * From pre-activation gates [B, 4H] (blocks i, f, g, o, as PyTorch's) and the cell state c [B, H]:
 * the new state [B, 2H] = [h' | c'], c' = σ(f)·c + σ(i)·tanh(g), h' = σ(o)·tanh(c').
 */
export function lstmCell(gates: Tensor, c: Tensor): Tensor {
  const device = inputsDevice('lstmCell', gates, c);
  requireFloat('lstmCell', gates, 'gates');
  requireFloat('lstmCell', c, 'c');
  if (c.ndim !== 2 || gates.ndim !== 2 || gates.shape[0] !== c.shape[0]) {
    throw new ShapeError(
      `lstmCell: expected gates [B, 4H] and c [B, H], got ${formatShape(gates.shape)} and ${formatShape(c.shape)}`,
    );
  }
  const [B, H] = c.shape;
  if (gates.shape[1] !== 4 * H) {
    throw new ShapeError(
      `lstmCell: gates ${formatShape(gates.shape)} should have 4·H = ${4 * H} columns for c ${formatShape(c.shape)}`,
    );
  }
  return scoped(() => {
    const g = contiguous(gates);
    const cc = rowsContiguous(c);
    const state = emptyTensor(device, 'float32', [B, 2 * H]);
    // The activated gates, which the backward reads instead of recomputing them.
    const act = emptyTensor(device, 'float32', [B, 4 * H]);
    if (B * H > 0)
      device.backend.lstmCell(kernelView(g), kernelView(cc), kernelView(state), kernelView(act));
    return withGrad('LstmCellBackward', [gates, c], state, (save) => {
      const [a, cs, s] = [save(act), save(cc), save(state)];
      return (grad) => {
        const gs = contiguous(grad);
        const gGates = emptyTensor(device, 'float32', [B, 4 * H]);
        const gC = emptyTensor(device, 'float32', [B, H]);
        if (B * H > 0) {
          device.backend.lstmCellBackward(
            kernelView(a),
            kernelView(cs),
            kernelView(s),
            kernelView(gs),
            kernelView(gGates),
            kernelView(gC),
          );
        }
        return [gGates, gC];
      };
    });
  });
}
