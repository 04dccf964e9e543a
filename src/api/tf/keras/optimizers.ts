/**
 * `tf.keras.optimizers.Adam / Nadam / SGD`: the engine's one optimizer core with its Keras update
 * rules, under Keras's names and defaults (`learningRate`, `beta1`, `beta2`, `epsilon`).
 * Variables join on their first `applyGradients([[grad, variable], …])`, as Keras optimizers
 * create their slots lazily; every update ends the engine's training step.
 */
import { Tensor } from '../../../engine';
import {
  kerasAdagrad,
  kerasAdam,
  kerasNadam,
  kerasRmsprop,
  kerasSgd,
  Optimizer,
  type UpdateRule,
} from '../../../engine/optim';
import { CLIPPING_ARGS, clipGradients, clippingArgs, type Clipping } from './clipping';
import { LearningRateSchedule, schedules } from './schedules';
import { asBool, asNumber, bindArgs, describe, optional, type BoundArgs } from '../../args';
import { GradientTapeImpl } from '../gradient-tape';

/** Keras kwargs that change updates in ways not implemented here: refused rather than ignored. */
const UNSUPPORTED = ['decay', 'useEma', 'emaMomentum', 'emaOverwriteFrequency', 'jitCompile'];

function hyperFor(rule: UpdateRule, a: BoundArgs, what: string): Record<string, unknown> {
  for (const key of UNSUPPORTED) {
    if (a[key] !== undefined && a[key] !== null && a[key] !== false && a[key] !== 0) {
      throw new TypeError(`${what}: ${key} is not supported`);
    }
  }
  const hyper: Record<string, unknown> = {};
  const lr = a.learningRate ?? a.lr;
  if (lr instanceof LearningRateSchedule) hyper.lr = lr.valueAt(0);
  else if (lr !== undefined && lr !== null) hyper.lr = asNumber(lr, `${what}: learningRate`);
  if ('betas' in rule.defaults) {
    const [b1, b2] = rule.defaults.betas as readonly number[];
    hyper.betas = [
      optional(a.beta1, asNumber, `${what}: beta1`, b1),
      optional(a.beta2, asNumber, `${what}: beta2`, b2),
    ];
  }
  if (a.epsilon !== undefined) hyper.eps = asNumber(a.epsilon, `${what}: epsilon`);
  if (a.amsgrad !== undefined) hyper.amsgrad = asBool(a.amsgrad, `${what}: amsgrad`);
  if (a.momentum !== undefined) hyper.momentum = asNumber(a.momentum, `${what}: momentum`);
  if (a.nesterov !== undefined) hyper.nesterov = asBool(a.nesterov, `${what}: nesterov`);
  if (a.weightDecay !== undefined && a.weightDecay !== null)
    hyper.weightDecay = asNumber(a.weightDecay, `${what}: weightDecay`);
  if (a.rho !== undefined) hyper.rho = asNumber(a.rho, `${what}: rho`);
  if (a.centered !== undefined) hyper.centered = asBool(a.centered, `${what}: centered`);
  if (a.initialAccumulatorValue !== undefined)
    hyper.initialAccumulatorValue = asNumber(
      a.initialAccumulatorValue,
      `${what}: initialAccumulatorValue`,
    );
  return hyper;
}

export abstract class KerasOptimizer extends Optimizer {
  name: string;
  private steps = 0;
  /** The schedule given as learningRate, evaluated at `iterations` before each update. */
  readonly schedule: LearningRateSchedule | null;
  readonly clipping: Clipping;

  protected constructor(
    rule: UpdateRule,
    readonly className: string,
    params: readonly string[],
    args: readonly unknown[],
    /** Keras defaults that differ from the rule's (AdamW's weight decay). */
    overrides: Record<string, unknown> = {},
  ) {
    const a = bindArgs(
      {
        name: className,
        params,
        keywordOnly: ['lr', 'weightDecay', ...CLIPPING_ARGS, ...UNSUPPORTED].filter(
          (k) => !params.includes(k),
        ),
      },
      args,
    );
    for (const [key, value] of Object.entries(overrides))
      if (a[key] === undefined || a[key] === null) a[key] = value;
    super([], rule, hyperFor(rule, a, className));
    this.name = a.name === undefined ? className : String(a.name);
    const lr = a.learningRate ?? a.lr;
    this.schedule = lr instanceof LearningRateSchedule ? lr : null;
    this.clipping = clippingArgs(a, className);
  }

