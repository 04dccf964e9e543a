/**
 * MultiHeadAttention from TypeScript: the call forms (key positional or in the options, the
 * scores pair), the Keras mask of the query passed on, and the functional API's symbolic call.
 */
import { describe, expect, it } from 'vitest';
import { cpu, manualSeed, ops, type Tensor } from '../../../../engine';
import { rng } from '../../../../engine/testing/harness';
import { Model } from '../models/model';
import '../models/functional'; // registers Model(inputs, outputs)
import { Input } from './input-layer';
import { setKerasMask, kerasMask } from './masking';
import { MultiHeadAttention } from './multi-head-attention';

const device = cpu();
const random = rng(11);
const input = (shape: number[]): Tensor =>
  ops.fromHost(
    Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => random() * 2 - 1),
    shape,
    { device },
  );

describe('MultiHeadAttention (TypeScript)', () => {
  it('takes the key positionally or by name, and returns [output, scores] when asked', async () => {
    const mha = new MultiHeadAttention(2, 3, { valueDim: 4 });
    const [q, v, k] = [input([2, 3, 5]), input([2, 4, 6]), input([2, 4, 2])];
    const a = mha(q, v, k);
    const b = mha(q, v, { key: k });
    expect(a.shape).toEqual([2, 3, 5]);
    expect(Array.from(await a.data())).toEqual(Array.from(await b.data()));
    const [out, scores] = mha(q, v, { key: k, returnAttentionScores: true });
    expect(out.shape).toEqual([2, 3, 5]);
    expect(scores.shape).toEqual([2, 2, 3, 4]);
    // each query's probabilities over the keys sum to 1
    const sums = await ops.sum(scores, -1).data();
    sums.forEach((s) => expect(s).toBeCloseTo(1, 5));
  });

  it("masks the keys the value's Keras mask leaves out and passes the query's mask on", async () => {
    const mha = new MultiHeadAttention(1, 2);
    const [q, v] = [input([1, 2, 3]), input([1, 3, 3])];
    const qMask = ops.fromHost(Int32Array.from([1, 0]), [1, 2], { device });
    setKerasMask(q, qMask);
    setKerasMask(v, ops.fromHost(Int32Array.from([1, 1, 0]), [1, 3], { device }));
    const [out, scores] = mha(q, v, { returnAttentionScores: true });
    expect(kerasMask(out)).toBe(qMask);
    const p = await scores.data();
    // query 0 (kept): the third key gets nothing; query 1 (masked out): every key masked, uniform
    expect(p[2]).toBe(0);
    expect([p[3], p[4], p[5]].map((x) => x.toFixed(5))).toEqual(['0.33333', '0.33333', '0.33333']);
  });

  it('drops attention probabilities only when training, and returns the scores before dropout', async () => {
    manualSeed(5);
    const mha = new MultiHeadAttention(2, 4, { dropout: 0.5 });
    const x = input([2, 5, 6]);
    const [inference] = mha(x, x, { returnAttentionScores: true });
    const again = mha(x, x);
    expect(Array.from(await again.data())).toEqual(Array.from(await inference.data()));
    const [trained, scores] = mha(x, x, { returnAttentionScores: true, training: true });
    expect(Array.from(await trained.data())).not.toEqual(Array.from(await inference.data()));
    const sums = await ops.sum(scores, -1).data();
    sums.forEach((s) => expect(s).toBeCloseTo(1, 5));
  });

  it('is called on KerasTensors in a functional model', async () => {
    const inputs = Input({ shape: [4, 6] });
    const mha = new MultiHeadAttention(2, 3);
    const outputs = mha(inputs, inputs, { useCausalMask: true });
    expect(outputs.shape).toEqual([null, 4, 6]);
    const model = new Model(inputs, outputs);
    expect(model.countParams()).toBe(3 * (6 * 2 * 3 + 6) + 2 * 3 * 6 + 6);
    const x = input([2, 4, 6]);
    const direct = await mha(x, x, { useCausalMask: true }).data();
    const viaModel = await (model(x) as Tensor).data();
    expect(Array.from(viaModel)).toEqual(Array.from(direct));
  });
});
