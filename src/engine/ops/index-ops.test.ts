/**
 * gather, scatter_add, cumsum/cumprod, sort/topk, flip and roll on every test device against
 * float64 references (gradients by finite differences of the reference): dims not last, index
 * tensors smaller than the input, repeated indices (their gradients add), rows of odd lengths,
 * scans in both kernel modes (short rows: a loop per row; long rows: a workgroup per row) and
 * sorts in both (rows up to 1024 in shared memory; longer rows one dispatch per network step).
 */
import { describe, expect, it } from 'vitest';
import type { Tensor } from '../tensor';
import { testDevices } from '../testing/devices';
import { checkOp, intTensorOf, rng } from '../testing/harness';
import { ravel, size, unravel, type Ref } from '../testing/reference';
import { flip, gather, roll, scatterAdd } from './index-ops';
import { cumprod, cumsum } from './scan';
import { argsort, sort, topk } from './sort';

const devices = await testDevices();

/** Deterministic int indices in [0, limit) for a shape. */
function indices(shape: number[], limit: number, seed: number): number[] {
  const random = rng(seed);
  return Array.from({ length: size(shape) }, () => Math.floor(random() * limit));
}

function gatherRef(x: Ref, dim: number, index: number[], shape: number[]): Ref {
  const data = new Float64Array(size(shape));
  for (let i = 0; i < data.length; i++) {
    const at = unravel(i, shape);
    at[dim] = index[i];
    data[i] = x.data[ravel(at, x.shape)];
  }
  return { shape, data };
}

function scatterAddRef(x: Ref, dim: number, index: number[], shape: number[], src: Ref): Ref {
  const data = Float64Array.from(x.data);
  for (let i = 0; i < size(shape); i++) {
    const from = unravel(i, shape);
    const to = [...from];
    to[dim] = index[i];
    data[ravel(to, x.shape)] += src.data[ravel(from, src.shape)];
  }
  return { shape: x.shape, data };
}

/** Applies `fn` to every line of x along dim (a row of values in, a row of values out). */
function alongRef(x: Ref, dim: number, fn: (row: number[]) => number[]): Ref {
  const n = x.shape[dim];
  const outLen = fn(new Array<number>(n).fill(0)).length;
  const shape = [...x.shape];
  shape[dim] = outLen;
  const data = new Float64Array(size(shape));
  const lineShape = [...x.shape];
  lineShape[dim] = 1;
  for (let l = 0; l < size(lineShape); l++) {
    const at = unravel(l, lineShape);
    const row = Array.from({ length: n }, (_, k) => {
      at[dim] = k;
      return x.data[ravel(at, x.shape)];
    });
    fn(row).forEach((v, k) => {
      at[dim] = k;
      data[ravel(at, shape)] = v;
    });
  }
  return { shape, data };
}

const running = (row: number[], prod: boolean): number[] => {
  let acc = prod ? 1 : 0;
  return row.map((v) => (acc = prod ? acc * v : acc + v));
};
const sorted = (row: number[], descending: boolean): number[] =>
  [...row].sort((a, b) => (descending ? b - a : a - b));

