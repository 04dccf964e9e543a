/**
 * Keras `LayerNormalization(axis=-1, epsilon=1e-3, center=True, scale=True, …)`: each sample
 * normalised over `axis` (an int or a list) by its own mean and biased variance, then
 * `* gamma + beta` with gamma and beta shaped like those axes. The engine's layerNorm (the fused
 * normalisation, ops/norm.ts) does it over trailing axes; other axes are permuted to the end
 * first and back after.
 */
import { ops, type Tensor } from '../../../../engine';
import { ValueError } from '../../../tf-config';
import { layerNorm } from '../../../../engine/ops/norm';
import { asBool, asNumber, optional } from '../../../args';
import { getInitializer, type InitializerFn } from '../initializers';
import { bindLayerArgs, formatShapeSpec, Layer, type ShapeSpec } from './layer';
import { axisList, refuseUnsupported, resolveAxis } from './norm-args';

const UNSUPPORTED = ['betaRegularizer', 'gammaRegularizer', 'betaConstraint', 'gammaConstraint'];

export class LayerNormalization extends Layer {
  readonly axis: number[];
  readonly epsilon: number;
  readonly center: boolean;
  readonly scale: boolean;
  private readonly gammaInitializer: InitializerFn;
  private readonly betaInitializer: InitializerFn;
  gamma: Tensor | null = null;
  beta: Tensor | null = null;
  override supportsMasking = true;

  constructor(...args: unknown[]) {
    const a = bindLayerArgs(
      'LayerNormalization',
      [
        'axis',
        'epsilon',
        'center',
        'scale',
        'rmsScaling',
        'betaInitializer',
        'gammaInitializer',
        ...UNSUPPORTED,
      ],
      [],
      args,
    );
    super('LayerNormalization', a);
    const what = (arg: string) => `LayerNormalization: ${arg}`;
    this.axis = axisList(a.axis ?? -1, what('axis'));
    this.epsilon = optional(a.epsilon, asNumber, what('epsilon'), 1e-3);
    this.center = optional(a.center, asBool, what('center'), true);
    this.scale = optional(a.scale, asBool, what('scale'), true);
    refuseUnsupported('LayerNormalization', a, [...UNSUPPORTED, 'rmsScaling']);
    this.gammaInitializer = getInitializer(a.gammaInitializer ?? 'ones', what('gammaInitializer'));
    this.betaInitializer = getInitializer(a.betaInitializer ?? 'zeros', what('betaInitializer'));
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    return inputShape;
  }

  /** The normalised axes of an input of this shape, ascending. */
  private axesFor(shape: ShapeSpec): number[] {
    const axes = [...new Set(this.axis.map((a) => resolveAxis(this.name, a, shape)))];
    return axes.sort((p, q) => p - q);
  }

  protected override buildWeights(inputShape: ShapeSpec): void {
    const axes = this.axesFor(inputShape);
    const sizes = axes.map((a) => inputShape[a]);
    if (sizes.some((s) => s === null)) {
      throw new ValueError(
        `${this.name}: the normalised axes [${this.axis.join(', ')}] must have defined sizes; received input shape ${formatShapeSpec(inputShape)}`,
      );
    }
    const shape = sizes as number[];
    if (this.scale) this.gamma = this.addWeight('gamma', shape, this.gammaInitializer);
    if (this.center) this.beta = this.addWeight('beta', shape, this.betaInitializer);
    // Keyed by the axes as given (-1 stays the last axis at any rank), as Keras's checks are.
    this.inputSpec = {
      axes: Object.fromEntries(
        this.axis.map((a) => [a, inputShape[resolveAxis(this.name, a, inputShape)] as number]),
      ),
    };
  }

  protected call(x: Tensor): Tensor {
    const input = x.dtype === 'float32' ? x : ops.cast(x, 'float32');
    const axes = this.axesFor(input.shape);
    const rest = input.shape.map((_, d) => d).filter((d) => !axes.includes(d));
    const order = [...rest, ...axes];
    const moved = order.every((d, i) => d === i) ? null : order;
    const xt = moved ? ops.permute(input, moved) : input;
    const normalized = axes.map((a) => input.shape[a]);
    const y = layerNorm(xt, normalized, this.gamma, this.beta, this.epsilon);
    if (!moved) return y;
    const back = new Array<number>(moved.length);
    moved.forEach((d, i) => (back[d] = i));
    return ops.permute(y, back);
  }
}
