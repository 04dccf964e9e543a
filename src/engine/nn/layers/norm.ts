/**
 * Normalisation layers: LayerNorm, BatchNorm1d/2d/3d, GroupNorm, InstanceNorm1d/2d/3d, with PyTorch's
 * arguments, parameters (`weight` ones, `bias` zeros), buffers (`running_mean`, `running_var`,
 * `num_batches_tracked`, under PyTorch's names so state dicts match) and reprs. The running
 * statistics are updated in place, so `.to()` and state dicts keep seeing the same tensors.
 */
import { asInt, asShape, describe } from '../../args';
import type { Device } from '../../devices/device';
import { full } from '../../ops/creation';
import { batchNorm, groupNorm, instanceNorm, layerNorm, type RunningStats } from '../../ops/norm';
import { unsqueeze, squeeze } from '../../ops/shape-ops';
import { ShapeError } from '../../shape';
import type { Tensor } from '../../tensor';
import { checkInputDevice } from '../device-errors';
import {
  bind,
  boolArg,
  checkFloatDtype,
  deviceArg,
  positiveInt,
  pyTuple,
  requireTensor,
} from '../layer-args';
import { libraryForward, Module } from '../module';
import { Parameter } from '../parameter';

/** Python's repr of a float: `1e-05`, `0.1`, `1.0`. */
export function pyFloat(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf';
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return x.toFixed(1);
  const [mantissa, exp] = x.toExponential().split('e');
  const e = Number(exp);
  if (e < -4 || e >= 16)
    return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(x);
}

const pyBool = (b: boolean): string => (b ? 'True' : 'False');

function floatArg(value: unknown, what: string, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number')
    throw new TypeError(`${what} must be a number, got ${describe(value)}`);
  return value;
}

function readOnly(target: object, values: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(values))
    Object.defineProperty(target, key, { value, enumerable: false });
}

const filled = (shape: number[], value: number, device: Device) =>
  new Parameter(full(shape, value, { device }));

// ---------------------------------------------------------------------------------------------
// LayerNorm.

export class LayerNorm extends Module {
  declare weight: Parameter | null;
  declare bias: Parameter | null;
  declare readonly normalizedShape: number[];
  declare readonly eps: number;
  declare readonly elementwiseAffine: boolean;

  constructor(...args: unknown[]) {
    super();
    const a = bind(
      {
        name: 'LayerNorm',
        params: ['normalizedShape', 'eps', 'elementwiseAffine'],
        keywordOnly: ['bias', 'device', 'dtype'],
      },
      args,
    );
    checkFloatDtype(a.dtype, 'LayerNorm');
    const shape = asShape(a.normalizedShape, 'LayerNorm: normalizedShape');
    const affine = boolArg(a.elementwiseAffine, 'LayerNorm: elementwiseAffine', true);
    readOnly(this, {
      normalizedShape: shape,
      eps: floatArg(a.eps, 'LayerNorm: eps', 1e-5),
      elementwiseAffine: affine,
    });
    const device = deviceArg(a.device);
    this.weight = affine ? filled(shape, 1, device) : null;
    // `bias=False` is PyTorch 2.1's; 1.13 has no such argument.
    this.bias =
      affine && boolArg(a.bias, 'LayerNorm: bias', true) ? filled(shape, 0, device) : null;
  }

  override forward(input: Tensor): Tensor {
    const x = requireTensor(input, 'LayerNorm');
    if (this.weight) checkInputDevice('LayerNorm', x, this.weight);
    return layerNorm(x, this.normalizedShape, this.weight, this.bias, this.eps);
  }

  override extraRepr(): string {
    return `${pyTuple(this.normalizedShape)}, eps=${pyFloat(this.eps)}, elementwise_affine=${pyBool(this.elementwiseAffine)}`;
  }
}

// ---------------------------------------------------------------------------------------------
// BatchNorm and InstanceNorm: per-channel affine and running statistics.

