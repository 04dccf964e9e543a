/**
 * The register-blocked matmul family of kernels/matmul-blocked.wgsl: generates its unrolled
 * statements for a block shape (rows x columns per invocation, workgroup shape, quad loads) and
 * dispatches it, optionally with a fused bias / relu / NCHW-layout epilogue.
 */
import source from '../../../../kernels/matmul-blocked.wgsl?raw';
import type { CompiledKernel } from './pipeline-cache';
import type { KernelContext } from './context';

/** A member of the family: R x C outputs per invocation on a WGX x WGY workgroup. */
export interface BlockedSpec {
  readonly rows: number;
  readonly cols: number;
  readonly wgx: number;
  readonly wgy: number;
  /** Share A loads across quads with quadBroadcast (needs the subgroups feature, wgx % 4 == 0). */
  readonly quad: boolean;
}

/** What the kernel does after the products: add a bias per column, relu, write NCHW. */
export interface Epilogue {
  readonly bias?: boolean;
  readonly relu?: boolean;
  readonly nchw?: boolean;
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** The generated statements for one block shape. */
function statements(spec: BlockedSpec): Record<string, string> {
  const { rows: R, cols: C, wgx } = spec;
  const rs = range(R);
  const cs = range(C);
  const setup: string[] = [];
  // Load offsets of A(row, 0) and B(0, col), clamped to the matrix so edge tiles load valid data.
  for (const r of rs) setup.push(`  let ar${r} = aBase + min(row0 + ${r}u, M - 1u) * P(6u);`);
  for (const c of cs) {
    setup.push(`  let bc${c} = bBase + min(col0 + ${c * wgx}u, N - 1u) * P(11u);`);
  }
  const accumulators = rs.flatMap((r) => cs.map((c) => `  var acc${r}_${c} = 0.0;`));
  const fmas = (a: (r: number) => string, b: (c: number) => string): string[] =>
    rs.flatMap((r) => cs.map((c) => `    acc${r}_${c} = fma(${a(r)}, ${b(c)}, acc${r}_${c});`));
  const body: string[] = [];
  if (spec.quad) {
    for (const r of rs) body.push(`    let q${r} = A[ar${r} + ka];`);
    for (const u of range(4)) {
      body.push(`    let kb${u} = (k + ${u}u) * sbk;`);
      for (const c of cs) body.push(`    let b${c}_${u} = B[bc${c} + kb${u}];`);
      for (const r of rs) body.push(`    let a${r}_${u} = quadBroadcast(q${r}, ${u}u);`);
      body.push(
        ...fmas(
          (r) => `a${r}_${u}`,
          (c) => `b${c}_${u}`,
        ),
      );
    }
  } else {
    for (const u of range(4)) {
      body.push(`    let ka${u} = (k + ${u}u) * sak;`, `    let kb${u} = (k + ${u}u) * sbk;`);
      for (const r of rs) body.push(`    let a${r}_${u} = A[ar${r} + ka${u}];`);
      for (const c of cs) body.push(`    let b${c}_${u} = B[bc${c} + kb${u}];`);
      body.push(
        ...fmas(
          (r) => `a${r}_${u}`,
          (c) => `b${c}_${u}`,
        ),
      );
    }
  }
  const tail: string[] = ['    let ka = k * sak;', '    let kb = k * sbk;'];
  for (const r of rs) tail.push(`    let a${r} = A[ar${r} + ka];`);
  for (const c of cs) tail.push(`    let b${c} = B[bc${c} + kb];`);
  tail.push(
    ...fmas(
      (r) => `a${r}`,
      (c) => `b${c}`,
    ),
  );
  const store = rs.flatMap((r) => [
    `  let o${r} = rowStart(batch, row0 + ${r}u, M, N);`,
    ...cs.map(
      (c) =>
        `  put(o${r} + (col0 + ${c * wgx}u) * colStep, row0 + ${r}u, col0 + ${c * wgx}u, M, N, acc${r}_${c});`,
    ),
  ]);
  return {
    ACCUMULATORS: accumulators.join('\n'),
    SETUP: setup.join('\n'),
    BODY: body.join('\n'),
    TAIL: tail.join('\n'),
    STORE: store.join('\n'),
  };
}

/** A stable name of a block shape, used in kernel labels, tuner caches and overrides. */
export function blockedName(spec: BlockedSpec): string {
  return `${spec.quad ? 'q' : 's'}${spec.rows}x${spec.cols}@${spec.wgx}x${spec.wgy}`;
}

export function blockedKernel(
  ctx: KernelContext,
  spec: BlockedSpec,
  epilogue: Epilogue = {},
): CompiledKernel {
  const flags: string[] = [];
  if (spec.quad) flags.push('QUAD');
  if (epilogue.bias) flags.push('BIAS');
  if (epilogue.relu) flags.push('RELU');
  if (epilogue.nchw) flags.push('NCHW');
  return ctx.kernel(
    'matmul-blocked',
    `${blockedName(spec)}|${flags.join(',')}`,
    epilogue.bias ? 'wrrr' : 'wrr',
    source,
    () => ({
      flags,
      values: {
        WGX: spec.wgx,
        WGY: spec.wgy,
        TILE_COLS: spec.wgx * spec.cols,
        TILE_ROWS: spec.wgy * spec.rows,
        ROWS: spec.rows,
        ...statements(spec),
      },
    }),
  );
}

/** Workgroups covering an M x N output with this block shape. */
export function blockedGroups(spec: BlockedSpec, m: number, n: number): [number, number] {
  return [Math.ceil(n / (spec.wgx * spec.cols)), Math.ceil(m / (spec.wgy * spec.rows))];
}
