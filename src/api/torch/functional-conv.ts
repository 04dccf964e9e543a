/**
 * F's convolution forms with PyTorch's signatures: conv1d/conv2d (stride, padding, dilation,
 * groups), conv_transpose1d/conv_transpose2d (and output_padding), unfold and fold.
 */
import { ops, Tensor } from '../../engine';
import { asInt, asPair, bindArgs, tensorArg, optionalTensorArg } from '../args';

const pair = (value: unknown, what: string, fallback: number): [number, number] =>
  value === undefined || value === null ? [fallback, fallback] : asPair(value, what);

const int = (value: unknown, what: string, fallback: number): number =>
  value === undefined || value === null
    ? fallback
    : asInt(Array.isArray(value) ? value[0] : value, what);

const CONV = ['input', 'weight', 'bias', 'stride', 'padding', 'dilation', 'groups'];
const CONV_T = [
  'input',
  'weight',
  'bias',
  'stride',
  'padding',
  'outputPadding',
  'groups',
  'dilation',
];
const WINDOWS = ['kernelSize', 'dilation', 'padding', 'stride'];

export const convFunctional = {
  conv2d(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'conv2d', params: CONV }, args);
    const p = a.padding;
    return ops.conv2d(
      tensorArg(a.input, 'conv2d: input'),
      tensorArg(a.weight, 'conv2d: weight'),
      optionalTensorArg(a.bias, 'conv2d: bias'),
      {
        stride: pair(a.stride, 'conv2d: stride', 1),
        padding: p === 'same' || p === 'valid' ? p : pair(p, 'conv2d: padding', 0),
        dilation: pair(a.dilation, 'conv2d: dilation', 1),
        groups: int(a.groups, 'conv2d: groups', 1),
      },
    );
  },
  conv1d(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'conv1d', params: CONV }, args);
    const p = a.padding;
    return ops.conv1d(
      tensorArg(a.input, 'conv1d: input'),
      tensorArg(a.weight, 'conv1d: weight'),
      optionalTensorArg(a.bias, 'conv1d: bias'),
      {
        stride: int(a.stride, 'conv1d: stride', 1),
        padding: p === 'same' || p === 'valid' ? p : int(p, 'conv1d: padding', 0),
        dilation: int(a.dilation, 'conv1d: dilation', 1),
        groups: int(a.groups, 'conv1d: groups', 1),
      },
    );
  },
  convTranspose2d(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'conv_transpose2d', params: CONV_T }, args);
    const what = (s: string) => `conv_transpose2d: ${s}`;
    return ops.convTranspose2d(
      tensorArg(a.input, what('input')),
      tensorArg(a.weight, what('weight')),
      optionalTensorArg(a.bias, what('bias')),
      {
        stride: pair(a.stride, what('stride'), 1),
        padding: pair(a.padding, what('padding'), 0),
        outputPadding: pair(a.outputPadding, what('output_padding'), 0),
        groups: int(a.groups, what('groups'), 1),
        dilation: pair(a.dilation, what('dilation'), 1),
      },
    );
  },
  convTranspose1d(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'conv_transpose1d', params: CONV_T }, args);
    const what = (s: string) => `conv_transpose1d: ${s}`;
    return ops.convTranspose1d(
      tensorArg(a.input, what('input')),
      tensorArg(a.weight, what('weight')),
      optionalTensorArg(a.bias, what('bias')),
      {
        stride: int(a.stride, what('stride'), 1),
        padding: int(a.padding, what('padding'), 0),
        outputPadding: int(a.outputPadding, what('output_padding'), 0),
        groups: int(a.groups, what('groups'), 1),
        dilation: int(a.dilation, what('dilation'), 1),
      },
    );
  },
  unfold(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'unfold', params: ['input', ...WINDOWS] }, args);
    return ops.unfoldWindows(
      tensorArg(a.input, 'unfold: input'),
      asPair(a.kernelSize, 'unfold: kernel_size'),
      {
        dilation: pair(a.dilation, 'unfold: dilation', 1),
        padding: pair(a.padding, 'unfold: padding', 0),
        stride: pair(a.stride, 'unfold: stride', 1),
      },
    );
  },
  fold(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'fold', params: ['input', 'outputSize', ...WINDOWS] }, args);
    return ops.foldWindows(
      tensorArg(a.input, 'fold: input'),
      asPair(a.outputSize, 'fold: output_size'),
      asPair(a.kernelSize, 'fold: kernel_size'),
      {
        dilation: pair(a.dilation, 'fold: dilation', 1),
        padding: pair(a.padding, 'fold: padding', 0),
        stride: pair(a.stride, 'fold: stride', 1),
      },
    );
  },
};
