import { describe, expect, it } from 'vitest';
import { formatTensor, formatValues } from './format';
import { cpu } from './devices/registry';
import * as ops from './ops';

const f32 = (shape: number[], values: number[], extra: object = {}, options = {}): string =>
  formatValues(
    { shape, dtype: 'float32', device: 'cpu', ...extra },
    Float32Array.from(values),
    options,
  );

describe('formatting like PyTorch', () => {
  it('prints 4 decimals, aligned, with rows on their own lines', () => {
    expect(f32([2, 2], [0.1234, 0.5678, 1.5, 2.25])).toBe(
      'tensor([[0.1234, 0.5678],\n        [1.5000, 2.2500]])',
    );
    expect(f32([2], [-1.5, 2])).toBe('tensor([-1.5000,  2.0000])');
  });

  it('prints whole numbers with a trailing point and 0-d tensors bare', () => {
    expect(f32([3], [1, 2, 3])).toBe('tensor([1., 2., 3.])');
    expect(f32([], [3.5])).toBe('tensor(3.5000)');
  });

  it('switches to scientific notation for wide ranges', () => {
    expect(f32([2], [0.00001, 1])).toBe('tensor([1.0000e-05, 1.0000e+00])');
  });

  it('separates blocks of 3-D tensors with a blank line', () => {
    expect(f32([2, 2, 2], [1, 2, 3, 4, 5, 6, 7, 8])).toBe(
      'tensor([[[1., 2.],\n         [3., 4.]],\n\n        [[5., 6.],\n         [7., 8.]]])',
    );
  });

  it('shows device, non-default dtype, and grad information', () => {
    expect(f32([2], [1, 2], { device: 'gpu:0' })).toBe("tensor([1., 2.], device='gpu:0')");
    expect(
      formatValues({ shape: [3], dtype: 'int32', device: 'cpu' }, Int32Array.of(1, 2, 3)),
    ).toBe('tensor([1, 2, 3], dtype=torch.int32)');
    expect(f32([2], [1, 2], { requiresGrad: true })).toBe('tensor([1., 2.], requires_grad=True)');
    expect(f32([], [3], { gradFn: 'SumBackward0' })).toBe('tensor(3., grad_fn=<SumBackward0>)');
  });

  it('summarises large tensors with their edges', () => {
    const values = Array.from({ length: 2000 }, (_, i) => i);
    const text = formatValues(
      { shape: [2000], dtype: 'int32', device: 'cpu' },
      Int32Array.from(values),
    );
    expect(text).toBe('tensor([   0,    1,    2,  ..., 1997, 1998, 1999], dtype=torch.int32)');
  });

  it('adds a summary line on request', () => {
    expect(f32([1, 2], [1, 2], {}, { summary: true })).toBe(
      'tensor([[1., 2.]])\nshape: [1, 2], dtype: float32, device: cpu',
    );
  });
});

describe('formatting like TensorFlow', () => {
  it('prints numpy-style values with shape and dtype', () => {
    expect(f32([2, 2], [1, 2, 3, 4], {}, { style: 'tf' })).toBe(
      'tf.Tensor(\n[[1. 2.]\n [3. 4.]], shape=(2, 2), dtype=float32)',
    );
    expect(f32([2], [1.5, 2], {}, { style: 'tf' })).toBe(
      'tf.Tensor([1.5 2. ], shape=(2,), dtype=float32)',
    );
    expect(
      formatValues({ shape: [3], dtype: 'int32', device: 'cpu' }, Int32Array.of(1, 2, 3), {
        style: 'tf',
      }),
    ).toBe('tf.Tensor([1 2 3], shape=(3,), dtype=int32)');
  });
});

describe('formatTensor', () => {
  it('reads the values and formats them', async () => {
    const t = ops.fromData(
      [
        [1, 2],
        [3, 4],
      ],
      { device: cpu() },
    );
    expect(await formatTensor(t)).toBe('tensor([[1., 2.],\n        [3., 4.]])');
    const strided = ops.transpose(t, 0, 1);
    expect(await formatTensor(strided)).toBe('tensor([[1., 3.],\n        [2., 4.]])');
  });
});
