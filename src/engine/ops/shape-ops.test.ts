import { describe, expect, it } from 'vitest';
import * as ops from '.';
import { testDevices } from '../testing/devices';
import { checkOp, intTensorOf, randomRef, rng, tensorOf } from '../testing/harness';
import { ravel, size, unravel, type Ref } from '../testing/reference';

const devices = await testDevices();

/** Reference permutation: out[idx] = x[idx permuted back]. */
function permuteRef(x: Ref, perm: number[]): Ref {
  const shape = perm.map((d) => x.shape[d]);
  const data = new Float64Array(x.data.length);
  for (let i = 0; i < data.length; i++) {
    const idx = unravel(i, shape);
    const src = new Array<number>(perm.length);
    perm.forEach((d, k) => (src[d] = idx[k]));
    data[i] = x.data[ravel(src, x.shape)];
  }
  return { shape, data };
}

/** Reference of x[start:end:step] along dim. */
function sliceRef(x: Ref, dim: number, start: number, end: number, step: number): Ref {
  const shape = [...x.shape];
  shape[dim] = Math.ceil((end - start) / step);
  const data = new Float64Array(size(shape));
  for (let i = 0; i < data.length; i++) {
    const idx = unravel(i, shape);
    idx[dim] = start + idx[dim] * step;
    data[i] = x.data[ravel(idx, x.shape)];
  }
  return { shape, data };
}

function catRef(parts: Ref[], dim: number): Ref {
  const shape = [...parts[0].shape];
  shape[dim] = parts.reduce((n, p) => n + p.shape[dim], 0);
  const data = new Float64Array(size(shape));
  for (let i = 0; i < data.length; i++) {
    const idx = unravel(i, shape);
    let k = 0;
    while (idx[dim] >= parts[k].shape[dim]) idx[dim] -= parts[k++].shape[dim];
    data[i] = parts[k].data[ravel(idx, parts[k].shape)];
  }
  return { shape, data };
}

