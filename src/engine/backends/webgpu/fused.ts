/**
 * Binds kernels/fused-elementwise.wgsl: a fused element-wise chain (backends/fusion/) as one
 * dispatch. The shader is generated from the chain's structure (ops, dtypes, compute types, merged
 * rank), never from its shapes or scalar values, which travel in the parameter block, so the
 * pipeline cache serves every shape a chain is run at. A chain ending in a reduction runs as
 * kernels/reduce.wgsl's CHAIN form, whose elements come from the chain (`chainAt`), so rows,
 * chunks, workgroup trees and the pass over partial results are the reduction's own.
 */
import {
  MAX_FUSED_REDUCTIONS,
  type DType,
  type FusedOperand,
  type FusedProgram,
  type FusedReduction,
  type FusedStep,
  type OutView,
  type View,
} from '../../backend';
import fusedWgsl from '../../../../kernels/fused-elementwise.wgsl?raw';
import reduceWgsl from '../../../../kernels/reduce.wgsl?raw';
import { binaryRow, unaryRow, type WgslExpression } from '../../elementwise-table';
import { contiguousStrides } from '../../shape';
import { grid, grid64, type KernelContext } from './context';
import { gpuOf, outputOf } from './gpu-buffer';
import { FUSED, FUSED_MAX_INPUTS, FUSED_MAX_SCALARS, FUSED_REDUCE } from './param-layouts';
import { DEFAULT_REDUCE_MODE, identity, opFlags, planReduce, reducePartials } from './reduce';
import { rowModeClassKey } from './rowmode-tune';
import { expandWgsl } from './wgsl-template';
import { checkRank, coalesce, elementCount, f32Bits, MAX_RANK } from './uniforms';
import { wgslType, type WgslScalar } from './wgsl-types';

const source = FUSED.source(fusedWgsl);
const reduceSource = FUSED_REDUCE.source(reduceWgsl);

function expressionOf(step: FusedStep): WgslExpression {
  return step.kind === 'unary' ? unaryRow(step.op).wgsl : binaryRow(step.op).wgsl;
}

function operandsOf(step: FusedStep): FusedOperand[] {
  return step.kind === 'unary' ? [step.a] : [step.a, step.b];
}

/**
 * Each step's compute type, by elementwise.ts's rule: its exact int32 form when every tensor
 * operand is int32 and every scalar an int32 value, else f32; a fill's is its output's.
 */
function computeTypes(program: FusedProgram, scalars: readonly number[]): WgslScalar[] {
  const dtypeOf = (o: FusedOperand): DType | null =>
    o.from === 'input'
      ? program.inputs[o.index]
      : o.from === 'step'
        ? program.steps[o.index].dtype
        : null;
  return program.steps.map((step) => {
    // A fill computes in its output's type, as the fill kernel writes that type's bits.
    if (step.kind === 'unary' && step.a.from === 'scalar') return wgslType(step.dtype);
    const intInputs = operandsOf(step).every((o) => {
      if (o.from !== 'scalar') return dtypeOf(o) === 'int32';
      const value = scalars[o.index];
      return Number.isInteger(value) && Math.abs(value) < 2 ** 31;
    });
    return expressionOf(step).int !== undefined && intInputs ? 'i32' : 'f32';
  });
}

function structureKey(program: FusedProgram, compute: readonly WgslScalar[], rank: number): string {
  const tag = { input: 'i', step: 'v', scalar: 'c' } as const;
  const operand = (o: FusedOperand) => `${tag[o.from]}${o.index}`;
  const steps = program.steps.map(
    (s, i) => `${s.op}(${operandsOf(s).map(operand).join(',')})${s.dtype}/${compute[i]}`,
  );
  // The ops first: a profile names the kernel by them (fused:mul+add).
  const ops = program.steps.map((s) => s.op).join('+');
  return `${ops}|r${rank}|${program.inputs.join(',')}|${steps.join(';')}|>${program.outputs.join(',')}`;
}

/** How an input is read: a vec4 per invocation, one broadcast value, or at strided offsets. */
type InputMode = 'vec4' | 'splat' | 'strided';

const MODE_LETTER: Record<InputMode, string> = { vec4: 'v', splat: 'b', strided: 's' };

const LANES = ['x', 'y', 'z', 'w'] as const;

/**
 * The WGSL the template's placeholders receive. `chain`: the CHAIN_FN form (bindings after the
 * reduction's output), whose rank-1 inputs' loop-invariant reads move to `chainStart` (START).
 */
