/**
 * CPU fused softmax cross-entropy: per-row loss and, optionally, softmax - onehot (float64 sums).
 * A label of -100 (PyTorch's default ignore_index) gives loss 0 and gradient 0, as on WebGPU.
 */
import type { OutView, View } from '../../backend';
import { arrayOf } from './buffer';

const IGNORED = -100;

export function softmaxCrossEntropyKernel(
  logits: View,
  labels: View,
  losses: OutView,
  grad: OutView | null,
): void {
  const [rows, cols] = logits.shape;
  const [rs, cs] = logits.strides;
  const x = arrayOf(logits);
  const y = arrayOf(labels);
  const loss = arrayOf(losses);
  const g = grad ? arrayOf(grad) : null;
  for (let r = 0; r < rows; r++) {
    const base = logits.offset + r * rs;
    const label = y[labels.offset + r * labels.strides[0]];
    if (label === IGNORED) {
      loss[losses.offset + r] = 0;
      if (g && grad) g.fill(0, grad.offset + r * cols, grad.offset + (r + 1) * cols);
      continue;
    }
    if (!(label >= 0 && label < cols)) {
      throw new RangeError(`label ${label} is out of range: expected a value in [0, ${cols - 1}]`);
    }
    let max = -Infinity;
    for (let c = 0; c < cols; c++) max = Math.max(max, x[base + c * cs]);
    let sum = 0;
    for (let c = 0; c < cols; c++) sum += Math.exp(x[base + c * cs] - max);
    loss[losses.offset + r] = Math.log(sum) + max - x[base + label * cs];
    if (g && grad) {
      const out = grad.offset + r * cols;
      for (let c = 0; c < cols; c++) {
        g[out + c] = Math.exp(x[base + c * cs] - max) / sum - (c === label ? 1 : 0);
      }
    }
  }
}
