/** F.pad and F.interpolate with PyTorch's signatures, over the engine's resample ops. */
import { ops, Tensor } from '../../engine';
import { bindArgs, boolArg, tensorArg } from '../args';

/** null/undefined → null; otherwise the value (a number or a list of numbers). */
function sizes(value: unknown, what: string): number | number[] | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'number')) return value as number[];
  throw new TypeError(`${what} must be a number or a tuple of numbers`);
}

function flag(value: unknown, what: string): boolean | null {
  return value === undefined || value === null ? null : boolArg(value, what);
}

const PAD_MODES = ['constant', 'reflect', 'replicate', 'circular'];
const MODES = ['nearest', 'nearest-exact', 'linear', 'bilinear', 'area'];

export const resampleFunctional = {
  pad(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'pad', params: ['input', 'pad', 'mode', 'value'] }, args);
    const padding = sizes(a.pad, 'pad: pad');
    if (!Array.isArray(padding)) throw new TypeError('pad: pad must be a tuple of ints');
    const mode = a.mode ?? 'constant';
    if (typeof mode !== 'string' || !PAD_MODES.includes(mode))
      throw new Error(`pad: mode must be one of ${PAD_MODES.join(', ')}, got ${String(mode)}`);
    const value = a.value ?? 0;
    if (typeof value !== 'number') throw new TypeError('pad: value must be a number');
    return ops.pad(tensorArg(a.input, 'pad: input'), padding, mode as ops.PadMode, value);
  },
  interpolate(...args: unknown[]): Tensor {
    const a = bindArgs(
      {
        name: 'interpolate',
        params: [
          'input',
          'size',
          'scaleFactor',
          'mode',
          'alignCorners',
          'recomputeScaleFactor',
          'antialias',
        ],
      },
      args,
    );
    const mode = a.mode ?? 'nearest';
    if (typeof mode !== 'string' || !MODES.includes(mode))
      throw new Error(
        `interpolate: mode ${String(mode)} is not supported here (only ${MODES.join(', ')})`,
      );
    if (flag(a.antialias, 'interpolate: antialias'))
      throw new Error('interpolate: antialias=True is not supported yet');
    return ops.interpolate(tensorArg(a.input, 'interpolate: input'), {
      size: sizes(a.size, 'interpolate: size'),
      scaleFactor: sizes(a.scaleFactor, 'interpolate: scale_factor'),
      mode: mode as ops.InterpolateMode,
      alignCorners: flag(a.alignCorners, 'interpolate: align_corners'),
      recomputeScaleFactor: flag(a.recomputeScaleFactor, 'interpolate: recompute_scale_factor'),
    });
  },
  /** Deprecated in PyTorch, still in courses: interpolate under older names. */
  upsample(...args: unknown[]): Tensor {
    return resampleFunctional.interpolate(...args);
  },
  upsampleNearest(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'upsample_nearest', params: ['input', 'size', 'scaleFactor'] },
      args,
    );
    return resampleFunctional.interpolate(a.input, a.size, a.scaleFactor, 'nearest');
  },
  upsampleBilinear(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'upsample_bilinear', params: ['input', 'size', 'scaleFactor'] },
      args,
    );
    return resampleFunctional.interpolate(a.input, a.size, a.scaleFactor, 'bilinear', true);
  },
};