describe.each(devices.map((d) => [d.name, d] as const))('shape ops on %s', (_, device) => {
  it('reshape/view/flatten keep values in row-major order and pass gradients back', async () => {
    const same = (x: Ref, shape: number[]): Ref => ({ shape, data: x.data });
    await checkOp(
      device,
      {
        inputs: [{ shape: [2, 3, 4] }],
        engine: ([x]) => ops.reshape(x, [4, -1]),
        reference: ([x]) => same(x, [4, 6]),
      },
      'reshape',
    );
    await checkOp(
      device,
      {
        inputs: [{ shape: [2, 3, 4] }],
        engine: ([x]) => ops.view(x, [24]),
        reference: ([x]) => same(x, [24]),
      },
      'view',
    );
    await checkOp(
      device,
      {
        inputs: [{ shape: [2, 3, 4] }],
        engine: ([x]) => ops.flatten(x, 1),
        reference: ([x]) => same(x, [2, 12]),
      },
      'flatten',
    );
  });

  it('reshape of a transpose copies, view of it refuses like PyTorch', async () => {
    await checkOp(
      device,
      {
        inputs: [{ shape: [3, 5] }],
        engine: ([x]) => ops.reshape(ops.transpose(x, 0, 1), [15]),
        reference: ([x]) => ({ shape: [15], data: permuteRef(x, [1, 0]).data }),
      },
      'reshape of transpose',
    );
    const x = ops.zeros([3, 5], { device });
    expect(() => ops.view(ops.transpose(x, 0, 1), [15])).toThrow('Use .reshape(...) instead');
  });

  it.each([
    [
      [2, 3, 4],
      [2, 0, 1],
    ],
    [
      [1, 7, 3],
      [1, 2, 0],
    ],
    [
      [4, 5],
      [1, 0],
    ],
  ])('permute %j by %j', async (shape, perm) => {
    await checkOp(
      device,
      {
        inputs: [{ shape }],
        engine: ([x]) => ops.contiguous(ops.permute(x, perm)),
        reference: ([x]) => permuteRef(x, perm),
      },
      'permute',
    );
  });

  it('squeeze, unsqueeze and expand', async () => {
    await checkOp(
      device,
      {
        inputs: [{ shape: [3, 1, 4, 1] }],
        engine: ([x]) => ops.squeeze(x),
        reference: ([x]) => ({ shape: [3, 4], data: x.data }),
      },
      'squeeze all',
    );
    await checkOp(
      device,
      {
        inputs: [{ shape: [3, 1, 4] }],
        engine: ([x]) => ops.squeeze(x, 1),
        reference: ([x]) => ({ shape: [3, 4], data: x.data }),
      },
      'squeeze dim',
    );
    await checkOp(
      device,
      {
        inputs: [{ shape: [3, 4] }],
        engine: ([x]) => ops.unsqueeze(x, -1),
        reference: ([x]) => ({ shape: [3, 4, 1], data: x.data }),
      },
      'unsqueeze',
    );
    await checkOp(
      device,
      {
        inputs: [{ shape: [3, 1] }],
        engine: ([x]) => ops.expand(x, [2, 3, 5]),
        reference: ([x]) => {
          const data = new Float64Array(30);
          for (let i = 0; i < 30; i++) data[i] = x.data[unravel(i, [2, 3, 5])[1]];
          return { shape: [2, 3, 5], data };
        },
      },
      'expand',
    );
  });

  it.each([
    [[7], 0, 1, 6, 2],
    [[4, 9], 1, 2, 9, 3],
    [[5, 3], 0, 1, 4, 1],
    [[2, 33], -1, 0, 33, 4],
  ])('slice %j along %i from %i to %i step %i', async (shape, dim, start, end, step) => {
    const d = dim < 0 ? dim + shape.length : dim;
    await checkOp(
      device,
      {
        inputs: [{ shape }],
        engine: ([x]) => ops.slice(x, dim, start, end, step),
        reference: ([x]) => sliceRef(x, d, start, end, step),
      },
      'slice',
    );
  });

  it('slices with negative and out-of-range bounds like Python', async () => {
    const x = ops.arange(0, 10, 1, { device });
    expect(Array.from(await ops.slice(x, 0, -3, null).data())).toEqual([7, 8, 9]);
    expect(Array.from(await ops.slice(x, 0, 8, 100).data())).toEqual([8, 9]);
    expect(Array.from(await ops.slice(x, 0, 5, 2).data())).toEqual([]);
    expect(Array.from(await ops.narrow(x, 0, 2, 3).data())).toEqual([2, 3, 4]);
    expect(await ops.select(ops.reshape(x, [2, 5]), 1, -1).tolist()).toEqual([4, 9]);
  });

  it('select removes a dim and differentiates', async () => {
    await checkOp(
      device,
      {
        inputs: [{ shape: [3, 4, 2] }],
        engine: ([x]) => ops.select(x, 1, 2),
        reference: ([x]) => {
          const s = sliceRef(x, 1, 2, 3, 1);
          return { shape: [3, 2], data: s.data };
        },
      },
      'select',
    );
  });

  it.each([
    [
      [
        [2, 3],
        [4, 3],
      ],
      0,
    ],
    [
      [
        [2, 3],
        [2, 5],
        [2, 1],
      ],
      1,
    ],
    [
      [
        [1, 2, 3],
        [1, 2, 3],
      ],
      -1,
    ],
  ])('cat of %j along %i', async (shapes, dim) => {
    const d = dim < 0 ? dim + shapes[0].length : dim;
    await checkOp(
      device,
      {
        inputs: shapes.map((shape) => ({ shape })),
        engine: (xs) => ops.cat(xs, dim),
        reference: (rs) => catRef(rs, d),
      },
      'cat',
    );
  });

  it('stack joins along a new dim', async () => {
    await checkOp(
      device,
      {
        inputs: [{ shape: [2, 3] }, { shape: [2, 3] }],
        engine: (xs) => ops.stack(xs, 1),
        reference: ([a, b]) =>
          catRef(
            [
              { shape: [2, 1, 3], data: a.data },
              { shape: [2, 1, 3], data: b.data },
            ],
            1,
          ),
      },
      'stack',
    );
  });

  it('cat names the mismatching shapes', () => {
    const a = ops.zeros([2, 3], { device });
    const b = ops.zeros([2, 4], { device });
    expect(() => ops.cat([a, b], 0)).toThrow(
      'cat: sizes of tensors must match except in dimension 0',
    );
  });

  it('indexSelect picks rows (and columns) and scatters gradients back, with repeats', async () => {
    const index = [2, 0, 2, 1];
    const pick = (x: Ref, dim: number): Ref => {
      const shape = [...x.shape];
      shape[dim] = index.length;
      const data = new Float64Array(size(shape));
      for (let i = 0; i < data.length; i++) {
        const idx = unravel(i, shape);
        idx[dim] = index[idx[dim]];
        data[i] = x.data[ravel(idx, x.shape)];
      }
      return { shape, data };
    };
    const idx = intTensorOf(index, [4], device);
    await checkOp(
      device,
      {
        inputs: [{ shape: [3, 5] }],
        engine: ([x]) => ops.indexSelect(x, 0, idx),
        reference: ([x]) => pick(x, 0),
      },
      'indexSelect rows',
    );
    await checkOp(
      device,
      {
        inputs: [{ shape: [2, 3, 2] }],
        engine: ([x]) => ops.indexSelect(x, 1, idx),
        reference: ([x]) => pick(x, 1),
      },
      'indexSelect dim 1',
    );
  });

  it('clone copies and contiguous copies only when needed', async () => {
    const r = randomRef([3, 4], rng(3));
    const x = tensorOf(r, device);
    expect(ops.contiguous(x)).toBe(x);
    const c = ops.clone(x);
    expect(c).not.toBe(x);
    expect(Array.from(await c.data())).toEqual(Array.from(Float32Array.from(r.data)));
  });
});
