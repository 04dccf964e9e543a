/**
 * `tf.keras.optimizers.schedules`: learning rates as functions of the optimizer's step, with
 * Keras's formulas. A schedule given as an optimizer's `learningRate` is evaluated at
 * `optimizer.iterations` before each update (in float64 on the host; nothing is read back).
 * Calling one, `schedule(step)`, returns the rate as a 0-d float32 tensor, as Keras does.
 */
import type { Tensor } from '../../../engine';
import { asBool, asInt, asNumber, bindArgs, describe, optional, type BoundArgs } from '../../args';
import { ValueError } from '../../tf-config';
import { Callable } from '../callable';
import { toTensor } from './layers/layer';

// Instances are callable (see callable.ts): the interface gives classes their call signature.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface LearningRateSchedule {
  (step: unknown): Tensor;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export abstract class LearningRateSchedule extends Callable<[unknown], Tensor> {
  /** The rate at `step` (0 for the first update). */
  abstract valueAt(step: number): number;
  abstract getConfig(): Record<string, unknown>;

  protected invoke(step: unknown): Tensor {
    if (typeof step !== 'number' || !Number.isFinite(step))
      throw new TypeError(
        `${this.constructor.name}: step must be a number (such as optimizer.iterations), got ${describe(step)}`,
      );
    return toTensor(this.valueAt(step));
  }

  override toString(): string {
    return `<keras.optimizers.schedules.${this.constructor.name} ${JSON.stringify(this.getConfig())}>`;
  }
}

function positive(a: BoundArgs, key: string, what: string): number {
  const value = asNumber(a[key], `${what}: ${key}`);
  if (!(value > 0)) throw new ValueError(`${what}: ${key} must be positive, got ${value}`);
  return value;
}

function required(a: BoundArgs, keys: readonly string[], what: string): void {
  for (const key of keys)
    if (a[key] === undefined || a[key] === null)
      throw new TypeError(`${what}.__init__() missing required argument: '${key}'`);
}

/**
 * What ExponentialDecay and InverseTimeDecay share: the same four arguments (Keras gives both
 * the signature (initial_learning_rate, decay_steps, decay_rate, staircase=False, name=None))
 * and the same config; only the formula differs.
 */
abstract class StepDecay extends LearningRateSchedule {
  readonly initialLearningRate: number;
  readonly decaySteps: number;
  readonly decayRate: number;
  readonly staircase: boolean;
  override readonly name: string | null;

  protected constructor(what: string, args: readonly unknown[]) {
    super();
    const params = ['initialLearningRate', 'decaySteps', 'decayRate', 'staircase', 'name'];
    const a = bindArgs({ name: what, params }, args);
    required(a, params.slice(0, 3), what);
    this.initialLearningRate = asNumber(a.initialLearningRate, `${what}: initialLearningRate`);
    this.decaySteps = positive(a, 'decaySteps', what);
    this.decayRate = asNumber(a.decayRate, `${what}: decayRate`);
    this.staircase = optional(a.staircase, asBool, `${what}: staircase`, false);
    this.name = a.name === undefined || a.name === null ? null : String(a.name);
  }

  /** step / decaySteps, floored when staircase. */
  protected progress(step: number): number {
    const p = step / this.decaySteps;
    return this.staircase ? Math.floor(p) : p;
  }

  getConfig(): Record<string, unknown> {
    const { initialLearningRate, decaySteps, decayRate, staircase, name } = this;
    return { initialLearningRate, decaySteps, decayRate, staircase, name };
  }
}

/** initialLearningRate · decayRate^(step / decaySteps), the exponent floored when staircase. */
export class ExponentialDecay extends StepDecay {
  constructor(...args: unknown[]) {
    super('ExponentialDecay', args);
  }

  valueAt(step: number): number {
    return this.initialLearningRate * this.decayRate ** this.progress(step);
  }
}

/** initialLearningRate / (1 + decayRate · step / decaySteps), the ratio floored when staircase. */
export class InverseTimeDecay extends StepDecay {
  constructor(...args: unknown[]) {
    super('InverseTimeDecay', args);
  }

  valueAt(step: number): number {
    return this.initialLearningRate / (1 + this.decayRate * this.progress(step));
  }
}

