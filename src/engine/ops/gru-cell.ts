/**
 * One GRU step as one kernel each way (the backend's gruCell and gruCellBackward): the gates'
 * nonlinearities and the state update, which as separate ops cost some ten dispatches forward and
 * more backward per step. nn.GRU calls it once per timestep.
 */
import { withGrad } from '../autograd';
import { formatShape, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { contiguous } from './shape-ops';
import { emptyTensor, inputsDevice, kernelView, requireFloat, scoped } from './support';

/**
 * From the input's projection x [B, 3H] (with b_ih), the hidden state's hp [B, 3H] (with b_hh;
 * blocks r, z, n, as PyTorch's) and h [B, H]: h' = n + z·(h - n) with r = σ(xr + hr),
 * z = σ(xz + hz), n = tanh(xn + r·hn).
 */
export function gruCell(x: Tensor, hp: Tensor, h: Tensor): Tensor {
  const device = inputsDevice('gruCell', x, hp, h);
  for (const [t, what] of [
    [x, 'x'],
    [hp, 'hp'],
    [h, 'h'],
  ] as const)
    requireFloat('gruCell', t, what);
  const [B, H] = h.ndim === 2 ? h.shape : [-1, -1];
  const ok = (t: Tensor) => t.ndim === 2 && t.shape[0] === B && t.shape[1] === 3 * H;
  if (h.ndim !== 2 || !ok(x) || !ok(hp)) {
    throw new ShapeError(
      `gruCell: expected x and hp [B, 3H] and h [B, H], got ${formatShape(x.shape)}, ` +
        `${formatShape(hp.shape)} and ${formatShape(h.shape)}`,
    );
  }
  return scoped(() => {
    const [xc, pc, hc] = [contiguous(x), contiguous(hp), contiguous(h)];
    const out = emptyTensor(device, 'float32', [B, H]);
    // [r | z | n | hn], which the backward reads instead of recomputing them.
    const act = emptyTensor(device, 'float32', [B, 4 * H]);
    if (B * H > 0) {
      device.backend.gruCell(
        kernelView(xc),
        kernelView(pc),
        kernelView(hc),
        kernelView(out),
        kernelView(act),
      );
    }
    return withGrad('GruCellBackward', [x, hp, h], out, (save) => {
      const [a, hs] = [save(act), save(hc)];
      return (grad) => {
        const g = contiguous(grad);
        const gX = emptyTensor(device, 'float32', [B, 3 * H]);
        const gHp = emptyTensor(device, 'float32', [B, 3 * H]);
        const gH = emptyTensor(device, 'float32', [B, H]);
        if (B * H > 0) {
          device.backend.gruCellBackward(
            kernelView(a),
            kernelView(hs),
            kernelView(g),
            kernelView(gX),
            kernelView(gHp),
            kernelView(gH),
          );
        }
        return [gX, gHp, gH];
      };
    });
  });
}