  /** Applies `[[gradient, variable], …]` (e.g. `tf.zip(gradients, model.trainableVariables)`). */
  applyGradients(
    gradsAndVars: Iterable<readonly [Tensor | null, Tensor]>,
    _options?: Record<string, unknown>,
  ): number {
    if (
      gradsAndVars === null ||
      typeof gradsAndVars !== 'object' ||
      !(Symbol.iterator in gradsAndVars)
    ) {
      throw new TypeError(
        `applyGradients expects a list of [gradient, variable] pairs, got ${describe(gradsAndVars)}`,
      );
    }
    const pairs = [...gradsAndVars].map((pair, i) => {
      if (!Array.isArray(pair) || pair.length !== 2 || !(pair[1] instanceof Tensor)) {
        throw new TypeError(
          `applyGradients: item ${i} must be a pair [gradient, variable], got ${describe(pair)}`,
        );
      }
      const [grad, variable] = pair as [unknown, Tensor];
      if (grad !== null && grad !== undefined && !(grad instanceof Tensor)) {
        throw new TypeError(
          `applyGradients: the gradient of item ${i} must be a tensor or null, got ${describe(grad)}`,
        );
      }
      return [grad ?? null, variable] as [Tensor | null, Tensor];
    });
    if (pairs.length > 0 && pairs.every(([g]) => g === null)) {
      throw new Error(
        `No gradients provided for any variable: ${pairs.map(([, v]) => JSON.stringify(v.shape)).join(', ')}.`,
      );
    }
    this.applyUpdates(pairs);
    return this.steps;
  }

  override applyUpdates(pairs: Iterable<readonly [Tensor | null, Tensor]>): void {
    if (this.schedule) this.setRate(this.schedule.valueAt(this.steps));
    super.applyUpdates(clipGradients([...pairs], this.clipping));
    this.steps++;
  }

  private setRate(lr: number): void {
    (this.defaults as Record<string, unknown>).lr = lr;
    for (const group of this.paramGroups) group.lr = lr;
  }

  /**
   * `minimize(loss, varList, { tape })`: `loss` is a function returning the loss (or a loss
   * tensor recorded on `tape`); computes the gradients and applies them.
   */
  minimize(
    loss: (() => Tensor) | Tensor,
    varList: Tensor[] | (() => Tensor[]),
    options: { tape?: GradientTapeImpl } = {},
  ): number {
    const tape = options.tape ?? new GradientTapeImpl();
    const value = typeof loss === 'function' ? loss() : loss;
    const vars = typeof varList === 'function' ? varList() : varList;
    const grads = tape.gradient(value, vars) as (Tensor | null)[];
    return this.applyGradients(grads.map((g, i) => [g, vars[i]] as const));
  }

  /** Keras's step counter (`optimizer.iterations`). */
  get iterations(): number {
    return this.steps;
  }

  /** The rate of the next update (a schedule's value at `iterations`). */
  get learningRate(): number {
    if (this.schedule) return this.schedule.valueAt(this.steps);
    return this.defaults.lr as number;
  }

  set learningRate(value: number) {
    if (this.schedule)
      throw new TypeError(
        'This optimizer was created with a `LearningRateSchedule` object as its `learning_rate` constructor argument, hence its learning rate is not settable. If you need the learning rate to be settable, you should instantiate the optimizer with a float `learning_rate` argument.',
      );
    this.setRate(asNumber(value, 'learningRate'));
  }

  /** Keras 2's `lr` alias. */
  get lr(): number {
    return this.learningRate;
  }

  set lr(value: number) {
    this.learningRate = value;
  }

