/** Dtype casts: a copy through the unary kernel (see `cast`). */
import type { DType } from '../backend';
import type { Tensor } from '../tensor';
import { emptyTensor, inputsDevice, kernelView } from './support';

/** A copy in another dtype (float→int truncates toward zero). No gradient crosses dtypes. */
export function cast(x: Tensor, dtype: DType): Tensor {
  inputsDevice('cast', x);
  if (x.dtype === dtype) return x;
  const out = emptyTensor(x.deviceObject, dtype, x.shape);
  x.deviceObject.backend.unary('copy', kernelView(x), kernelView(out));
  return out;
}
