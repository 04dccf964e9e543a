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
  /** Share A loads across quads (needs the subgroups feature, wgx % 4 == 0). */
  readonly quad: boolean;
  /**
   * With quad: share them by quad swaps instead of quadBroadcast. Each lane then takes the quad's
   * four k steps in its own order (lane j: k + j, k + (j ^ 1), ...), reading B at those rows. A
   * swap is one shuffle where a CPU emulation spends a dozen instructions on a broadcast, but the
   * lanes of a quad read four rows of B at a time instead of one (worse coalescing on a GPU): the
   * tuner decides.
   */
  readonly swap?: boolean;
  /**
   * Load both operands as vec4 (A along k, B along n) and accumulate vec4s: 4x fewer loads of
   * each operand and 4 independent FMA chains per accumulator. Needs cols % 4 == 0 and operands
   * that are contiguous and 4-aligned in those directions (`vec4Fits`); not with quad.
   */
  readonly vec4?: boolean;
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
  if (spec.vec4) return vec4Statements(spec);
  const { rows: R, cols: C, wgx } = spec;
  const rs = range(R);
  const cs = range(C);
  // Rows of A and columns of B, clamped to the matrix so edge tiles load valid data; a gathered
  // operand takes its offsets from tables instead of strides.
  const A = operandCode('a', (r) => `min(row0 + ${r}u, M - 1u)`, gather === 'a');
  // Past the edge, a swapping lane takes its own lane's last column (edgeColumn): its neighbours
  // sum in other orders, and its store must not overwrite theirs with different bits.
  const column = (c: number): string =>
    spec.swap ? `edgeColumn(col0 + ${c * wgx}u, N)` : `min(col0 + ${c * wgx}u, N - 1u)`;
  const B = operandCode('b', column, gather === 'b');
  const setup = [...rs.map((r) => A.setup(r)), ...cs.map((c) => B.setup(c))];
  const accumulators = rs.flatMap((r) => cs.map((c) => `  var acc${r}_${c} = 0.0;`));
  const fmas = (a: (r: number) => string, b: (c: number) => string): string[] =>
    rs.flatMap((r) => cs.map((c) => `    acc${r}_${c} = fma(${a(r)}, ${b(c)}, acc${r}_${c});`));
  const body: string[] = [];
  if (spec.quad) {
    // Lane j of each quad loads A(row, k + j) for the quad's four k steps. With swaps, at step m
    // it holds lane (j ^ m)'s value, so it multiplies A(row, k + (j ^ m)) by its own load of
    // B(k + (j ^ m), col); with broadcasts, every lane takes step m as k + m.
    const swaps = ['', 'quadSwapX', 'quadSwapY', 'quadSwapDiagonal'];
    const share = (r: number, m: number): string =>
      !spec.swap ? `quadBroadcast(q${r}, ${m}u)` : m === 0 ? `q${r}` : `${swaps[m]}(q${r})`;
    const rowOfStep = (m: number): string =>
      !spec.swap ? `k + ${m}u` : m === 0 ? 'k + lane' : `k + (lane ^ ${m}u)`;
    body.push(A.step('', 'k + lane'));
    for (const r of rs) body.push(`    let q${r} = ${A.load(r, '')};`);
    for (const m of range(4)) {
      body.push(B.step(`${m}`, rowOfStep(m)));
      for (const c of cs) body.push(`    let b${c}_${m} = ${B.load(c, `${m}`)};`);
    }
    // Each accumulator takes its four steps in a row: a JIT without an instruction scheduler
    // (Subzero, in Chromium's SwiftShader) then keeps it in a register across them instead of
    // reloading and spilling it at every step. Each sum keeps the order of its steps.
    for (const r of rs) {
      for (const m of range(4)) body.push(`    let a${r}_${m} = ${share(r, m)};`);
      for (const c of cs) {
        for (const m of range(4)) {
          body.push(`    acc${r}_${c} = fma(a${r}_${m}, b${c}_${m}, acc${r}_${c});`);
        }
      }
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
    ...cs.map((c) => `  let oc${c} = ${column(c)};`),
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

/**
 * The statements of a vec4 member: A(row, k..k+3) is one vec4 load per row per four k steps, and
 * each invocation owns cols / 4 groups of four adjacent columns (groups interleaved across the
 * workgroup, so neighbouring invocations still read neighbouring memory), each one vec4 load of B
 * per k step and one vec4 accumulator per row. K % 4 == 0 is required, so there is no tail.
 */
function vec4Statements(spec: BlockedSpec): Record<string, string> {
  const { rows: R, cols: C, wgx } = spec;
  const rs = range(R);
  const gs = range(C / 4);
  const xyzw = ['x', 'y', 'z', 'w'];
  // Offsets in vec4 units; rows clamp to the matrix, column groups to the last whole group.
  const setup = [
    ...rs.map((r) => `  let ar${r} = (aBase + min(row0 + ${r}u, M - 1u) * P(P_aRowStride)) >> 2u;`),
    ...gs.map((g) => `  let bc${g} = (bBase + cg${g}) >> 2u;`),
  ];
  const columns = gs.map((g) => `  let cg${g} = min(col0 + 3u * lid.x + ${4 * g * wgx}u, N - 4u);`);
  const accumulators = rs.flatMap((r) => gs.map((g) => `  var acc${r}_${g} = vec4<f32>();`));
  const body: string[] = ['    let kq = k >> 2u;'];
  for (const r of rs) body.push(`    let a${r} = A[ar${r} + kq];`);
  for (const u of range(4)) {
    body.push(`    let kb${u} = (k + ${u}u) * sbk4;`);
    for (const g of gs) body.push(`    let b${g}_${u} = B[bc${g} + kb${u}];`);
    for (const r of rs) {
      for (const g of gs) {
        body.push(`    acc${r}_${g} = fma(vec4<f32>(a${r}.${xyzw[u]}), b${g}_${u}, acc${r}_${g});`);
      }
    }
  }
  const store = rs.flatMap((r) => [
    `  let o${r} = rowStart(batch, min(row0 + ${r}u, M - 1u), M, N);`,
    ...gs.flatMap((g) =>
      range(4).map(
        (j) =>
          `  OUT[o${r} + (cg${g} + ${j}u) * colStep] = finish(cg${g} + ${j}u, acc${r}_${g}.${xyzw[j]});`,
      ),
    ),
  ]);
  return {
    ACCUMULATORS: [...columns, ...accumulators].join('\n'),
    SETUP: setup.join('\n'),
    BODY: body.join('\n'),
    TAIL: '',
    STORE: store.join('\n'),
  };
}

/**
 * Whether a vec4 member can run this product: K and N multiples of 4 (no tail, whole column
 * groups), A contiguous along k and B along n, every offset and stride 4-aligned.
 */
export function vec4Fits(
  k: number,
  n: number,
  a: { offset: number; strides: readonly number[] },
  b: { offset: number; strides: readonly number[] },
): boolean {
  const [sab, sam, sak] = a.strides;
  const [sbb, sbk, sbn] = b.strides;
  const aligned = [k, n, a.offset, sab, sam, b.offset, sbb, sbk].every((v) => v % 4 === 0);
  return aligned && sak === 1 && sbn === 1 && n >= 4;
}

/** A stable name of a block shape, used in kernel labels, tuner caches and overrides. */
export function blockedName(spec: BlockedSpec): string {
  const kind = spec.vec4 ? 'v' : spec.quad ? (spec.swap ? 'x' : 'q') : 's';
  return `${kind}${spec.rows}x${spec.cols}@${spec.wgx}x${spec.wgy}`;
}

export function blockedKernel(
  ctx: KernelContext,
  spec: BlockedSpec,
  epilogue: Epilogue = {},
): CompiledKernel {
  const flags: string[] = [];
  if (spec.quad) flags.push('QUAD');
  if (spec.vec4) flags.push('VEC4');
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