  getConfig(): Record<string, unknown> {
    const { lr, betas, eps, ...rest } = this.defaults as Record<string, unknown>;
    const config: Record<string, unknown> = {
      name: this.name,
      learningRate: this.schedule ? this.schedule.getConfig() : lr,
    };
    if (Array.isArray(betas)) {
      config.beta1 = betas[0];
      config.beta2 = betas[1];
    }
    if (eps !== undefined) config.epsilon = eps;
    return { ...config, ...rest, ...this.clipping };
  }

  override toString(): string {
    return `<keras.optimizers.${this.className} ${JSON.stringify(this.getConfig())}>`;
  }
}

/** Adam(learningRate = 0.001, beta1 = 0.9, beta2 = 0.999, epsilon = 1e-7, amsgrad = false). */
export class Adam extends KerasOptimizer {
  constructor(...args: unknown[]) {
    super(
      kerasAdam,
      'Adam',
      ['learningRate', 'beta1', 'beta2', 'epsilon', 'amsgrad', 'name'],
      args,
    );
  }
}

/** Nadam(learningRate = 0.001, beta1 = 0.9, beta2 = 0.999, epsilon = 1e-7), TF 2.x's schedule. */
export class Nadam extends KerasOptimizer {
  constructor(...args: unknown[]) {
    super(kerasNadam, 'Nadam', ['learningRate', 'beta1', 'beta2', 'epsilon', 'name'], args);
  }
}

/** SGD(learningRate = 0.01, momentum = 0, nesterov = false, weightDecay = null). */
export class SGD extends KerasOptimizer {
  constructor(...args: unknown[]) {
    super(kerasSgd, 'SGD', ['learningRate', 'momentum', 'nesterov', 'weightDecay', 'name'], args);
  }
}

/** RMSprop(learningRate = 0.001, rho = 0.9, momentum = 0, epsilon = 1e-7, centered = false). */
export class RMSprop extends KerasOptimizer {
  constructor(...args: unknown[]) {
    super(
      kerasRmsprop,
      'RMSprop',
      ['learningRate', 'rho', 'momentum', 'epsilon', 'centered', 'name'],
      args,
    );
  }
}

/** Adagrad(learningRate = 0.001, initialAccumulatorValue = 0.1, epsilon = 1e-7). */
export class Adagrad extends KerasOptimizer {
  constructor(...args: unknown[]) {
    super(
      kerasAdagrad,
      'Adagrad',
      ['learningRate', 'initialAccumulatorValue', 'epsilon', 'name'],
      args,
    );
  }
}

/** AdamW(learningRate = 0.001, weightDecay = 0.004, beta1, beta2, epsilon = 1e-7, amsgrad): Adam with Keras's decoupled decay. */
export class AdamW extends KerasOptimizer {
  constructor(...args: unknown[]) {
    super(
      kerasAdam,
      'AdamW',
      ['learningRate', 'weightDecay', 'beta1', 'beta2', 'epsilon', 'amsgrad', 'name'],
      args,
      { weightDecay: 0.004 },
    );
  }
}

const BY_NAME: Record<string, () => KerasOptimizer> = {
  adam: () => new Adam(),
  nadam: () => new Nadam(),
  sgd: () => new SGD(),
  rmsprop: () => new RMSprop(),
  adagrad: () => new Adagrad(),
  adamw: () => new AdamW(),
};

/** An optimizer given by Keras name ('adam', 'nadam', 'sgd') or as an object. */
export function getOptimizer(spec: unknown): KerasOptimizer {
  if (spec instanceof KerasOptimizer) return spec;
  if (typeof spec === 'string' && spec.toLowerCase() in BY_NAME)
    return BY_NAME[spec.toLowerCase()]();
  throw new TypeError(
    `Could not interpret optimizer identifier: ${describe(spec)}; use 'adam', 'nadam', 'sgd' or a tf.keras.optimizers object`,
  );
}

export const optimizers = {
  Adam,
  Nadam,
  SGD,
  RMSprop,
  Adagrad,
  AdamW,
  Optimizer: KerasOptimizer,
  get: getOptimizer,
  schedules,
};
