/**
 * Keras `Embedding(inputDim, outputDim, { inputLength, maskZero })`: integer ids → rows of a
 * [inputDim, outputDim] table initialised uniform(-0.05, 0.05). `inputLength` fixes the input
 * shape, so a Sequential model starting with it is built (and summarised) before any data.
 * With `maskZero` the output carries the Keras mask `ids != 0` (masking.ts), which recurrent
 * layers read to skip the padding.
 */
import { ops, type Tensor } from '../../../../engine';
import { asBool, asInt, optional } from '../../../args';
import { getInitializer, type InitializerFn } from '../initializers';
import { bindLayerArgs, Layer, type ShapeSpec } from './layer';

export class Embedding extends Layer {
  readonly inputDim: number;
  readonly outputDim: number;
  readonly inputLength: number | null;
  readonly maskZero: boolean;
  private readonly embeddingsInitializer: InitializerFn;
  embeddings: Tensor | null = null;

  constructor(...args: unknown[]) {
    const a = bindLayerArgs(
      'Embedding',
      [
        'inputDim',
        'outputDim',
        'embeddingsInitializer',
        'embeddingsRegularizer',
        'activityRegularizer',
        'embeddingsConstraint',
        'maskZero',
        'inputLength',
      ],
      [],
      args,
    );
    // inputDim is the vocabulary here, not Keras's `input_dim` shortcut for an input shape.
    super('Embedding', { ...a, inputDim: undefined });
    this.inputDim = asInt(a.inputDim, 'Embedding: inputDim');
    this.outputDim = asInt(a.outputDim, 'Embedding: outputDim');
    if (this.inputDim < 1 || this.outputDim < 1) {
      throw new RangeError(
        `Both inputDim and outputDim should be positive, found inputDim ${this.inputDim} and outputDim ${this.outputDim}`,
      );
    }
    for (const unsupported of [
      'embeddingsRegularizer',
      'activityRegularizer',
      'embeddingsConstraint',
    ] as const) {
      if (a[unsupported] !== undefined && a[unsupported] !== null)
        throw new TypeError(`Embedding: ${unsupported} is not supported`);
    }
    this.maskZero = optional(a.maskZero, asBool, 'Embedding: maskZero', false);
    this.inputLength =
      a.inputLength === undefined || a.inputLength === null
        ? null
        : asInt(a.inputLength, 'Embedding: inputLength');
    this.embeddingsInitializer = getInitializer(
      a.embeddingsInitializer ?? 'uniform',
      'Embedding: embeddingsInitializer',
    );
    if (this.declaredInputShape === null && this.inputLength !== null)
      this.declaredInputShape = [null, this.inputLength];
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    return [...inputShape, this.outputDim];
  }

  protected override buildWeights(): void {
    this.embeddings = this.addWeight(
      'embeddings',
      [this.inputDim, this.outputDim],
      this.embeddingsInitializer,
    );
    if (this.inputLength !== null) this.inputSpec = { ndim: 2, axes: { 1: this.inputLength } };
  }

  /** Keras's `compute_mask`: `inputs != 0` with maskZero, otherwise no mask. */
  override computeMask(x: Tensor): Tensor | null {
    return this.maskZero ? ops.ne(x, 0) : null;
  }

  protected call(x: Tensor): Tensor {
    // Keras casts ids to int32; float ids (e.g. from tf.constant) are truncated the same way.
    const ids = x.dtype === 'int32' ? x : ops.cast(x, 'int32');
    return ops.embedding(ids, this.embeddings as Tensor);
  }
}
