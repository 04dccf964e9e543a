/**
 * The register-blocked matmul family of kernels/matmul-blocked.wgsl: generates its unrolled
 * statements for a block shape (rows x columns per invocation, workgroup shape, quad loads) and
 * dispatches it, optionally with a fused bias / relu / NCHW-layout epilogue.
 */
import blockedWgsl from '../../../../kernels/matmul-blocked.wgsl?raw';
import type { CompiledKernel } from './pipeline-cache';
import type { KernelContext } from './context';
import { MATMUL } from './param-layouts';

const source = MATMUL.source(blockedWgsl);

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
  /**
   * Which operand, if any, is addressed through offset tables instead of strides (implicit-GEMM
   * convolution: the image read as its unfolded columns, see conv-implicit.ts).
   */
  readonly gather?: 'a' | 'b';
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/**
 * How one operand is addressed in the generated code: its per-row (A) or per-column (B) setup,
 * its offset per k step, and the load of one element.
 */
interface OperandCode {
  setup(i: number): string;
  step(suffix: string, k: string): string;
  load(i: number, suffix: string): string;
}

function operandCode(
  name: 'a' | 'b',
  outer: (i: number) => string,
  gathered: boolean,
): OperandCode {
  const base = name === 'a' ? 'aBase' : 'bBase';
  const [o, kv] = name === 'a' ? ['ar', 'ka'] : ['bc', 'kb'];
  const outerStride = name === 'a' ? 'P(P_aRowStride)' : 'P(P_bColStride)';
  return {
    setup: (i) =>
      gathered
        ? `  let ${o}${i} = ${base} + GATHER[P(P_tableOuter) + ${outer(i)}];`
        : `  let ${o}${i} = ${base} + ${outer(i)} * ${outerStride};`,
    step: (sfx, k) =>
      gathered
        ? `    let ${kv}${sfx} = GATHER[P(P_tableK) + ${k}];`
        : `    let ${kv}${sfx} = (${k}) * s${name}k;`,
    load: (i, sfx) => `${name.toUpperCase()}[${o}${i} + ${kv}${sfx}]`,
  };
}

/** The generated statements for one block shape. */
function statements(spec: BlockedSpec, gather?: 'a' | 'b'): Record<string, string> {
  const { rows: R, cols: C, wgx } = spec;
  const rs = range(R);
  const cs = range(C);
  // Rows of A and columns of B, clamped to the matrix so edge tiles load valid data; a gathered
  // operand takes its offsets from tables instead of strides.
  const A = operandCode('a', (r) => `min(row0 + ${r}u, M - 1u)`, gather === 'a');
  const B = operandCode('b', (c) => `min(col0 + ${c * wgx}u, N - 1u)`, gather === 'b');
  const setup = [...rs.map((r) => A.setup(r)), ...cs.map((c) => B.setup(c))];
  const accumulators = rs.flatMap((r) => cs.map((c) => `  var acc${r}_${c} = 0.0;`));
  const fmas = (a: (r: number) => string, b: (c: number) => string): string[] =>
    rs.flatMap((r) => cs.map((c) => `    acc${r}_${c} = fma(${a(r)}, ${b(c)}, acc${r}_${c});`));
  const body: string[] = [];
  if (spec.quad) {
    // Lane j of each quad loads A(row, k + j); quadBroadcast shares the four values.
    body.push(A.step('', 'k + lane'));
    for (const r of rs) body.push(`    let q${r} = ${A.load(r, '')};`);
    for (const u of range(4)) {
      body.push(B.step(`${u}`, `k + ${u}u`));
      for (const c of cs) body.push(`    let b${c}_${u} = ${B.load(c, `${u}`)};`);
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
      body.push(A.step(`${u}`, `k + ${u}u`), B.step(`${u}`, `k + ${u}u`));
      for (const r of rs) body.push(`    let a${r}_${u} = ${A.load(r, `${u}`)};`);
      for (const c of cs) body.push(`    let b${c}_${u} = ${B.load(c, `${u}`)};`);
      body.push(
        ...fmas(
          (r) => `a${r}_${u}`,
          (c) => `b${c}_${u}`,
        ),
      );
    }
  }
  const tail: string[] = [A.step('', 'k'), B.step('', 'k')];
  for (const r of rs) tail.push(`    let a${r} = ${A.load(r, '')};`);
  for (const c of cs) tail.push(`    let b${c} = ${B.load(c, '')};`);
  tail.push(
    ...fmas(
      (r) => `a${r}`,
      (c) => `b${c}`,
    ),
  );
  // Stores are unconditional: an element past the edge of the matrix is written to its clamped
  // position instead, where its value is already identical (its loads were clamped the same way,
  // in the same order), so no store is masked (masked stores cost a CPU emulation ~20% of a
  // short-K product).
  const store = [
    ...cs.map((c) => `  let oc${c} = min(col0 + ${c * wgx}u, N - 1u);`),
    ...rs.flatMap((r) => [
      `  let o${r} = rowStart(batch, min(row0 + ${r}u, M - 1u), M, N);`,
      ...cs.map((c) => `  OUT[o${r} + oc${c} * colStep] = finish(oc${c}, acc${r}_${c});`),
    ]),
  ];
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
  if (epilogue.gather === 'a') flags.push('A_GATHER');
  if (epilogue.gather === 'b') flags.push('B_GATHER');
  // Bindings: out, a, b, then the bias and the offset tables when present.
  const signature = `wrr${epilogue.bias ? 'r' : ''}${epilogue.gather ? 'r' : ''}`;
  return ctx.kernel(
    'matmul-blocked',
    `${blockedName(spec)}|${flags.join(',')}`,
    signature,
    source,
    () => ({
      flags,
      values: {
        GATHER_BINDING: epilogue.bias ? 5 : 4,
        WGX: spec.wgx,
        WGY: spec.wgy,
        TILE_COLS: spec.wgx * spec.cols,
        TILE_ROWS: spec.wgy * spec.rows,
        ROWS: spec.rows,
        ...statements(spec, epilogue.gather),
      },
    }),
  );
}

/** Workgroups covering an M x N output with this block shape. */
export function blockedGroups(spec: BlockedSpec, m: number, n: number): [number, number] {
  return [Math.ceil(n / (spec.wgx * spec.cols)), Math.ceil(m / (spec.wgy * spec.rows))];
}
