/**
 * Range checks for labels and indices where they can be seen without waiting: on an idle CPU the
 * values are read synchronously, so an out-of-range label fails with a message naming the op and
 * the position. On a GPU the values are out of reach until awaited, and kernels guard themselves.
 */
import type { Tensor } from '../tensor';

export function checkIndexRange(
  op: string,
  what: string,
  index: Tensor,
  limit: number,
  limitName: string,
): void {
  const reader = index.deviceObject.capability('syncRead');
  if (!reader || index.dtype !== 'int32') return;
  const n = index.numel();
  if (n === 0) return;
  const contiguous = index.isContiguous();
  const values = contiguous
    ? reader.readSync(index.res.storage.buffer, 'int32', index.offset, n)
    : null;
  if (values === null) return;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v < 0 || v >= limit) {
      throw new RangeError(
        `${op}: ${what} ${v} at position ${i} is out of range for ${limit} ${limitName} ` +
          `(expected 0 to ${limit - 1})`,
      );
    }
  }
}
