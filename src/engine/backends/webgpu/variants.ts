/** Names of the interchangeable kernel variants, and the overrides that force one (tests, tuning). */
import type { BlockedSpec } from './matmul-blocked';

/**
 * `register`: the vec4-loading 8x8 register kernel; `tiled`: shared-memory tiles (real GPUs);
 * `q…` / `s…`: the generated register-blocked family (`q` shares A loads across quads with
 * subgroup broadcasts, `s` loads plainly), named rows x cols @ workgroup shape.
 */
export type MatmulVariant =
  'register' | 'tiled' | `${'q' | 's'}${number}x${number}@${number}x${number}`;

/** `thread`: one invocation per row (serial loop); `workgroup`: 64 invocations and a tree. */
export type RowMode = 'thread' | 'workgroup';

/** Every row mode (what the row-mode tuner times). */
export const ROW_MODES: readonly RowMode[] = ['thread', 'workgroup'];

/** Forces a variant instead of the selection rule; unset fields keep the rule. */
export interface KernelOverrides {
  matmul?: MatmulVariant;
  reduce?: RowMode;
  softmax?: RowMode;
}

/** The block shape behind a generated variant's name, or null for `register` / `tiled`. */
export function blockedSpecOf(variant: MatmulVariant): BlockedSpec | null {
  const match = /^([qs])(\d+)x(\d+)@(\d+)x(\d+)$/.exec(variant);
  if (!match) return null;
  const [, kind, rows, cols, wgx, wgy] = match;
  return { quad: kind === 'q', rows: +rows, cols: +cols, wgx: +wgx, wgy: +wgy };
}

/**
 * The variants the autotuner times, per what the adapter offers: the measured-best blocked shapes
 * for CPU emulations (where loads, not FMAs, bound speed), the plain register kernel, and shared
 * memory tiles for GPUs whose workgroup memory is fast.
 */
export function matmulCandidates(subgroups: boolean): MatmulVariant[] {
  const quad: MatmulVariant[] = ['q16x8@4x8', 'q16x4@16x4', 'q8x8@8x8'];
  const plain: MatmulVariant[] = ['s8x8@8x8', 's4x4@16x4', 'register', 'tiled'];
  return subgroups ? [...quad, ...plain] : plain;
}

/** What runs before a shape class has been tuned (and for products too small to tune). */
export function defaultMatmulVariant(subgroups: boolean): MatmulVariant {
  return subgroups ? 'q16x8@4x8' : 's8x8@8x8';
}
