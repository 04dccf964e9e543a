/**
 * Edge cases of the losses and helpers (ops/losses.ts, ops/nn-extras.ts) on every test device,
 * with PyTorch 1.13's numbers: a 1-D input with a 0-d label, every target ignored (NaN, as
 * PyTorch), BCE at exactly 0 and 1 (logs clamped at -100, finite gradients), KL with zero targets,
 * one_hot's class count and range checks. The options' values and gradients in general are
 * compared with real PyTorch in api/python/torch-losses.test.ts.
 */
import { describe, expect, it } from 'vitest';
import * as ops from '.';
import { fromHost } from './creation';
import type { Tensor } from '../tensor';
import { testDevices } from '../testing/devices';
import { expectClose, intTensorOf } from '../testing/harness';

const devices = await testDevices();

describe.each(devices.map((d) => [d.name, d] as const))('losses on %s', (_, device) => {
  const floats = (values: number[], shape: number[], requiresGrad = false): Tensor =>
    fromHost(Float32Array.from(values), shape, { device, requiresGrad });

  it('cross-entropy of a 1-D input against a 0-d label, with its gradient', async () => {
    const x = floats([0.5, -1, 2], [3], true);
    const loss = ops.crossEntropyLoss(x, intTensorOf([2], [], device));
    expect(loss.shape).toEqual([]);
    loss.backward();
    expectClose(await loss.data(), [0.241311326622963], 'loss', 1e-5);
    expectClose(
      await (x.grad as Tensor).data(),
      [0.175290390849113, 0.0391125716269016, -0.214402973651886],
      'gradient',
      1e-5,
      1e-7,
    );
  });

  it('the fused kernel skips label -100 (the default ignore_index): loss 0, gradient 0', async () => {
    const values = [0.5, -1, 2, 3, 0, -2, 1, 1, 0.25];
    const x = floats(values, [3, 3], true);
    const labels = intTensorOf([0, -100, 2], [3], device);
    const rowLoss = (r: number, label: number) => {
      const row = values.slice(3 * r, 3 * r + 3);
      return Math.log(row.reduce((s, v) => s + Math.exp(v), 0)) - row[label];
    };
    const none = await ops.crossEntropyLoss(x, labels, { reduction: 'none' }).data();
    expectClose(none, [rowLoss(0, 0), 0, rowLoss(2, 2)], 'none', 1e-5);
    const loss = ops.crossEntropyLoss(x, labels);
    loss.backward();
    expectClose(await loss.data(), [(rowLoss(0, 0) + rowLoss(2, 2)) / 2], 'mean', 1e-5);
    expect(Array.from(await (x.grad as Tensor).data()).slice(3, 6)).toEqual([0, 0, 0]);
  });

  it('a mean over no kept targets is NaN, as PyTorch', async () => {
    const loss = ops.crossEntropyLoss(
      floats([0, 0, 0, 0, 0, 0], [2, 3]),
      intTensorOf([-100, -100], [2], device),
    );
    expect(Number.isNaN((await loss.data())[0])).toBe(true);
  });

  it('binary cross-entropy at exactly 0 and 1: logs clamped at -100, gradients finite', async () => {
    const p = floats([0, 1, 0.5], [3], true);
    const loss = ops.binaryCrossEntropy(p, floats([1, 0, 1], [3]), null, 'sum');
    loss.backward();
    expectClose(await loss.data(), [200.693145751953], 'loss', 1e-6);
    expectClose(await (p.grad as Tensor).data(), [-1e12, 1e12, -2], 'gradient', 1e-5);
  });

  it('kl_div treats zero targets as contributing 0 (xlogy)', async () => {
    const loss = ops.klDiv(floats([-1, -2], [2]), floats([0, 0.5], [2]), 'sum');
    expectClose(await loss.data(), [0.6534264087677], 'loss', 1e-6);
  });

  it('one_hot: int32 rows, the class count given or (where readable) inferred', async () => {
    const labels = intTensorOf([0, 2, 1], [3], device);
    const hot = ops.oneHot(labels, 4);
    expect(hot.dtype).toBe('int32');
    expect(Array.from(await hot.data())).toEqual([1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0]);
    if (device.kind === 'cpu') expect(ops.oneHot(labels).shape).toEqual([3, 3]);
    else expect(() => ops.oneHot(labels)).toThrow(/num_classes must be given/);
    expect(() => ops.oneHot(floats([0, 1], [2]), 2)).toThrow(/only applicable to index tensors/);
  });

  it.runIf(device.kind === 'cpu')('names a label out of range', () => {
    const logits = floats([0, 0, 0, 0, 0, 0], [2, 3]);
    expect(() => ops.crossEntropyLoss(logits, intTensorOf([1, 3], [2], device))).toThrow(
      /cross_entropy: label 3 at position 1 is out of range for 3 classes/,
    );
    expect(() => ops.nllLoss(logits, intTensorOf([1], [1], device))).toThrow(
      /nll_loss: expected target of shape \[2\]/,
    );
    expect(() => ops.crossEntropyLoss(logits, intTensorOf([1, 2], [2, 1], device))).toThrow(
      /got \[2, 1\]; use target.squeeze\(1\)/,
    );
  });
});
