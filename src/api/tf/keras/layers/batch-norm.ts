/**
 * Keras `BatchNormalization(axis=-1, momentum=0.99, epsilon=1e-3, …)`. Training (when called with
 * `training` and the layer is trainable) normalises by the batch's mean and biased variance over
 * every axis but `axis` — the engine's fused normalisation (ops/norm.ts) on the input viewed as
 * [A, C, B] with C the channel axis — and moves the moving statistics as Keras 3 does:
 * `moving = moving * momentum + batch * (1 - momentum)`, with the same biased variance. Inference
 * uses the moving statistics. Weights in Keras's order: gamma, beta (trainable), moving_mean,
 * moving_variance (non-trainable).
 */
import { noGrad, ops, type Tensor } from '../../../../engine';
import { ValueError } from '../../../tf-config';
import { normalizeSlices } from '../../../../engine/ops/norm';
import { asBool, asInt, asNumber, optional } from '../../../args';
import { getInitializer, type InitializerFn } from '../initializers';
import { bindLayerArgs, formatShapeSpec, Layer, type ShapeSpec } from './layer';
import { refuseUnsupported, resolveAxis } from './norm-args';

const UNSUPPORTED = ['betaRegularizer', 'gammaRegularizer', 'betaConstraint', 'gammaConstraint'];

/** Keras's backend epsilon, added to the masked count as Keras's `_moments` does. */
const BACKEND_EPSILON = 1e-7;

const product = (dims: readonly number[]): number => dims.reduce((a, b) => a * b, 1);

export class BatchNormalization extends Layer {
  readonly axis: number;
  readonly momentum: number;
  readonly epsilon: number;
  readonly center: boolean;
  readonly scale: boolean;
  private readonly initializers: Record<
    'gamma' | 'beta' | 'movingMean' | 'movingVariance',
    InitializerFn
  >;
  gamma: Tensor | null = null;
  beta: Tensor | null = null;
  movingMean: Tensor | null = null;
  movingVariance: Tensor | null = null;
  override supportsMasking = true;

  constructor(...args: unknown[]) {
    const a = bindLayerArgs(
      'BatchNormalization',
      [
        'axis',
        'momentum',
        'epsilon',
        'center',
        'scale',
        'betaInitializer',
        'gammaInitializer',
        'movingMeanInitializer',
        'movingVarianceInitializer',
        ...UNSUPPORTED,
        'synchronized',
      ],
      [],
      args,
    );
    super('BatchNormalization', a);
    const what = (arg: string) => `BatchNormalization: ${arg}`;
    this.axis = optional(a.axis, asInt, what('axis'), -1);
    this.momentum = optional(a.momentum, asNumber, what('momentum'), 0.99);
    this.epsilon = optional(a.epsilon, asNumber, what('epsilon'), 1e-3);
    this.center = optional(a.center, asBool, what('center'), true);
    this.scale = optional(a.scale, asBool, what('scale'), true);
    refuseUnsupported('BatchNormalization', a, UNSUPPORTED);
    if (a.synchronized === true) {
      throw new TypeError(
        'Argument synchronized=True is only supported with the TensorFlow backend.',
      );
    }
    this.initializers = {
      gamma: getInitializer(a.gammaInitializer ?? 'ones', what('gammaInitializer')),
      beta: getInitializer(a.betaInitializer ?? 'zeros', what('betaInitializer')),
      movingMean: getInitializer(a.movingMeanInitializer ?? 'zeros', what('movingMeanInitializer')),
      movingVariance: getInitializer(
        a.movingVarianceInitializer ?? 'ones',
        what('movingVarianceInitializer'),
      ),
    };
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    return inputShape;
  }

