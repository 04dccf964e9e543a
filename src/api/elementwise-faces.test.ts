/**
 * Each face has every element-wise table op its row names (torch.*, F.*, nn modules, Keras
 * activations, tf.*, tf.math, tf.nn), and TensorFlow's and Keras's softplus give the documented
 * log(1 + eˣ) and its gradient, against float64 on random inputs.
 */
import { describe, expect, it } from 'vitest';
import { ops, opsWithFace, Tensor, unaryRow, type UnaryOp } from '../engine';
import { rng } from '../engine/testing/harness';
import { getActivation } from './tf/keras/activations';
import { nn, tf, torch } from './index';

const random = rng(77);
const values = Array.from({ length: 24 }, () => (random() - 0.5) * 12);
const softplus = (v: number) => Math.log1p(Math.exp(v));
const sigmoid = (v: number) => 1 / (1 + Math.exp(-v));

async function valuesOf(t: unknown): Promise<number[]> {
  return Array.from(await (t as Tensor).data());
}

function expectClose(ours: number[], want: number[], rel = 2e-6): void {
  ours.forEach((v, i) =>
    expect(Math.abs(v - want[i])).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(want[i]))),
  );
}

describe('the element-wise table in every face', () => {
  it('each row is in the faces it names, under its name there', () => {
    const unaryFaces = (face: 'tensor' | 'functional' | 'keras') => opsWithFace(face).unary;
    const torchFns = torch as unknown as Record<string, unknown>;
    for (const op of [...unaryFaces('tensor'), ...opsWithFace('tensor').binary]) {
      expect(typeof torchFns[op], `torch.${op}`).toBe('function');
      expect(typeof (Tensor.prototype as unknown as Record<string, unknown>)[op]).toBe('function');
    }
    const functional = nn.functional as unknown as Record<string, unknown>;
    for (const op of unaryFaces('functional'))
      expect(typeof functional[op], `F.${op}`).toBe('function');
    for (const op of opsWithFace('module').unary) {
      const name = unaryRow(op).faces?.module as string;
      const cls = (nn as unknown as Record<string, new () => unknown>)[name];
      expect(new cls(), `nn.${name}`).toBeInstanceOf(nn.Module);
    }
    for (const op of unaryFaces('keras')) expect(getActivation(op, 'test').name).toBe(op);
    const spaces = tf as unknown as Record<string, Record<string, unknown>>;
    for (const op of opsWithFace('tf').unary) {
      const faces = unaryRow(op).faces;
      for (const space of faces?.tf ?? []) {
        const where = space === 'tf' ? spaces : spaces[space];
        expect(typeof where[faces?.tfName ?? op], `tf.${space}.${op}`).toBe('function');
      }
    }
  });

  it('tf.math.softplus, tf.nn.softplus and Keras activation softplus: values and gradient', async () => {
    const x = tf.constant(values);
    const want = values.map(softplus);
    expectClose(
      await valuesOf((tf.math as unknown as Record<string, (v: unknown) => Tensor>).softplus(x)),
      want,
    );
    expectClose(
      await valuesOf((tf.nn as unknown as Record<string, (v: unknown) => Tensor>).softplus(values)),
      want,
    );
    expectClose(await valuesOf(getActivation('softplus', 'test').fn(x)), want);
    // The gradient is the logistic sigmoid.
    const v = torch.tensor(values, { requiresGrad: true });
    ops.sum(getActivation('softplus', 'test').fn(v)).backward();
    expectClose(await valuesOf(v.grad), values.map(sigmoid));
  });

  it('tf keeps TensorFlow names where they differ from the engine’s (tf.negative)', async () => {
    const negative = (tf as unknown as Record<string, (v: unknown) => Tensor>).negative;
    expect(await valuesOf(negative(values.slice(0, 3)))).toEqual(
      Array.from(new Float32Array(values.slice(0, 3).map((v) => -v))),
    );
    expect((tf as unknown as Record<string, unknown>).neg).toBeUndefined();
  });

  it('F.softplus takes PyTorch’s beta and threshold', async () => {
    const F = nn.functional as unknown as Record<string, (...a: unknown[]) => Tensor>;
    const x = torch.tensor(values);
    const beta = 2;
    const threshold = 3;
    const want = values.map((v) => (v * beta > threshold ? v : softplus(v * beta) / beta));
    expectClose(await valuesOf(F.softplus(x, beta, threshold)), want);
    expectClose(await valuesOf(F.softplus(x, { beta, threshold })), want);
    expect(() => F.softplus(x, 'two')).toThrow(/beta/);
    const op: UnaryOp = 'softplus';
    expect(unaryRow(op).args).toEqual({ beta: 1, threshold: 20 });
  });
});