function generate(
  program: FusedProgram,
  compute: readonly WgslScalar[],
  modes: readonly InputMode[],
  rank: number,
  vec4: boolean,
  chain = false,
) {
  const firstBinding = chain ? 2 : 1;
  const outputs = program.outputs.length;
  const outType = (step: number) => wgslType(program.steps[step].dtype);
  const bindings = [
    ...program.outputs.map((step, k) => {
      const t = vec4 ? `vec4<${outType(step)}>` : outType(step);
      return `@group(0) @binding(${firstBinding + k}) var<storage, read_write> OUT${k}: array<${t}>;`;
    }),
    ...program.inputs.map((dtype, k) => {
      const t = modes[k] === 'vec4' ? `vec4<${wgslType(dtype)}>` : wgslType(dtype);
      return `@group(0) @binding(${firstBinding + outputs + k}) var<storage, read> IN${k}: array<${t}>;`;
    }),
  ];
  const steps = program.steps.map((step, i) => {
    const c = compute[i];
    const out = wgslType(step.dtype);
    const expression = expressionOf(step);
    const body = (c === 'i32' ? (expression.int as string) : expression.float).replaceAll(
      '/*C*/',
      c,
    );
    const params = step.kind === 'unary' ? `a: ${c}` : `a: ${c}, b: ${c}`;
    return `fn step${i}(${params}) -> ${out} {\n  return ${out}(${body});\n}`;
  });
  const body: string[] = [];
  const privates: string[] = [];
  const start: string[] = [];
  // The steps for one element; `lane` names the vector component in the VEC4 form.
  const stepLines = (lane: string) =>
    program.steps.forEach((step, i) => {
      const c = compute[i];
      const value = (o: FusedOperand) =>
        o.from === 'input'
          ? `${c}(x${o.index}${modes[o.index] === 'vec4' ? `.${lane}` : ''})`
          : o.from === 'step'
            ? `${c}(v${o.index}${lane})`
            : `bitcast<${c}>(scalarBits(${o.index}u))`;
      body.push(`  let v${i}${lane} = step${i}(${operandsOf(step).map(value).join(', ')});`);
    });
  program.inputs.forEach((_, k) => {
    const offset = `P(P_offsets + ${k}u)`;
    if (modes[k] === 'vec4') body.push(`  let x${k} = IN${k}[(${offset} >> 2u) + q];`);
    else if (modes[k] === 'splat' && chain) {
      // Read once per invocation (chainStart), not once per element the reduction folds.
      privates.push(`var<private> x${k}: ${wgslType(program.inputs[k])};`);
      start.push(`  x${k} = IN${k}[${offset}];`);
    } else if (modes[k] === 'splat') body.push(`  let x${k} = IN${k}[${offset}];`);
    else if (rank === 1 && chain) {
      // Its offset and stride once per invocation too (uniform reads, not hoisted either).
      privates.push(`var<private> o${k}: u32;`, `var<private> s${k}: u32;`);
      start.push(`  o${k} = ${offset};`, `  s${k} = P(P_strides + ${k * MAX_RANK}u);`);
      body.push(`  let x${k} = IN${k}[o${k} + i * s${k}];`);
    } else if (rank === 1)
      body.push(`  let x${k} = IN${k}[${offset} + i * P(P_strides + ${k * MAX_RANK}u)];`);
    else body.push(`  let x${k} = IN${k}[inputOffset(${k}u, i)];`);
  });
  if (!vec4) {
    stepLines('');
    program.outputs.forEach((step, k) => body.push(`  OUT${k}[i] = v${step};`));
  } else {
    for (const lane of LANES) stepLines(lane);
    program.outputs.forEach((step, k) =>
      body.push(
        `  let o${k} = vec4<${outType(step)}>(${LANES.map((l) => `v${step}${l}`).join(', ')});`,
      ),
    );
    body.push('  if (q * 4u + 4u <= n) {');
    program.outputs.forEach((_, k) => body.push(`    OUT${k}[q] = o${k};`));
    body.push('    return;', '  }');
    // The last, partial vector: the elements past the end keep their values.
    program.outputs.forEach((_, k) => {
      body.push(`  var m${k} = OUT${k}[q];`);
      body.push(`  for (var j = 0u; q * 4u + j < n; j++) {`, `    m${k}[j] = o${k}[j];`, '  }');
      body.push(`  OUT${k}[q] = m${k};`);
    });
  }
  return {
    BINDINGS: [...bindings, ...privates].join('\n'),
    STEPS: steps.join('\n\n'),
    BODY: body.join('\n'),
    START: start.join('\n'),
  };
}

