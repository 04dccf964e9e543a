/** Names of the interchangeable kernel variants, and the overrides that force one (tests, tuning). */
import type { BlockedSpec } from './matmul-blocked';
import type { TiledSpec } from './matmul-tiled';

/**
 * `register`: the vec4-loading 8x8 register kernel; `tiled` / `t…`: the shared-memory tiled
 * family (real GPUs; `tiled` is t4x4@16x16), named rows x cols per invocation @ workgroup shape;
 * `q…` / `x…` / `s…` / `v…`: the generated register-blocked family (`q` shares A loads across
 * quads with subgroup broadcasts, `x` with quad swaps, `s` loads plainly, `v` loads both operands
 * as vec4s), named rows x cols @ workgroup shape.
 */
export type MatmulVariant =
  'register' | 'tiled' | `${'q' | 'x' | 's' | 'v' | 't'}${number}x${number}@${number}x${number}`;

/** `thread`: one invocation per row (serial loop); `workgroup`: 64 invocations and a tree. */
export type RowMode = 'thread' | 'workgroup';

/** Every row mode (what the row-mode tuner times). */
export const ROW_MODES: readonly RowMode[] = ['thread', 'workgroup'];

/**
 * How a product reads an operand whose rows lie a multiple of 4 KiB apart: in place (`keep`), or
 * from a copy with padded rows (`pad`), which spreads a column panel's rows over the cache sets.
 */
export type Repack = 'keep' | 'pad';

/** Both repack choices (what the repack tuner times). */
export const REPACKS: readonly Repack[] = ['keep', 'pad'];

/** Forces a variant instead of the selection rule; unset fields keep the rule. */
export interface KernelOverrides {
  matmul?: MatmulVariant;
  repack?: Repack;
  reduce?: RowMode;
  softmax?: RowMode;
  /**
   * A padded convolution as one product over whole windows (`whole`, padding zeros multiplied) or
   * split into windows of its output whose taps stay in the image (`split`).
   */
  convWindows?: 'whole' | 'split';
}

/** The block shape behind a generated variant's name, or null for `register` / `tiled`. */
export function blockedSpecOf(variant: MatmulVariant): BlockedSpec | null {
  const match = /^([qxsv])(\d+)x(\d+)@(\d+)x(\d+)$/.exec(variant);
  if (!match) return null;
  const [, kind, rows, cols, wgx, wgy] = match;
  const quad = kind === 'q' || kind === 'x';
  const spec = { quad, rows: +rows, cols: +cols, wgx: +wgx, wgy: +wgy };
  if (kind === 'x') return { ...spec, swap: true };
  return kind === 'v' ? { ...spec, vec4: true } : spec;
}

/** The tile shape behind a shared-memory variant's name, or null for other variants. */
export function tiledSpecOf(variant: MatmulVariant): TiledSpec | null {
  if (variant === 'tiled') return { rows: 4, cols: 4, wgx: 16, wgy: 16 };
  const match = /^t(\d+)x(\d+)@(\d+)x(\d+)$/.exec(variant);
  if (!match) return null;
  const [, rows, cols, wgx, wgy] = match;
  return { rows: +rows, cols: +cols, wgx: +wgx, wgy: +wgy };
}

/**
 * The variants the autotuner times, per what the adapter offers: the measured-best blocked shapes
 * for CPU emulations (where loads, not FMAs, bound speed), larger blocks and vec4 members for
 * wider machines (more independent accumulators per load; a `v` member whose operands do not fit
 * vec4 runs its `s` twin), the plain register kernel, and shared memory tiles for GPUs whose
 * workgroup memory is fast.
 */
export function matmulCandidates(subgroups: boolean): MatmulVariant[] {
  // The same quad shapes sharing A by swaps (cheap on CPU emulations) and by broadcasts (B read
  // one row at a time across a quad, as GPUs coalesce best).
  const shapes = ['16x8@4x8', '16x4@16x4', '8x8@8x8', '16x8@8x4'] as const;
  const quad: MatmulVariant[] = [
    ...shapes.map((s) => `x${s}` as const),
    ...shapes.map((s) => `q${s}` as const),
  ];
  const plain: MatmulVariant[] = ['s8x8@8x8', 's4x4@16x4', 'register'];
  // 64x64 tiles, and 128x128 tiles with 8x8 per invocation (the usual GPU shape). Smaller tiles
  // (t4x4@8x8) run when forced but are not timed: small products go to the blocked family.
  const tiled: MatmulVariant[] = ['tiled', 't8x8@16x16'];
  const vec4: MatmulVariant[] = ['v8x16@8x8', 'v16x8@4x8', 'v8x8@8x8'];
  return subgroups ? [...quad, ...vec4, ...plain, ...tiled] : [...vec4, ...plain, ...tiled];
}

/** What runs before a shape class has been tuned (and for products too small to tune). */
export function defaultMatmulVariant(subgroups: boolean): MatmulVariant {
  return subgroups ? 'x16x8@4x8' : 's8x8@8x8';
}
