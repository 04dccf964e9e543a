/** Names of the interchangeable kernel variants, and the overrides that force one (tests, tuning). */

/** `register`: 4x4 tiles in registers, no barriers; `tiled`: shared-memory tiles. */
export type MatmulVariant = 'register' | 'tiled';

/** `thread`: one invocation per row (serial loop); `workgroup`: 64 invocations and a tree. */
export type RowMode = 'thread' | 'workgroup';

/** Forces a variant instead of the selection rule; unset fields keep the rule. */
export interface KernelOverrides {
  matmul?: MatmulVariant;
  reduce?: RowMode;
  softmax?: RowMode;
}