/** What both forms share: the merged layout, compute types, how inputs are read, parameters. */
function prepare(
  program: FusedProgram,
  inputs: readonly View[],
  scalars: readonly number[],
  shape: readonly number[],
  allowVec4: boolean,
) {
  if (inputs.length > FUSED_MAX_INPUTS || scalars.length > FUSED_MAX_SCALARS) {
    throw new Error(
      `fusedElementwise: ${inputs.length} inputs and ${scalars.length} scalars exceed ` +
        `${FUSED_MAX_INPUTS} and ${FUSED_MAX_SCALARS}`,
    );
  }
  // The outputs' own (contiguous) strides take part in merging, so merged dims stay row-major.
  const merged = coalesce(
    [...shape],
    [contiguousStrides([...shape]), ...inputs.map((v) => v.strides)],
  );
  const rank = merged.shape.length;
  checkRank('fusedElementwise', rank);
  const compute = computeTypes(program, scalars);
  // Vectors of four when every input is contiguous and 4-aligned, or one broadcast value.
  const ways: InputMode[] = inputs.map((v, k) => {
    const stride = merged.strides[k + 1][0];
    if (rank === 1 && stride === 0) return 'splat';
    return allowVec4 && rank === 1 && stride === 1 && v.offset % 4 === 0 ? 'vec4' : 'strided';
  });
  // One strided input makes the kernel scalar, and then every contiguous input is read strided.
  const scalar = ways.includes('strided');
  const modes = ways.map((m) => (scalar && m === 'vec4' ? 'strided' : m));
  // One letter per mode ('splat' and 'strided' share their first): a kernel per combination.
  const key = `${structureKey(program, compute, rank)}|${modes.map((m) => MODE_LETTER[m]).join('')}`;
  const strides = new Array<number>(MAX_RANK * inputs.length).fill(0);
  inputs.forEach((_, k) =>
    merged.strides[k + 1].forEach((s, d) => (strides[k * MAX_RANK + d] = s)),
  );
  // A scalar's bits are in the compute type of the step that reads it.
  const bits = scalars.map((value) => f32Bits(value));
  program.steps.forEach((step, i) => {
    for (const o of operandsOf(step)) {
      if (o.from === 'scalar' && compute[i] === 'i32') bits[o.index] = scalars[o.index] | 0;
    }
  });
  const offsets = inputs.map((v) => v.offset);
  /** Writes the chain's fields, which FUSED and FUSED_REDUCE share. */
  const writeChain = <W extends ChainParams<W>>(params: W, n: number): W =>
    params
      .set('n', n)
      .list('shape', merged.shape)
      .list('strides', strides)
      .list('offsets', offsets)
      .list('scalars', bits);
  return { rank, compute, modes, key, writeChain };
}

/** The chain's part of a parameter writer (FUSED, or FUSED_REDUCE before the reduction's). */
interface ChainParams<W> {
  set(name: 'n', value: number): W;
  list(name: 'shape' | 'strides' | 'offsets' | 'scalars', values: readonly number[]): W;
}

export function fusedElementwise(
  ctx: KernelContext,
  program: FusedProgram,
  inputs: readonly View[],
  scalars: readonly number[],
  outputs: readonly OutView[],
): void {
  if (outputs.length === 0) return;
  const shape = outputs[0].shape;
  const n = elementCount(shape);
  if (n === 0) return;
  const { rank, compute, modes, key, writeChain } = prepare(program, inputs, scalars, shape, true);
  const vec4 = modes.every((m) => m !== 'strided');
  const signature = 'w'.repeat(outputs.length) + 'r'.repeat(inputs.length);
  const kernel = ctx.kernel('fused-elementwise', key, signature, source, () => ({
    flags: vec4 ? ['VEC4'] : [],
    values: { RANK: rank, MAX_RANK, ...generate(program, compute, modes, rank, vec4) },
  }));
  writeChain(ctx.params(FUSED), n);
  const buffers = [...outputs.map((o) => outputOf(o)), ...inputs.map((v) => gpuOf(v))];
  ctx.run(kernel, buffers, grid64(vec4 ? Math.ceil(n / 4) : n));
}

/**
 * The chain and reductions of its steps in one pass (reduce.wgsl's CHAIN form), plus the pass
 * over partial results when a long row is split into chunks. Rows, chunks and the row mode
 * follow the plain reduction of a contiguous [rows, inner] view: the mode tuned for that class
 * on this adapter, else the default. Several sums fold one vector per element, a lane each; the
 * pass over partial results (when there is one) writes them lane by lane into scratch, and each
 * reduction's values are copied to its output (buffer-to-buffer copies, no dispatch).
 */