/**
 * Keras's CosineDecay with its optional linear warmup: from initialLearningRate to warmupTarget
 * over warmupSteps, then from the warmup target (or the initial rate) down a half cosine to
 * alpha times it over decaySteps, then flat.
 */
export class CosineDecay extends LearningRateSchedule {
  readonly initialLearningRate: number;
  readonly decaySteps: number;
  readonly alpha: number;
  readonly warmupTarget: number | null;
  readonly warmupSteps: number;
  override readonly name: string | null;

  constructor(...args: unknown[]) {
    super();
    const what = 'CosineDecay';
    const params = [
      'initialLearningRate',
      'decaySteps',
      'alpha',
      'name',
      'warmupTarget',
      'warmupSteps',
    ];
    const a = bindArgs({ name: what, params }, args);
    required(a, params.slice(0, 2), what);
    this.initialLearningRate = asNumber(a.initialLearningRate, `${what}: initialLearningRate`);
    this.decaySteps = positive(a, 'decaySteps', what);
    this.alpha = optional(a.alpha, asNumber, `${what}: alpha`, 0);
    this.warmupTarget = optional(a.warmupTarget, asNumber, `${what}: warmupTarget`, null);
    this.warmupSteps = optional(a.warmupSteps, asInt, `${what}: warmupSteps`, 0);
    this.name = a.name === undefined || a.name === null ? null : String(a.name);
  }

  private decay(step: number, from: number): number {
    const cosine = 0.5 * (1 + Math.cos((Math.PI * step) / this.decaySteps));
    return from * ((1 - this.alpha) * cosine + this.alpha);
  }

  valueAt(step: number): number {
    if (this.warmupTarget === null)
      return this.decay(Math.min(step, this.decaySteps), this.initialLearningRate);
    const s = Math.min(step, this.decaySteps + this.warmupSteps);
    if (s < this.warmupSteps) {
      const delta = this.warmupTarget - this.initialLearningRate;
      return this.initialLearningRate + (delta * s) / this.warmupSteps;
    }
    return this.decay(s - this.warmupSteps, this.warmupTarget);
  }

  getConfig(): Record<string, unknown> {
    const { initialLearningRate, decaySteps, alpha, name, warmupTarget, warmupSteps } = this;
    return { initialLearningRate, decaySteps, alpha, name, warmupTarget, warmupSteps };
  }
}

/** values[i] for boundaries[i−1] < step ≤ boundaries[i] (values[0] up to the first boundary). */
/** A list as Python prints it: `[1, 2]`. */
const pyList = (xs: readonly number[]): string => `[${xs.join(', ')}]`;

export class PiecewiseConstantDecay extends LearningRateSchedule {
  readonly boundaries: number[];
  readonly values: number[];
  override readonly name: string | null;

  constructor(...args: unknown[]) {
    super();
    const what = 'PiecewiseConstantDecay';
    const a = bindArgs({ name: what, params: ['boundaries', 'values', 'name'] }, args);
    required(a, ['boundaries', 'values'], what);
    const list = (v: unknown, key: string): number[] => {
      if (!Array.isArray(v))
        throw new TypeError(`${what}: ${key} must be a list, got ${describe(v)}`);
      return v.map((x, i) => asNumber(x, `${what}: ${key}[${i}]`));
    };
    this.boundaries = list(a.boundaries, 'boundaries');
    this.values = list(a.values, 'values');
    if (this.values.length !== this.boundaries.length + 1)
      throw new ValueError(
        `The length of boundaries should be 1 less than the length of values. Received: boundaries=${pyList(this.boundaries)} of length ${this.boundaries.length}, and values=${pyList(this.values)} of length ${this.values.length}.`,
      );
    this.name = a.name === undefined || a.name === null ? null : String(a.name);
  }

  valueAt(step: number): number {
    const i = this.boundaries.findIndex((b) => step <= b);
    return this.values[i === -1 ? this.values.length - 1 : i];
  }

  getConfig(): Record<string, unknown> {
    return { boundaries: this.boundaries, values: this.values, name: this.name };
  }
}

export const schedules = {
  LearningRateSchedule,
  ExponentialDecay,
  InverseTimeDecay,
  CosineDecay,
  PiecewiseConstantDecay,
};