abstract class RunningNorm extends Module {
  declare weight: Parameter | null;
  declare bias: Parameter | null;
  declare running_mean: Tensor | null;
  declare running_var: Tensor | null;
  declare num_batches_tracked: Tensor | null;
  declare readonly numFeatures: number;
  declare eps: number;
  /** PyTorch's momentum; null for the cumulative average (writable, as in PyTorch). */
  declare momentum: number | null;
  declare readonly affine: boolean;
  declare readonly trackRunningStats: boolean;

  /** The class's PyTorch name, for errors (class names do not survive minification). */
  declare protected readonly layer: string;

  constructor(name: string, args: unknown[], defaults: { affine: boolean; track: boolean }) {
    super();
    const a = bind(
      {
        name,
        params: ['numFeatures', 'eps', 'momentum', 'affine', 'trackRunningStats'],
        keywordOnly: ['device', 'dtype'],
      },
      args,
    );
    checkFloatDtype(a.dtype, name);
    const c = positiveInt(a.numFeatures, `${name}: numFeatures`);
    const affine = boolArg(a.affine, `${name}: affine`, defaults.affine);
    const track = boolArg(a.trackRunningStats, `${name}: trackRunningStats`, defaults.track);
    // momentum=None is PyTorch's cumulative moving average; undefined is the default 0.1.
    const momentum = a.momentum === null ? null : floatArg(a.momentum, `${name}: momentum`, 0.1);
    const eps = floatArg(a.eps, `${name}: eps`, 1e-5);
    for (const [key, value] of Object.entries({ momentum, eps }))
      Object.defineProperty(this, key, { value, writable: true, enumerable: false });
    readOnly(this, {
      layer: name,
      numFeatures: c,
      affine,
      trackRunningStats: track,
    });
    const device = deviceArg(a.device);
    this.weight = affine ? filled([c], 1, device) : null;
    this.bias = affine ? filled([c], 0, device) : null;
    if (track) {
      this.registerBuffer('running_mean', full([c], 0, { device }));
      this.registerBuffer('running_var', full([c], 1, { device }));
      this.registerBuffer('num_batches_tracked', full([], 0, { device, dtype: 'int32' }));
    } else {
      this.registerBuffer('running_mean', null);
      this.registerBuffer('running_var', null);
      this.registerBuffer('num_batches_tracked', null);
    }
  }

  /** The running statistics this forward reads and, in training, updates. */
  protected stats(): RunningStats {
    const training = this.training && this.trackRunningStats;
    return {
      runningMean: this.running_mean,
      runningVar: this.running_var,
      numBatchesTracked: training ? this.num_batches_tracked : null,
      momentum: this.momentum,
    };
  }

  /** A clear error when the input is not where the layer's tensors are. */
  protected checkDevice(x: Tensor): void {
    const held = this.weight ?? this.running_mean;
    if (held) checkInputDevice(this.layer, x, held);
  }

  override extraRepr(): string {
    const momentum = this.momentum === null ? 'None' : pyFloat(this.momentum);
    return (
      `${this.numFeatures}, eps=${pyFloat(this.eps)}, momentum=${momentum}, ` +
      `affine=${pyBool(this.affine)}, track_running_stats=${pyBool(this.trackRunningStats)}`
    );
  }
}

function checkRank(layer: string, x: Tensor, ranks: number[]): void {
  if (!ranks.includes(x.ndim)) {
    const want = ranks.map((r) => `${r}D`).join(' or ');
    throw new ShapeError(`${layer}: expected ${want} input (got ${x.ndim}D input)`);
  }
}

abstract class BatchNormBase extends RunningNorm {
  /** The input ranks the layer takes. */
  declare protected readonly ranks: number[];

  constructor(name: string, ranks: number[], args: unknown[]) {
    super(name, args, { affine: true, track: true });
    readOnly(this, { ranks });
  }

  override forward(input: Tensor): Tensor {
    const x = requireTensor(input, this.layer);
    checkRank(this.layer, x, this.ranks);
    this.checkDevice(x);
    // Batch statistics in training, and always when there are no running ones.
    const useBatch = this.training || this.running_mean === null;
    return batchNorm(x, this.stats(), this.weight, this.bias, useBatch, this.eps);
  }
}

