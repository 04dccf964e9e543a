/** Maps engine dtypes to the WGSL scalar types kernels store and compute in. */

import type { DType } from '../../backend';

export type WgslScalar = 'f32' | 'i32';

export function wgslType(dtype: DType): WgslScalar {
  return dtype === 'int32' ? 'i32' : 'f32';
}
