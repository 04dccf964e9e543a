import { describe, expect, it } from 'vitest';
import { asShape, bindArgs } from './args';

const conv = { name: 'nn.Conv2d', params: ['inChannels', 'outChannels', 'kernelSize', 'stride'] };

describe('the calling convention', () => {
  it('binds positional arguments in Python order', () => {
    expect(bindArgs(conv, [1, 32, 3])).toEqual({ inChannels: 1, outChannels: 32, kernelSize: 3 });
  });

  it('binds any parameter by name from one trailing options object', () => {
    expect(bindArgs(conv, [{ inChannels: 1, outChannels: 32, kernelSize: 3 }])).toEqual({
      inChannels: 1,
      outChannels: 32,
      kernelSize: 3,
    });
    expect(bindArgs(conv, [1, 32, { kernelSize: 3, stride: 2 }])).toEqual({
      inChannels: 1,
      outChannels: 32,
      kernelSize: 3,
      stride: 2,
    });
  });

  it('reports misuse with Python messages', () => {
    expect(() => bindArgs(conv, [1, 2, 3, 4, 5])).toThrow(
      'nn.Conv2d() takes 4 positional arguments but 5 were given',
    );
    expect(() => bindArgs(conv, [1, { inChannels: 2 }])).toThrow(
      "nn.Conv2d() got multiple values for argument 'inChannels'",
    );
    expect(() => bindArgs(conv, [{ kernel_size: 3 }])).toThrow(
      "nn.Conv2d() got an unexpected keyword argument 'kernel_size'",
    );
  });

  it('collects *args and accepts keyword-only parameters', () => {
    const rand = { name: 'torch.rand', params: [], rest: 'size', keywordOnly: ['device'] };
    expect(bindArgs(rand, [2, 3, { device: 'cpu' }])).toEqual({ size: [2, 3], device: 'cpu' });
    expect(asShape(bindArgs(rand, [[2, 3]]).size, 'size')).toEqual([2, 3]);
    expect(asShape(bindArgs(rand, [2, 3]).size, 'size')).toEqual([2, 3]);
    expect(asShape(bindArgs(rand, [{ size: [4] }]).size, 'size')).toEqual([4]);
  });

  it('treats a plain object as data when the parameter takes objects and the keys are not names', () => {
    const load = {
      name: 'loadStateDict',
      params: ['stateDict', 'strict'],
      objectParams: ['stateDict'],
    };
    expect(bindArgs(load, [{ 'fc.weight': 1 }])).toEqual({ stateDict: { 'fc.weight': 1 } });
    expect(bindArgs(load, [{ 'fc.weight': 1 }, { strict: false }])).toEqual({
      stateDict: { 'fc.weight': 1 },
      strict: false,
    });
  });

  it('ignores trailing undefined arguments', () => {
    expect(bindArgs(conv, [1, undefined, undefined])).toEqual({ inChannels: 1 });
  });
});