  protected override buildWeights(inputShape: ShapeSpec): void {
    const size = inputShape[resolveAxis(this.name, this.axis, inputShape)];
    if (size === null) {
      throw new ValueError(
        `Axis ${this.axis} of input tensor should have a defined dimension but the layer received an input with shape ${formatShapeSpec(inputShape)}.`,
      );
    }
    const init = this.initializers;
    if (this.scale) this.gamma = this.addWeight('gamma', [size], init.gamma);
    if (this.center) this.beta = this.addWeight('beta', [size], init.beta);
    this.movingMean = this.addWeight('moving_mean', [size], init.movingMean, false);
    this.movingVariance = this.addWeight('moving_variance', [size], init.movingVariance, false);
    this.inputSpec = { ndim: inputShape.length, axes: { [this.axis]: size } };
  }

  protected call(x: Tensor, training: boolean, mask?: Tensor | null): Tensor {
    const input = x.dtype === 'float32' ? x : ops.cast(x, 'float32');
    const axis = resolveAxis(this.name, this.axis, input.shape);
    const c = input.shape[axis];
    // Per-channel vectors broadcast along `axis`.
    const along = input.shape.map((_, d) => (d === axis ? c : 1));
    const channels = (t: Tensor) => ops.reshape(t, along);
    if (mask && mask.ndim !== input.ndim - 1) {
      throw new ValueError(
        `The mask provided should be one dimension less than the inputs. Received: mask.shape=${formatShapeSpec(mask.shape)}, inputs.shape=${formatShapeSpec(input.shape)}`,
      );
    }
    let y: Tensor;
    if (training && this.trainable) {
      let mean: Tensor;
      let variance: Tensor;
      if (mask) {
        [y, mean, variance] = this.maskedNormalize(input, mask, axis);
      } else {
        const a = product(input.shape.slice(0, axis));
        const b = product(input.shape.slice(axis + 1));
        const [y3, mu, v] = normalizeSlices(ops.reshape(input, [a, c, b]), this.epsilon);
        [y, mean, variance] = [ops.reshape(y3, input.shape), mu, v];
      }
      this.updateMoving(mean, variance);
    } else {
      const mm = this.movingMean as Tensor;
      const mv = this.movingVariance as Tensor;
      y = ops.mul(ops.sub(input, channels(mm)), channels(ops.rsqrt(ops.add(mv, this.epsilon))));
    }
    if (this.gamma) y = ops.mul(y, channels(this.gamma));
    if (this.beta) y = ops.add(y, channels(this.beta));
    return y;
  }

  /**
   * Keras's masked moments: the mean and (biased) variance over the mask's true steps only (the
   * mask broadcast over the last axis), the count plus Keras's backend epsilon as divisor; then
   * every position normalised by them. Composed, so gradients flow through the statistics.
   */
  private maskedNormalize(x: Tensor, mask: Tensor, axis: number): [Tensor, Tensor, Tensor] {
    const reduce = x.shape.map((_, d) => d).filter((d) => d !== axis);
    const w = ops.unsqueeze(ops.cast(mask, 'float32'), -1);
    const count = ops.add(ops.sum(w, reduce, true), BACKEND_EPSILON);
    const weighted = ops.mul(x, w);
    const mean = ops.div(ops.sum(weighted, reduce, true), count);
    const variance = ops.div(
      ops.sum(ops.mul(w, ops.square(ops.sub(weighted, mean))), reduce, true),
      count,
    );
    const y = ops.mul(ops.sub(x, mean), ops.rsqrt(ops.add(variance, this.epsilon)));
    const c = x.shape[axis];
    return [y, ops.reshape(mean.detach(), [c]), ops.reshape(variance.detach(), [c])];
  }

  /** In place, outside autograd: moving ← moving · momentum + batch · (1 − momentum). */
  private updateMoving(mean: Tensor, variance: Tensor): void {
    const m = this.momentum;
    noGrad(() => {
      for (const [moving, batch] of [
        [this.movingMean as Tensor, mean],
        [this.movingVariance as Tensor, variance],
      ] as const) {
        moving.copy_(ops.add(ops.mul(moving, m), ops.mul(batch, 1 - m)));
      }
    });
  }
}
