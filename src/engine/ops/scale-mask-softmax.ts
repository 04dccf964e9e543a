/**
 * Attention weights softmax(scale·scores + mask) along the last dim as one kernel each way (the
 * backend's scaleMaskSoftmax and scaleMaskSoftmaxBackward) instead of a multiply, an add and a
 * softmax, each a pass over the [..., L, S] scores. Masks: a bool (int32 0/1) mask says where to
 * attend, float masks are added, `causal` lets query l see keys j ≤ l; all broadcast to the
 * scores' shape. The mask gets no gradient.
 */
import { withGrad } from '../autograd';
import type { View } from '../backend';
import { formatShape, numel, ShapeError } from '../shape';
import type { Tensor } from '../tensor';
import { expand } from './broadcast';
import { contiguous } from './shape-ops';
import { emptyTensor, inputsDevice, kernelView, requireFloat, scoped } from './support';

const op = 'scaleMaskSoftmax';

/** `t` (contiguous, or a broadcast view when it has at most 4 dims) as a 4-D view [A, B, L, C]. */
function view4(t: Tensor, shape4: readonly number[]): View {
  const v = kernelView(t);
  if (t.ndim <= 4) {
    const strides = [...new Array<number>(4 - t.ndim).fill(0), ...t.strides];
    return { ...v, shape: shape4, strides };
  }
  const [, B, L, C] = shape4;
  return { ...v, shape: shape4, strides: [B * L * C, L * C, C, 1] };
}

export function scaleMaskSoftmax(
  scores: Tensor,
  scale: number,
  mask: Tensor | null,
  causal: boolean,
): Tensor {
  const device = inputsDevice(op, scores, mask);
  requireFloat(op, scores, 'scores');
  if (scores.ndim < 1) throw new ShapeError(`${op}: scores need at least 1 dim, got []`);
  if (mask && mask.dtype !== 'int32' && mask.dtype !== 'float32') {
    throw new TypeError(`${op}: the mask must be bool or float32, got ${mask.dtype}`);
  }
  const shape = scores.shape;
  const C = shape[shape.length - 1];
  const L = shape.length >= 2 ? shape[shape.length - 2] : 1;
  const B = shape.length >= 3 ? shape[shape.length - 3] : 1;
  const A = numel(shape) === 0 ? 0 : numel(shape) / Math.max(B * L * C, 1);
  const shape4 = [A, B, L, C];
  return scoped(() => {
    let m: Tensor | null = null;
    if (mask) {
      try {
        m = expand(mask, shape);
      } catch {
        throw new ShapeError(
          `${op}: the mask ${formatShape(mask.shape)} does not broadcast to the scores ${formatShape(shape)}`,
        );
      }
      if (m.ndim > 4) m = contiguous(m);
    }
    const x = contiguous(scores);
    const out = emptyTensor(device, 'float32', shape);
    if (numel(shape) > 0) {
      device.backend.scaleMaskSoftmax(
        view4(x, shape4),
        m ? view4(m, shape4) : null,
        view4(out, shape4),
        scale,
        causal,
      );
    }
    return withGrad('ScaleMaskSoftmaxBackward', [scores], out, (save) => {
      const y = save(out);
      return (grad) => {
        const g = contiguous(grad);
        const ds = emptyTensor(device, 'float32', shape);
        // [rows, C] views of the contiguous y, g and ds.
        const rows = (t: Tensor): View => ({
          ...kernelView(t),
          shape: [A * B * L, C],
          strides: [C, 1],
        });
        if (numel(shape) > 0) {
          device.backend.scaleMaskSoftmaxBackward(rows(y), rows(g), rows(ds), scale);
        }
        return [ds];
      };
    });
  });
}
