/**
 * The generated chain loop (fused-loop.ts) and the unfused loops (elementwise.ts) both call the
 * element-wise table's functions, but each rounds, casts and treats scalars its own way. Here
 * every unary and binary op of the table,
 * on float32 and int32 operands, scalars on either side, and each reduction, runs both ways on
 * random values with the awkward ones mixed in (±0, ±Infinity, NaN, int32's ends): the bits
 * must be equal. The same cases run on the block-wise loops that serve where code cannot be
 * compiled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BinaryOp,
  DType,
  FusedProgram,
  FusedReduction,
  OutView,
  UnaryOp,
  View,
} from '../../backend';
import { BINARY_OPS, UNARY_OPS } from '../../elementwise-table';
import { rng } from '../../testing/harness';
import { CpuBuffer, arrayOf } from './buffer';
import { binaryKernel, binaryScalarKernel, unaryKernel } from './elementwise';
import { fusedElementwiseKernel, fusedReduceKernel } from './fused';
import { setCompiledLoops } from './fused-loop';
import { reduceKernel } from './reduce';

const N = 257;
const random = rng(19);

const UNARY = Object.keys(UNARY_OPS) as UnaryOp[];
const BINARY = Object.keys(BINARY_OPS) as BinaryOp[];

function view(dtype: DType, n = N): View {
  return { buffer: new CpuBuffer(n * 4), dtype, shape: [n], strides: [1], offset: 0 };
}

/** Random values of a dtype, with the special ones at random places (and some repeats for eq). */
function randomView(dtype: DType): View {
  const v = view(dtype);
  const a = arrayOf(v);
  const specials =
    dtype === 'float32'
      ? [0, -0, Infinity, -Infinity, NaN, 1, -1, 3.5e38, 1e-40]
      : [0, 1, -1, 2147483647, -2147483648, 46341, 65536];
  for (let i = 0; i < N; i++) {
    const pick = random();
    if (pick < 0.15) a[i] = specials[Math.floor(random() * specials.length)];
    else if (pick < 0.2 && i > 0) a[i] = a[i - 1];
    else if (dtype === 'int32') a[i] = Math.floor((random() - 0.5) * 2 ** (1 + random() * 31));
    else a[i] = (random() - 0.5) * 2 ** (random() * 20 - 6);
  }
  return v;
}

function bits(v: View): Int32Array {
  const a = arrayOf(v);
  return new Int32Array(a.buffer, a.byteOffset, a.length);
}

const outOf = (dtype: DType): OutView => view(dtype);

afterAll(() => setCompiledLoops(true));

describe.each([
  ['the generated loop', true],
  ['the block-wise loops', false],
])('%s, op by op, against the unfused kernels', (_, compiled) => {
  beforeAll(() => setCompiledLoops(compiled));

  for (const op of UNARY) {
    for (const [from, to] of [
      ['float32', 'float32'],
      ['int32', 'int32'],
      ['float32', 'int32'],
      ['int32', 'float32'],
    ] as const) {
      it(`${op}: ${from} → ${to}`, () => {
        const x = randomView(from);
        const unfused = outOf(to);
        unaryKernel(op, x, unfused);
        const fused = outOf(to);
        const program: FusedProgram = {
          inputs: [from],
          steps: [{ kind: 'unary', op, a: { from: 'input', index: 0 }, dtype: to }],
          outputs: [0],
        };
        fusedElementwiseKernel(program, [x], [], [fused]);
        expect(bits(fused)).toEqual(bits(unfused));
      });
    }
  }

  for (const op of BINARY) {
    for (const [da, db, to] of [
      ['float32', 'float32', 'float32'],
      ['int32', 'int32', 'int32'],
      ['int32', 'float32', 'float32'],
      ['float32', 'float32', 'int32'],
    ] as const) {
      it(`${op}: ${da}, ${db} → ${to}, tensors and scalars on either side`, () => {
        const a = randomView(da);
        const b = randomView(db);
        const unfused = outOf(to);
        binaryKernel(op, a, b, unfused);
        const fused = outOf(to);
        fusedElementwiseKernel(
          {
            inputs: [da, db],
            steps: [
              {
                kind: 'binary',
                op,
                a: { from: 'input', index: 0 },
                b: { from: 'input', index: 1 },
                dtype: to,
              },
            ],
            outputs: [0],
          },
          [a, b],
          [],
          [fused],
        );
        expect(bits(fused)).toEqual(bits(unfused));
        // A scalar that int32 holds only after ToInt32, on each side.
        for (const scalar of [2.75, -3e9, 0.5]) {
          for (const scalarFirst of [false, true]) {
            const expected = outOf(to);
            binaryScalarKernel(op, a, scalar, scalarFirst, expected);
            const got = outOf(to);
            const tensor = { from: 'input', index: 0 } as const;
            const constant = { from: 'scalar', index: 0 } as const;
            fusedElementwiseKernel(
              {
                inputs: [da],
                steps: [
                  {
                    kind: 'binary',
                    op,
                    a: scalarFirst ? constant : tensor,
                    b: scalarFirst ? tensor : constant,
                    dtype: to,
                  },
                ],
                outputs: [0],
              },
              [a],
              [scalar],
              [got],
            );
            expect(bits(got), `scalar ${scalar}, first ${scalarFirst}`).toEqual(bits(expected));
          }
        }
      });
    }
  }

  it('a fill casts as the fill kernel does', () => {
    for (const dtype of ['float32', 'int32'] as const) {
      const got = outOf(dtype);
      fusedElementwiseKernel(
        {
          inputs: [],
          steps: [{ kind: 'unary', op: 'copy', a: { from: 'scalar', index: 0 }, dtype }],
          outputs: [0],
        },
        [],
        [-7.9],
        [got],
      );
      expect([...arrayOf(got)]).toEqual(Array(N).fill(dtype === 'int32' ? -7 : Math.fround(-7.9)));
    }
  });

  for (const op of ['sum', 'max', 'min'] as const) {
    it(`a ${op} over rows of a chain, against reduce over the unfused values`, () => {
      // (a - b)² over [rows, inner]: rows of 1, of 7 and the whole run.
      const a = randomView('float32');
      const b = randomView('float32');
      const diff = outOf('float32');
      binaryKernel('sub', a, b, diff);
      const square = outOf('float32');
      unaryKernel('square', diff, square);
      for (const inner of [1, 7, N]) {
        const rows = Math.floor(N / inner);
        const n = rows * inner;
        const sliced = (v: View): View => ({ ...v, shape: [rows, inner], strides: [inner, 1] });
        const expected: OutView = view('float32', rows);
        reduceKernel(op, sliced(square), 1, expected);
        const got: OutView = view('float32', rows);
        const reduction: FusedReduction = { op, step: 1, shape: [rows, inner], inner, out: got };
        fusedReduceKernel(
          {
            inputs: ['float32', 'float32'],
            steps: [
              {
                kind: 'binary',
                op: 'sub',
                a: { from: 'input', index: 0 },
                b: { from: 'input', index: 1 },
                dtype: 'float32',
              },
              { kind: 'unary', op: 'square', a: { from: 'step', index: 0 }, dtype: 'float32' },
            ],
            outputs: [],
          },
          [
            { ...a, shape: [rows, inner], strides: [inner, 1] },
            { ...b, shape: [rows, inner], strides: [inner, 1] },
          ],
          [],
          [],
          [reduction],
        );
        expect(bits(got), `inner ${inner}, n ${n}`).toEqual(bits(expected));
      }
    });
  }
});