describe.each(devices.map((d) => [d.name, d] as const))('index ops on %s', (_, device) => {
  it('gather picks along a dim (index smaller than the input, repeats) and scatters back', async () => {
    const shape = [2, 3, 4];
    const index = indices(shape, 5, 1);
    await checkOp(
      device,
      {
        inputs: [{ shape: [3, 5, 4] }],
        engine: ([x]) => gather(x, 1, intTensorOf(index, shape, device)),
        reference: ([x]) => gatherRef(x, 1, index, shape),
      },
      'gather dim 1',
    );
    const last = indices([3, 7], 6, 2);
    await checkOp(
      device,
      {
        inputs: [{ shape: [3, 6] }],
        engine: ([x]) => gather(x, -1, intTensorOf(last, [3, 7], device)),
        reference: ([x]) => gatherRef(x, 1, last, [3, 7]),
      },
      'gather last dim',
    );
  });

  it('scatter_add adds src at the indices along a dim, into self', async () => {
    const shape = [2, 3];
    const index = indices(shape, 4, 3);
    await checkOp(
      device,
      {
        inputs: [{ shape: [4, 3] }, { shape: [3, 3] }],
        engine: ([x, src]) => scatterAdd(x, 0, intTensorOf(index, shape, device), src),
        reference: ([x, src]) => scatterAddRef(x, 0, index, shape, src),
      },
      'scatter_add dim 0',
    );
    const wide = indices([2, 9], 5, 4);
    await checkOp(
      device,
      {
        inputs: [{ shape: [3, 5] }, { shape: [2, 9] }],
        engine: ([x, src]) => scatterAdd(x, 1, intTensorOf(wide, [2, 9], device), src),
        reference: ([x, src]) => scatterAddRef(x, 1, wide, [2, 9], src),
      },
      'scatter_add dim 1, index smaller than self',
    );
  });

  it('cumsum and cumprod along short and long rows, dim not last', async () => {
    for (const [shape, dim] of [
      [[2, 5], -1],
      [[70, 3], 0],
      [[3, 130, 2], 1],
    ] as const) {
      await checkOp(
        device,
        {
          inputs: [{ shape: [...shape] }],
          engine: ([x]) => cumsum(x, dim),
          reference: ([x]) =>
            alongRef(x, (dim + shape.length) % shape.length, (r) => running(r, false)),
        },
        `cumsum ${shape} dim ${dim}`,
      );
    }
    await checkOp(
      device,
      {
        inputs: [{ shape: [3, 6], domain: 'positive' }],
        engine: ([x]) => cumprod(x, 1),
        reference: ([x]) => alongRef(x, 1, (r) => running(r, true)),
      },
      'cumprod',
    );
    await checkOp(
      device,
      {
        inputs: [{ shape: [2, 80] }],
        engine: ([x]) => cumprod(x, 1),
        reference: ([x]) => alongRef(x, 1, (r) => running(r, true)),
        gradRtol: 1e-2,
      },
      'cumprod long rows',
    );
  });

  it('sort, argsort and topk: values, indices and gradients, both directions, odd lengths', async () => {
    for (const [shape, dim, descending] of [
      [[3, 37], -1, false],
      [[37, 2], 0, true],
      [[2, 1030], 1, false],
      [[1, 1100], 1, true],
    ] as const) {
      const d = (dim + shape.length) % shape.length;
      await checkOp(
        device,
        {
          // Finite differences would reorder a long row's close values: its gradient is checked
          // on the short rows only.
          inputs: [{ shape: [...shape], grad: shape[d] < 1024 }],
          engine: ([x]) => sort(x, dim, descending)[0],
          reference: ([x]) => alongRef(x, d, (r) => sorted(r, descending)),
        },
        `sort ${shape} dim ${dim}${descending ? ' descending' : ''}`,
      );
    }
    // Indices: distinct values, so the order is unique; checked against the values they pick.
    const x = intTensorOf(indices([4, 9], 1000, 5), [4, 9], device).float();
    const [values, order] = sort(x, 1, true);
    const picked = gather(x, 1, order);
    expect(Array.from(await picked.data())).toEqual(Array.from(await values.data()));
    expect(Array.from(await argsort(x, 1, true).data())).toEqual(Array.from(await order.data()));
    await checkOp(
      device,
      {
        inputs: [{ shape: [5, 11] }],
        engine: ([t]) => topk(t, 3, 1)[0],
        reference: ([t]) => alongRef(t, 1, (r) => sorted(r, true).slice(0, 3)),
      },
      'topk',
    );
    await checkOp(
      device,
      {
        inputs: [{ shape: [6, 4] }],
        engine: ([t]) => topk(t, 2, 0, false)[0],
        reference: ([t]) => alongRef(t, 0, (r) => sorted(r, false).slice(0, 2)),
      },
      'topk smallest, dim 0',
    );
  });

  it('sort puts NaN last (first, descending) and keeps ties in order', async () => {
    const x = intTensorOf([3, 1, 3, 0, 1], [5], device).float();
    const nan = x.div(x.sub(3)).mul(0); // NaN at the 3s (0 / 0), 0 elsewhere … and -0
    const [v, i] = sort(nan.add(x), 0);
    expect(Array.from(await i.data())).toEqual([3, 1, 4, 0, 2]);
    expect(Array.from(await v.data()).slice(0, 3)).toEqual([0, 1, 1]);
    const [, j] = sort(nan.add(x), 0, true);
    expect(Array.from(await j.data())).toEqual([0, 2, 1, 4, 3]);
  });

  it('int32 tensors, empty and one-long rows', async () => {
    const ints = intTensorOf([5, -2, 7, 0, 3, -9], [2, 3], device);
    const [v, i] = sort(ints, 1, true);
    expect(v.dtype).toBe('int32');
    expect(Array.from(await v.data())).toEqual([7, 5, -2, 3, 0, -9]);
    expect(Array.from(await i.data())).toEqual([2, 0, 1, 1, 0, 2]);
    expect(Array.from(await cumsum(ints, 1).data())).toEqual([5, 3, 10, 0, 3, -6]);
    expect(Array.from(await cumprod(ints, 0).data())).toEqual([5, -2, 7, 0, -6, -63]);
    const at = intTensorOf([2, 2, 0, 1, 1, 1], [2, 3], device);
    // Row 0 adds 5 and -2 at column 2 and 7 at column 0; row 1 adds 0 + 3 - 9 at column 1.
    expect(Array.from(await scatterAdd(ints, 1, at, ints).data())).toEqual([12, -2, 10, 0, -3, -9]);
    expect(Array.from(await gather(ints, 1, at).data())).toEqual([7, 7, 5, 3, 3, 3]);
    // Empty rows, rows of one, and an empty index.
    const empty = intTensorOf([], [3, 0], device).float();
    expect(sort(empty, 1)[0].shape).toEqual([3, 0]);
    expect(cumsum(empty, 1).shape).toEqual([3, 0]);
    const column = intTensorOf([4, 1, 3], [3, 1], device).float();
    expect(Array.from(await sort(column, 1)[1].data())).toEqual([0, 0, 0]);
    expect(Array.from(await cumsum(column, 1).data())).toEqual([4, 1, 3]);
    expect(gather(column, 1, intTensorOf([], [3, 0], device)).shape).toEqual([3, 0]);
  });

  it('flip and roll reorder along dims, with gradients', async () => {
    const cases: [string, (t: Tensor) => Tensor, (r: Ref) => Ref][] = [
      [
        'flip [0, 2]',
        (t) => flip(t, [0, 2]),
        (r) =>
          alongRef(
            alongRef(r, 0, (v) => v.reverse()),
            2,
            (v) => v.reverse(),
          ),
      ],
      [
        'roll 2 dim 1',
        (t) => roll(t, [2], [1]),
        (r) => alongRef(r, 1, (v) => [...v.slice(-2), ...v.slice(0, -2)]),
      ],
      [
        'roll -1 dim 2',
        (t) => roll(t, [-1], [2]),
        (r) => alongRef(r, 2, (v) => [...v.slice(1), v[0]]),
      ],
    ];
    for (const [name, engine, reference] of cases) {
      await checkOp(
        device,
        {
          inputs: [{ shape: [2, 3, 4] }],
          engine: ([t]) => engine(t),
          reference: ([r]) => reference(r),
        },
        name,
      );
    }
    await checkOp(
      device,
      {
        inputs: [{ shape: [2, 3] }],
        engine: ([t]) => roll(t, [4], []),
        reference: ([r]) => ({
          shape: r.shape,
          data: Float64Array.from([...r.data.slice(2), ...r.data.slice(0, 2)]),
        }),
      },
      'roll flattened',
    );
  });
});
