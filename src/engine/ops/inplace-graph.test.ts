/**
 * In-place ops inside a recorded graph (inplace-graph.ts): the tensor takes the op's node, the
 * backward flows through it, values saved by the graph survive the update, and views keep the
 * copy path and its refusal.
 */
import { describe, expect, it } from 'vitest';
import * as ops from '.';
import { noGrad } from '../autograd';
import { testDevices } from '../testing/devices';

const devices = await testDevices();

const values = async (t: ops.Operand): Promise<number[]> =>
  Array.from(await (t as ReturnType<typeof ops.exp>).data());

describe.each(devices.map((d) => [d.name, d] as const))(
  'in place in a graph on %s',
  (_, device) => {
    const input = (xs: number[], grad = true) => {
      const t = ops.fromData(xs, { device });
      t.requiresGrad = grad;
      return t;
    };

    it('y.add_ then y.mul_ on an intermediate: values and gradient as recorded out of place', async () => {
      const x = input([1, -2, 3]);
      const y = x.mul(2);
      y.add_(1);
      y.mul_(3);
      expect(y.gradFn?.name).toBe('MulBackward0');
      expect(await values(y)).toEqual([9, -9, 21]);
      y.sum().backward();
      expect(await values(x.grad as ops.Operand)).toEqual([6, 6, 6]);
    });

    it('keeps the values the graph saved: exp saves its output, add_ moves y off it', async () => {
      const x = input([0, 1, -1]);
      const y = x.exp();
      y.add_(1);
      y.sum().backward();
      const grad = await values(x.grad as ops.Operand);
      [1, Math.E, 1 / Math.E].forEach((v, i) => expect(grad[i]).toBeCloseTo(v, 5));
    });

    it('a plain tensor updated with one that requires grad joins the graph', async () => {
      const w = input([0.5, 2]);
      const a = input([1, 1], false);
      a.mul_(w);
      expect(a.requiresGrad).toBe(true);
      a.sum().backward();
      expect(await values(w.grad as ops.Operand)).toEqual([1, 1]);
    });

    it('refuses a leaf that requires grad, and a tensor with a view, as before', () => {
      const w = input([1, 2]);
      expect(() => w.add_(1)).toThrow(/leaf Variable/);
      const y = input([1, 2, 3, 4]).mul(2);
      const view = y.reshape(2, 2);
      expect(() => y.add_(1)).toThrow(/recorded graph/);
      expect(view.shape).toEqual([2, 2]);
    });

    it('copy_ of a tensor that requires grad: the gradient flows to the source', async () => {
      const x = input([1, 2, 3]);
      const buffer = ops.zeros([2, 3], { device });
      buffer.copy_(x.mul(2));
      expect(buffer.gradFn).not.toBeNull();
      buffer.sum().backward();
      expect(await values(x.grad as ops.Operand)).toEqual([4, 4, 4]);
      expect(await values(buffer)).toEqual([2, 4, 6, 2, 4, 6]);
    });

    it('detach_ cuts the history in place; a view is refused', async () => {
      const x = input([1, 2]);
      const h = x.mul(3);
      h.detach_();
      expect([h.requiresGrad, h.isLeaf]).toEqual([false, true]);
      x.mul(h).sum().backward();
      expect(await values(x.grad as ops.Operand)).toEqual([3, 6]);
      const y = input([1, 2, 3, 4]).mul(2);
      const view = y.reshape(2, 2);
      expect(() => view.detach_()).toThrow(/Can't detach views in-place/);
    });

    it('outside a graph it writes into the same storage (views see it)', async () => {
      const y = input([1, 2, 3, 4], false);
      const view = y.reshape(2, 2);
      noGrad(() => y.add_(1));
      y.mul_(2);
      expect(await values(view)).toEqual([4, 6, 8, 10]);
    });
  },
);