export class BatchNorm1d extends BatchNormBase {
  constructor(...args: unknown[]) {
    super('BatchNorm1d', [2, 3], args);
  }
}

export class BatchNorm2d extends BatchNormBase {
  constructor(...args: unknown[]) {
    super('BatchNorm2d', [4], args);
  }
}

export class BatchNorm3d extends BatchNormBase {
  constructor(...args: unknown[]) {
    super('BatchNorm3d', [5], args);
  }
}

abstract class InstanceNormBase extends RunningNorm {
  /** The batched rank; one less is an unbatched input. */
  declare protected readonly rank: number;

  constructor(name: string, rank: number, args: unknown[]) {
    super(name, args, { affine: false, track: false });
    readOnly(this, { rank });
  }

  override forward(input: Tensor): Tensor {
    const x = requireTensor(input, this.layer);
    checkRank(this.layer, x, [this.rank - 1, this.rank]);
    this.checkDevice(x);
    const batched = x.ndim === this.rank ? x : unsqueeze(x, 0);
    const useInput = this.training || !this.trackRunningStats;
    // PyTorch's InstanceNorm keeps num_batches_tracked at 0 (F.instance_norm never counts).
    const stats = { ...this.stats(), numBatchesTracked: null };
    const y = instanceNorm(batched, stats, this.weight, this.bias, useInput, this.eps);
    return batched === x ? y : squeeze(y, 0);
  }
}

export class InstanceNorm1d extends InstanceNormBase {
  constructor(...args: unknown[]) {
    super('InstanceNorm1d', 3, args);
  }
}

export class InstanceNorm2d extends InstanceNormBase {
  constructor(...args: unknown[]) {
    super('InstanceNorm2d', 4, args);
  }
}

export class InstanceNorm3d extends InstanceNormBase {
  constructor(...args: unknown[]) {
    super('InstanceNorm3d', 5, args);
  }
}

// ---------------------------------------------------------------------------------------------
// GroupNorm.

export class GroupNorm extends Module {
  declare weight: Parameter | null;
  declare bias: Parameter | null;
  declare readonly numGroups: number;
  declare readonly numChannels: number;
  declare readonly eps: number;
  declare readonly affine: boolean;

  constructor(...args: unknown[]) {
    super();
    const a = bind(
      {
        name: 'GroupNorm',
        params: ['numGroups', 'numChannels', 'eps', 'affine'],
        keywordOnly: ['device', 'dtype'],
      },
      args,
    );
    checkFloatDtype(a.dtype, 'GroupNorm');
    const groups = positiveInt(a.numGroups, 'GroupNorm: numGroups');
    const channels = positiveInt(a.numChannels, 'GroupNorm: numChannels');
    if (channels % groups !== 0)
      throw new Error('GroupNorm: num_channels must be divisible by num_groups');
    const affine = boolArg(a.affine, 'GroupNorm: affine', true);
    readOnly(this, {
      numGroups: asInt(groups, 'GroupNorm: numGroups'),
      numChannels: channels,
      eps: floatArg(a.eps, 'GroupNorm: eps', 1e-5),
      affine,
    });
    const device = deviceArg(a.device);
    this.weight = affine ? filled([channels], 1, device) : null;
    this.bias = affine ? filled([channels], 0, device) : null;
  }

  override forward(input: Tensor): Tensor {
    const x = requireTensor(input, 'GroupNorm');
    if (this.weight) checkInputDevice('GroupNorm', x, this.weight);
    return groupNorm(x, this.numGroups, this.weight, this.bias, this.eps);
  }

  override extraRepr(): string {
    return `${this.numGroups}, ${this.numChannels}, eps=${pyFloat(this.eps)}, affine=${pyBool(this.affine)}`;
  }
}

libraryForward(
  LayerNorm,
  BatchNorm1d,
  BatchNorm2d,
  BatchNorm3d,
  InstanceNorm1d,
  InstanceNorm2d,
  InstanceNorm3d,
  GroupNorm,
);