export function fusedReduce(
  ctx: KernelContext,
  program: FusedProgram,
  inputs: readonly View[],
  scalars: readonly number[],
  outputs: readonly OutView[],
  reductions: readonly FusedReduction[],
  force = ctx.overrides.reduce,
): void {
  const [first] = reductions;
  if (!first || reductions.length > MAX_FUSED_REDUCTIONS) {
    throw new Error(`fusedReduce: ${reductions.length} reductions (1 to ${MAX_FUSED_REDUCTIONS})`);
  }
  const { op, inner, shape } = first;
  const n = elementCount(shape);
  if (n === 0 || inner === 0) throw new Error('fusedReduce: an empty chain or row');
  if (reductions.some((r) => program.steps[r.step].dtype !== 'float32')) {
    throw new Error('fusedReduce: only a float32 step can be reduced');
  }
  if (reductions.length > 1 && reductions.some((r) => r.op !== 'sum' || r.inner !== inner)) {
    throw new Error('fusedReduce: several reductions must be sums over rows of one length');
  }
  const rows = n / inner;
  // A single reduction into its output's start is written directly, as a plain reduce would.
  const direct = reductions.length === 1 && first.out.offset === 0;
  const lanes = reductions.length === 3 ? 4 : reductions.length;
  const type = lanes === 1 ? 'f32' : `vec${lanes}<f32>`;
  const steps = reductions.map((r) => `v${r.step}`);
  while (steps.length < lanes) steps.push('0.0');
  const prepared = prepare(program, inputs, scalars, shape, false);
  const { rank, compute, modes, writeChain } = prepared;
  const classKey = rowModeClassKey({ family: 'reduce', rows, inner, contiguous: true });
  const mode = force ?? ctx.tuner.get(classKey) ?? DEFAULT_REDUCE_MODE;
  const plan = planReduce(rows, inner, mode);
  const chunks = Math.ceil(inner / plan.chunkLen);
  const flags = [...opFlags(op, type), 'WRITE_VAL', 'CHAIN'];
  if (plan.mode === 'workgroup') flags.push('WORKGROUP');
  const signature = 'w'.repeat(1 + outputs.length) + 'r'.repeat(inputs.length);
  const key = `${prepared.key}|${op}|${plan.mode}|>${reductions.map((r) => r.step).join(',')}`;
  const kernel = ctx.kernel('fused-reduce', key, signature, reduceSource, () => {
    const chain = expandWgsl('fused-elementwise', fusedWgsl, {
      flags: ['CHAIN_FN'],
      values: {
        RANK: rank,
        MAX_RANK,
        REDUCED: lanes === 1 ? steps[0] : `${type}(${steps.join(', ')})`,
        REDUCED_TYPE: type,
        ...generate(program, compute, modes, rank, false, true),
      },
    });
    const start = lanes === 1 ? identity(op, 'f32') : `${type}(0.0)`;
    return {
      flags,
      values: { T: type, IDENTITY: start, KEEP_RANK: 0, RED_RANK: 1, CHAIN: chain },
    };
  });
  const tasksBytes = rows * chunks * lanes * 4;
  writeChain(ctx.params(FUSED_REDUCE), n)
    .set('rows', rows)
    .set('inner', inner)
    .set('chunkLen', plan.chunkLen)
    .set('chunks', chunks);
  const target = direct && chunks === 1 ? outputOf(first.out) : ctx.pool.acquire(tasksBytes);
  const buffers = [target, ...outputs.map((o) => outputOf(o)), ...inputs.map((v) => gpuOf(v))];
  const tasks = rows * chunks;
  ctx.run(kernel, buffers, plan.mode === 'workgroup' ? grid(tasks) : grid64(tasks));
  // One row in one chunk leaves the lanes in order; else a pass over the partial results (the
  // lanes of several rows are interleaved, and long rows were cut into chunks).
  let lanesOut = target;
  if (chunks > 1 || (!direct && rows > 1)) {
    lanesOut = direct ? outputOf(first.out) : ctx.pool.acquire(lanes * rows * 4);
    const partial = { values: target, indices: null };
    reducePartials(
      ctx,
      op,
      'f32',
      partial,
      rows,
      chunks,
      { values: lanesOut, indices: null },
      mode,
      lanes,
    );
  }
  if (direct) return;
  reductions.forEach((r, lane) => {
    ctx.queue.copy(lanesOut, lane * rows * 4, gpuOf(r.out), r.out.offset * 4, rows * 4);
  });
  ctx.pool.recycle(lanesOut);
}
