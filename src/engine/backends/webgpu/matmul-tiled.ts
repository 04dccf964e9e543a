/**
 * The shared-memory tiled matmul family of kernels/matmul-tiled.wgsl (real GPUs, whose workgroup
 * memory is fast): generates the per-invocation block's statements for a tile shape and compiles
 * it. `tiled` is its first member (4x4 per invocation on 16x16: 64x64 tiles).
 */
import tiledWgsl from '../../../../kernels/matmul-tiled.wgsl?raw';
import type { CompiledKernel } from './pipeline-cache';
import type { KernelContext } from './context';
import { MATMUL } from './param-layouts';

const source = MATMUL.source(tiledWgsl);

/** R x C outputs per invocation on a WGX x WGY workgroup. */
export interface TiledSpec {
  readonly rows: number;
  readonly cols: number;
  readonly wgx: number;
  readonly wgy: number;
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** Workgroup memory every adapter offers (WebGPU's minimum maxComputeWorkgroupStorageSize). */
const WORKGROUP_BYTES = 16384;

/** The k-slice staged per step: 16, or 8 when two 16-deep slices would not fit. */
export function tiledDepth(spec: TiledSpec): number {
  const words = (spec.wgy * spec.rows + 1 + spec.wgx * spec.cols + 1) * 16;
  return words * 4 <= WORKGROUP_BYTES ? 16 : 8;
}

/** A stable name: `t` rows x cols @ workgroup shape (`tiled` is t4x4@16x16). */
export function tiledName(spec: TiledSpec): string {
  return `t${spec.rows}x${spec.cols}@${spec.wgx}x${spec.wgy}`;
}

export function tiledKernel(ctx: KernelContext, spec: TiledSpec, flags: string[]): CompiledKernel {
  const { rows: R, cols: C, wgx, wgy } = spec;
  const bk = tiledDepth(spec);
  const tileRows = wgy * R;
  const tileCols = wgx * C;
  const invocations = wgx * wgy;
  if ((tileRows * bk) % invocations || (tileCols * bk) % invocations) {
    throw new Error(`${tiledName(spec)}: a tile slice must split evenly over the invocations`);
  }
  const rs = range(R);
  const cs = range(C);
  const inner = [
    ...rs.map((r) => `      let a${r} = tileA[ai + ${r * wgy}u];`),
    ...cs.map((c) => `      let b${c} = tileB[bi + ${c * wgx}u];`),
    ...rs.flatMap((r) => cs.map((c) => `      acc${r}_${c} = fma(a${r}, b${c}, acc${r}_${c});`)),
  ];
  const store = rs.flatMap((r) => [
    `  let row${r} = tileRow + lid.y + ${r * wgy}u;`,
    ...cs.map(
      (c) =>
        `  if (row${r} < M && tileCol + lid.x + ${c * wgx}u < N) { ` +
        `OUT[outBase + row${r} * N + tileCol + lid.x + ${c * wgx}u] = acc${r}_${c}; }`,
    ),
  ]);
  return ctx.kernel('matmul-tiled', `${tiledName(spec)}|${flags.join(',')}`, 'wrr', source, () => ({
    flags,
    values: {
      WGX: wgx,
      WGY: wgy,
      BK: bk,
      TILE_ROWS: tileRows,
      TILE_COLS: tileCols,
      PITCH_A: tileRows + 1,
      PITCH_B: tileCols + 1,
      WORDS_A: bk * (tileRows + 1),
      WORDS_B: bk * (tileCols + 1),
      LOADS_A: (tileRows * bk) / invocations,
      LOADS_B: (tileCols * bk) / invocations,
      ACCUMULATORS: rs.flatMap((r) => cs.map((c) => `  var acc${r}_${c} = 0.0;`)).join('\n'),
      INNER: inner.join('\n'),
      STORE: store.join('\n'),
    },
  }));
}

/** Workgroups covering an M x N output with this tile shape. */
export function tiledGroups(spec: TiledSpec, m: number, n: number): [number, number] {
  return [Math.ceil(n / (spec.wgx * spec.cols)), Math.ceil(m / (spec.wgy * spec.rows))];
}
