/**
 * Edge cases of the compositions (einsum.ts, masks.ts, split.ts, statistics.ts) against float64
 * references on every test device: einsum by brute-force summation over every label assignment
 * (diagonals, broadcast ellipses, several operands), infinities through the masks and logsumexp,
 * and the split family's uneven and empty pieces. Values and gradients against real PyTorch are
 * in api/python/torch-functions.test.ts.
 */
import { describe, expect, it } from 'vitest';
import * as ops from '.';
import { testDevices } from '../testing/devices';
import { expectClose, randomRef, rng, tensorOf } from '../testing/harness';
import { ravel, size, type Ref } from '../testing/reference';

const devices = await testDevices();

/** einsum by definition: the sum over all assignments of the labels not in the output. */
function einsumRef(equation: string, refs: Ref[]): Ref {
  const [lhs, rhs] = equation.split('->');
  const specs = lhs.split(',');
  const sizes = new Map<string, number>();
  specs.forEach((spec, i) => [...spec].forEach((l, d) => sizes.set(l, refs[i].shape[d])));
  const labels = [...sizes.keys()];
  const outLabels = [...rhs];
  const shape = outLabels.map((l) => sizes.get(l) ?? 1);
  const data = new Float64Array(size(shape));
  const total = labels.reduce((n, l) => n * (sizes.get(l) ?? 1), 1);
  for (let k = 0; k < total; k++) {
    const at = new Map<string, number>();
    let rest = k;
    for (const l of labels) {
      const n = sizes.get(l) ?? 1;
      at.set(l, rest % n);
      rest = Math.floor(rest / n);
    }
    let product = 1;
    specs.forEach((spec, i) => {
      product *=
        refs[i].data[
          ravel(
            [...spec].map((l) => at.get(l) ?? 0),
            refs[i].shape,
          )
        ];
    });
    data[
      ravel(
        outLabels.map((l) => at.get(l) ?? 0),
        shape,
      )
    ] += product;
  }
  return { shape, data };
}

const CASES: [string, number[][]][] = [
  [
    'ij,jk->ik',
    [
      [3, 4],
      [4, 5],
    ],
  ],
  [
    'bij,bjk->bik',
    [
      [2, 3, 4],
      [2, 4, 2],
    ],
  ],
  ['ii->i', [[4, 4]]],
  ['ii->', [[3, 3]]],
  ['bii->bi', [[2, 3, 3]]],
  [
    'iij,jk->ik',
    [
      [3, 3, 2],
      [2, 4],
    ],
  ],
  [
    'ij,ij->ij',
    [
      [3, 4],
      [3, 4],
    ],
  ],
  [
    'ij,ij->',
    [
      [3, 4],
      [3, 4],
    ],
  ],
  ['i,j,k->ijk', [[2], [3], [2]]],
  [
    'abc,cd,bd->a',
    [
      [2, 3, 4],
      [4, 2],
      [3, 2],
    ],
  ],
  ['ijk->kji', [[2, 3, 4]]],
];

describe.each(devices.map((d) => [d.name, d] as const))('compositions on %s', (_, device) => {
  const random = rng(7);

  it.each(CASES)('einsum %s matches the definition', async (equation, shapes) => {
    const refs = shapes.map((s) => randomRef(s, random));
    const out = ops.einsum(
      equation,
      refs.map((r) => tensorOf(r, device)),
    );
    const want = einsumRef(equation, refs);
    expect(out.shape).toEqual(want.shape);
    expectClose(await out.data(), want.data, `einsum ${equation}`, 1e-5);
  });

  it('einsum with an ellipsis broadcasts the batch dims', async () => {
    const a = randomRef([2, 1, 3, 4], random);
    const b = randomRef([5, 4, 2], random);
    const out = ops.einsum('...ij,...jk->...ik', [tensorOf(a, device), tensorOf(b, device)]);
    const expanded = ops.matmul(tensorOf(a, device), tensorOf(b, device));
    expect(out.shape).toEqual([2, 5, 3, 2]);
    expectClose(await out.data(), await expanded.data(), 'einsum ...ij,...jk->...ik', 1e-5);
  });

  it('masks keep infinities where kept and give 0 (not NaN) where masked', async () => {
    const inf = ops.full([3, 3], -Infinity, { device });
    expect(Array.from(await ops.triu(inf, 1).data())).toEqual([
      0,
      -Infinity,
      -Infinity,
      0,
      0,
      -Infinity,
      0,
      0,
      0,
    ]);
    const cond = ops.fromData([1, 0, 1], { device, dtype: 'int32' });
    const w = ops.where(cond, ops.fromData([Infinity, Infinity, 2], { device }), 5);
    expect(Array.from(await w.data())).toEqual([Infinity, 5, 2]);
  });

  it('logsumexp is finite for large values and -inf for an all -inf row', async () => {
    const x = ops.fromData(
      [
        [1000, 1000, -Infinity],
        [-Infinity, -Infinity, -Infinity],
        [-3, 0, 2],
      ],
      { device },
    );
    const out = Array.from(await ops.logsumexp(x, 1).data());
    expect(out[0]).toBeCloseTo(1000 + Math.log(2), 3);
    expect(out[1]).toBe(-Infinity);
    expect(out[2]).toBeCloseTo(Math.log(Math.exp(-3) + 1 + Math.exp(2)), 5);
  });

  it('split, chunk and tensor_split give PyTorch piece sizes, empty pieces included', () => {
    const x = ops.zeros([7, 2], { device });
    const sizes = (ts: ops.Operand[]) => ts.map((t) => (t as typeof x).shape[0]);
    expect(sizes(ops.split(x, 3))).toEqual([3, 3, 1]);
    expect(sizes(ops.chunk(x, 3))).toEqual([3, 3, 1]);
    expect(sizes(ops.chunk(ops.zeros([6], { device }), 4))).toEqual([2, 2, 2]);
    expect(sizes(ops.tensorSplit(x, 3))).toEqual([3, 2, 2]);
    expect(sizes(ops.tensorSplit(x, [2, 2, 9]))).toEqual([2, 0, 5, 0]);
    expect(sizes(ops.tensorSplit(x, [-2]))).toEqual([5, 2]);
    expect(() => ops.split(x, [3, 3])).toThrow(/sum exactly to 7/);
  });

  it('repeat tiles like numpy.tile and repeat_interleave repeats each element', async () => {
    const x = ops.fromData([1, 2, 3], { device });
    expect(Array.from(await ops.repeat(x, [2, 2]).data())).toEqual([
      1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3,
    ]);
    expect(Array.from(await ops.repeatInterleave(x, 2).data())).toEqual([1, 1, 2, 2, 3, 3]);
    expect(ops.repeat(x, [2, 1, 1]).shape).toEqual([2, 1, 3]);
  });
});
