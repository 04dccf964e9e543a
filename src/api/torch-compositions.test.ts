/**
 * The compositions' TypeScript faces (torch.ts, Tensor methods): PyTorch's positional arguments or
 * one options object, arrays where Python has tuples. Values against PyTorch are checked from
 * Python (api/python/torch-functions.test.ts); this checks the calling convention.
 */
import { describe, expect, it } from 'vitest';
import { torch } from './torch';

describe('torch compositions from TypeScript', () => {
  it('eye, tril/triu with a diagonal, where with numbers, emptyLike', async () => {
    expect(await torch.eye(2, 3).tolist()).toEqual([
      [1, 0, 0],
      [0, 1, 0],
    ]);
    expect(torch.eye(2, { dtype: 'int32' }).dtype).toBe('int32');
    const ones = torch.ones(3, 3);
    expect(await torch.tril(ones, { diagonal: -1 }).tolist()).toEqual([
      [0, 0, 0],
      [1, 0, 0],
      [1, 1, 0],
    ]);
    expect(await ones.triu(1).sum().item()).toBe(3);
    const c = torch.tensor([1, 0, 1], { dtype: 'int32' });
    expect(await torch.where(c, torch.tensor([1, 2, 3]), -1).tolist()).toEqual([1, -1, 3]);
    expect([...torch.emptyLike(ones).shape]).toEqual([3, 3]);
  });

  it('split family returns arrays; einsum takes operands or a list', async () => {
    const x = torch.arange(6).float().reshape(2, 3);
    expect(
      torch.split(x, 2, { dim: 1 }).map((t: { shape: readonly number[] }) => [...t.shape]),
    ).toEqual([
      [2, 2],
      [2, 1],
    ]);
    expect(x.chunk(2).length).toBe(2);
    expect(torch.unbind(x, 1).length).toBe(3);
    expect(await x.repeat(1, 2).tolist()).toEqual([
      [0, 1, 2, 0, 1, 2],
      [3, 4, 5, 3, 4, 5],
    ]);
    const a = torch.einsum('ij,kj->ik', x, x);
    const b = torch.einsum('ij,kj->ik', [x, x]);
    expect(await a.tolist()).toEqual(await b.tolist());
    expect(await a.tolist()).toEqual([
      [5, 14],
      [14, 50],
    ]);
  });

  it('statistics take PyTorch arguments by position or by name', async () => {
    const x = torch.tensor([
      [1, 2, 3],
      [4, 6, 8],
    ]);
    expect(await x.var(1).tolist()).toEqual([1, 4]);
    expect(await x.var({ dim: 1, unbiased: false }).tolist()).toEqual(
      [2 / 3, 8 / 3].map(Math.fround),
    );
    expect(await x.std({ dim: 1, correction: 0, keepdim: true }).tolist()).toEqual(
      [[Math.sqrt(2 / 3)], [Math.sqrt(8 / 3)]].map((r) => r.map(Math.fround)),
    );
    expect(await x.norm(1).item()).toBe(24);
    expect(await torch.norm(x, Infinity, { dim: 1 }).tolist()).toEqual([3, 8]);
    expect(await torch.isclose(x, x.add(1e-6)).tolist()).toEqual([
      [1, 1, 1],
      [1, 1, 1],
    ]);
    expect(() => torch.tensor([1, 2], { dtype: 'int32' }).var()).toThrow(
      'std and var only support floating point and complex dtypes',
    );
  });
});
