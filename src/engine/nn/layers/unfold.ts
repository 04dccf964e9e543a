/** nn.Unfold and nn.Fold over ops/unfold-windows (sizes shown as given, as PyTorch prints them). */
import type { Pair } from '../../ops/conv';
import { foldWindows, unfoldWindows, type UnfoldOptions } from '../../ops/unfold-windows';
import type { Tensor } from '../../tensor';
import { bind, pyTuple, requireTensor, tupleArg } from '../layer-args';
import { libraryForward, Module } from '../module';

const WINDOWS = ['kernelSize', 'dilation', 'padding', 'stride'];

function given(value: unknown, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  return Array.isArray(value) ? pyTuple(value as number[]) : String(value);
}

/** The window arguments both share, bound from `a`, and their repr. */
function windows(a: Record<string, unknown>, name: string): [Pair, UnfoldOptions, string] {
  const pair = (key: string, fallback: number) =>
    tupleArg(a[key], 2, `${name}: ${key}`, [fallback, fallback]) as Pair;
  const kernel = tupleArg(a.kernelSize, 2, `${name}: kernelSize`) as Pair;
  const options = {
    dilation: pair('dilation', 1),
    padding: pair('padding', 0),
    stride: pair('stride', 1),
  };
  const shown =
    `kernel_size=${given(a.kernelSize, '')}, dilation=${given(a.dilation, '1')}, ` +
    `padding=${given(a.padding, '0')}, stride=${given(a.stride, '1')}`;
  return [kernel, options, shown];
}

/** nn.Unfold(kernel_size, dilation=1, padding=0, stride=1): [N, C, H, W] → [N, C·kH·kW, L]. */
export class Unfold extends Module {
  declare private readonly kernel: Pair;
  declare private readonly options: UnfoldOptions;
  declare private readonly shown: string;

  constructor(...args: unknown[]) {
    super();
    const [kernel, options, shown] = windows(
      bind({ name: 'Unfold', params: WINDOWS }, args),
      'Unfold',
    );
    Object.defineProperties(this, {
      kernel: { value: kernel, enumerable: false },
      options: { value: options, enumerable: false },
      shown: { value: shown, enumerable: false },
    });
  }

  override forward(input: Tensor): Tensor {
    return unfoldWindows(requireTensor(input, 'Unfold'), this.kernel, this.options);
  }

  override extraRepr(): string {
    return this.shown;
  }
}

/** nn.Fold(output_size, kernel_size, dilation=1, padding=0, stride=1): the adjoint of Unfold. */
export class Fold extends Module {
  declare private readonly outputSize: Pair;
  declare private readonly kernel: Pair;
  declare private readonly options: UnfoldOptions;
  declare private readonly shown: string;

  constructor(...args: unknown[]) {
    super();
    const a = bind({ name: 'Fold', params: ['outputSize', ...WINDOWS] }, args);
    const [kernel, options, shown] = windows(a, 'Fold');
    Object.defineProperties(this, {
      outputSize: { value: tupleArg(a.outputSize, 2, 'Fold: outputSize'), enumerable: false },
      kernel: { value: kernel, enumerable: false },
      options: { value: options, enumerable: false },
      shown: { value: `output_size=${given(a.outputSize, '')}, ${shown}`, enumerable: false },
    });
  }

  override forward(input: Tensor): Tensor {
    return foldWindows(requireTensor(input, 'Fold'), this.outputSize, this.kernel, this.options);
  }

  override extraRepr(): string {
    return this.shown;
  }
}

libraryForward(Unfold, Fold);
