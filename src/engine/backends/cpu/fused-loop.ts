/**
 * A fused chain as one generated JavaScript loop: every step's value lives in a local for the
 * element, rounded to its dtype as the unfused kernel's store rounds it (`Math.fround` for
 * float32, `| 0` for int32), and each reduction folds its row in a local, in order, in float64.
 * So the results are the unfused path's bits (elementwise.ts, reduce.ts), from one monomorphic
 * loop instead of one polymorphic loop a step over cache-sized blocks (bench/NOTES.md item 28:
 * the CPU linear-regression step's two chains took 22 of its 35 ms that way).
 *
 * The loop is compiled (compile.ts), once per chain structure (not per shape), calling the
 * element-wise table's functions for its steps; where a policy refuses eval, the caller keeps the
 * block-wise loops (fused.ts).
 */
import type { DType, FusedProgram, FusedReduction } from '../../backend';
import { binaryRow, unaryRow } from '../../elementwise-table';
import { compile } from './compile';

/** A row's function of one or two values (elementwise-table.ts). */
type OpFunction = (...values: number[]) => number;

type Arr = Float32Array | Int32Array;

/**
 * The compiled chain: `n` elements taken as `rows` runs of `inner` (one run of n without
 * reductions); input i read at `inOffsets[i] + k·inStrides[i]`, output o written at
 * `outOffsets[o] + k`; reduction r's row results into `acc[r]`.
 */
export type FusedLoop = (
  n: number,
  inner: number,
  inputs: readonly Arr[],
  inOffsets: readonly number[],
  inStrides: readonly number[],
  scalars: Float64Array,
  outputs: readonly Arr[],
  outOffsets: readonly number[],
  acc: readonly Float64Array[],
) => void;

/** The loop's body for a chain: locals for the operands, then one loop nest over rows. */
function loopSource(
  program: FusedProgram,
  reductions: readonly Pick<FusedReduction, 'op' | 'step'>[],
): { source: string; fns: OpFunction[] } {
  const { steps } = program;
  const lines: string[] = [];
  // The rows' functions the steps call, each once in `fns` (the JIT inlines them in the loop).
  const fns: OpFunction[] = [];
  const call = (fn: OpFunction, args: string[]): string => {
    let k = fns.indexOf(fn);
    if (k < 0) {
      k = fns.length;
      fns.push(fn);
      lines.push(`const f${k} = fns[${k}];`);
    }
    return `f${k}(${args.join(', ')})`;
  };
  const dtypeOf = (o: { from: string; index: number }): DType | null =>
    o.from === 'input' ? program.inputs[o.index] : o.from === 'step' ? steps[o.index].dtype : null;
  // Scalars as the unfused kernels hold them: an int32 op on an int32 tensor takes ToInt32 of
  // the scalar (an Int32Array holder); every other a float64.
  const scalarLocals = new Map<string, string>();
  const scalar = (index: number, asInt: boolean) => {
    const key = `${index}${asInt ? 'i' : 'd'}`;
    if (!scalarLocals.has(key)) {
      scalarLocals.set(key, `c${key}`);
      lines.push(`const c${key} = ${asInt ? `scalars[${index}] | 0` : `scalars[${index}]`};`);
    }
    return `c${key}`;
  };
  const usedInputs = new Set<number>();
  const body: string[] = [];
  const value = (o: { from: string; index: number }, asInt: boolean): string => {
    if (o.from === 'input') {
      usedInputs.add(o.index);
      return `x${o.index}`;
    }
    if (o.from === 'step') return `v${o.index}`;
    return scalar(o.index, asInt);
  };
  steps.forEach((step, i) => {
    let expr: string;
    if (step.kind === 'unary' && step.a.from === 'scalar') {
      // A unary step of a scalar is a fill (fused.ts): the value, cast by the output's store.
      expr = value(step.a, false);
    } else if (step.kind === 'unary') {
      expr = call(unaryRow(step.op).js, [value(step.a, false)]);
    } else {
      const tensorDtype = step.a.from === 'scalar' ? dtypeOf(step.b) : dtypeOf(step.a);
      const intScalar = step.dtype === 'int32' && tensorDtype === 'int32';
      const a = value(step.a, intScalar);
      const b = value(step.b, intScalar);
      const aInt = step.a.from === 'scalar' ? intScalar : dtypeOf(step.a) === 'int32';
      const bInt = step.b.from === 'scalar' ? intScalar : dtypeOf(step.b) === 'int32';
      const row = binaryRow(step.op);
      const exact = row.jsInt !== undefined && step.dtype === 'int32' && aInt && bInt;
      expr = call(exact ? row.jsInt! : row.js, [a, b]);
    }
    body.push(
      step.dtype === 'int32' ? `const v${i} = (${expr}) | 0;` : `const v${i} = fround(${expr});`,
    );
  });
  const head = [...usedInputs].map((i) => `const x${i} = in${i}[p${i}]; p${i} += s${i};`);
  for (const i of usedInputs) {
    lines.push(`const in${i} = inputs[${i}], s${i} = inStrides[${i}];`);
    lines.push(`let p${i} = inOffsets[${i}];`);
  }
  program.outputs.forEach((step, o) => {
    lines.push(`const out${o} = outputs[${o}];`);
    lines.push(`let q${o} = outOffsets[${o}];`);
    body.push(`out${o}[q${o}++] = v${step};`);
  });
  const init: string[] = [];
  const store: string[] = [];
  reductions.forEach(({ op, step }, r) => {
    lines.push(`const acc${r} = acc[${r}];`);
    // reduce.ts: a float64 sum, or the best of sign·value with NaN sticking.
    init.push(`let r${r} = ${op === 'sum' ? '0' : '-Infinity'};`);
    if (op === 'sum') body.push(`r${r} += v${step};`);
    else {
      const signed = op === 'min' ? `-v${step}` : `v${step}`;
      body.push(`{ const t = ${signed}; if (t > r${r} || t !== t) r${r} = t; }`);
    }
    store.push(`acc${r}[row] = ${op === 'min' ? `-r${r}` : `r${r}`};`);
  });
  lines.push(
    'const rows = inner === 0 ? 0 : n / inner;',
    'for (let row = 0; row < rows; row++) {',
    ...init,
    '  for (let j = 0; j < inner; j++) {',
    ...head,
    ...body,
    '  }',
    ...store,
    '}',
  );
  return { source: lines.join('\n'), fns };
}

const compiled = new Map<string, FusedLoop>();
let enabled = true;

/**
 * Turns the generated loops off or on (on by default): with them off every chain runs the
 * block-wise loops, as where a policy refuses `new Function`, so tests can check that path too.
 */
export function setCompiledLoops(on: boolean): void {
  enabled = on;
}

/**
 * The chain's loop, compiled on first use of its structure; null where the page's policy
 * refuses `new Function` (then the caller runs the block-wise loops).
 */
export function fusedLoop(
  program: FusedProgram,
  reductions: readonly Pick<FusedReduction, 'op' | 'step'>[],
): FusedLoop | null {
  if (!enabled) return null;
  const key = JSON.stringify([program, reductions.map(({ op, step }) => [op, step])]);
  const known = compiled.get(key);
  if (known) return known;
  const { source, fns } = loopSource(program, reductions);
  const loop = compile<FusedLoop>(
    'fusedLoop',
    'n, inner, inputs, inOffsets, inStrides, scalars, outputs, outOffsets, acc',
    source,
    { fns, fround: Math.fround },
  );
  if (!loop) return null;
  compiled.set(key, loop);
  return loop;
}
