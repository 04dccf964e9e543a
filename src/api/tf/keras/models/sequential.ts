/**
 * `tf.keras.models.Sequential`: a stack of layers, built as soon as the first layer knows its
 * input shape (`inputLength`, `inputShape`) or else on the first call; callable with
 * `model(x, { training })`, with Keras's summary, weights and the training methods of Model.
 */
import { ShapeError, type Tensor } from '../../../../engine';
import { bindArgs, describe, isOptionsObject } from '../../../args';
import { Layer, toTensor, type CallOptions, type ShapeSpec } from '../layers/layer';
import type { KerasTensor } from '../engine/keras-tensor';
import { InputLayer, inputLayerOf } from '../layers/input-layer';
import { Model } from './model';

export class Sequential extends Model {
  static override readonly kerasClassName: string = 'Sequential';
  private readonly stack: Layer[] = [];

  constructor(...args: unknown[]) {
    const a = bindArgs({ name: 'Sequential', params: ['layers', 'name'] }, args);
    super({ name: a.name });
    if (a.layers !== undefined && a.layers !== null) {
      if (!Array.isArray(a.layers))
        throw new TypeError(
          `Sequential: layers must be a list of layers, got ${describe(a.layers)}`,
        );
      for (const layer of a.layers) this.add(layer as Layer);
    }
  }

  /** The layers, in order (a copy: use add/pop to change the model). */
  override get layers(): Layer[] {
    return [...this.stack];
  }

  /** Appends a layer; with a known input shape it is built at once, as in Keras. */
  add(layer: Layer | KerasTensor): void {
    // Keras: `keras.Input(shape)` (or an InputLayer) first in the stack sets the input shape.
    const input = layer instanceof InputLayer ? layer : inputLayerOf(layer);
    if (input) {
      if (this.stack.length > 0)
        throw new TypeError(
          `Sequential: an Input may only come first (the model already has ${this.stack.length} layers)`,
        );
      this.declaredInputShape = input.batchShape;
      return;
    }
    if (!(layer instanceof Layer)) {
      throw new TypeError(
        `The added layer must be an instance of class Layer. Received: layer=${describe(layer)}`,
      );
    }
    if (this.stack.includes(layer))
      throw new Error(`The layer "${layer.name}" is already in this model`);
    if (this.stack.length === 0 && layer.declaredInputShape) {
      this.declaredInputShape = layer.declaredInputShape;
    }
    this.stack.push(layer);
    if (this.declaredInputShape) this.buildStack(this.declaredInputShape, this.stack.length - 1);
  }

  /** Removes the last layer. */
  pop(): Layer {
    const layer = this.stack.pop();
    if (!layer) throw new TypeError('There are no layers in the model.');
    return layer;
  }

  /** Keras's `build(input_shape)`, batch first (null for any batch size). */
  override build(inputShape?: ShapeSpec): void {
    const shape = inputShape ?? this.declaredInputShape;
    if (!shape) throw new Error('You must provide an `inputShape` argument.');
    this.buildStack(shape, 0);
  }

  /** Built for a symbolic input when used as a layer of a functional model. */
  override buildSymbolic(inputShape: ShapeSpec): void {
    if (!this.built) this.build(inputShape);
  }

  private buildStack(inputShape: ShapeSpec, from: number): void {
    let shape = inputShape;
    for (let i = 0; i < this.stack.length; i++) {
      const layer = this.stack[i];
      if (i >= from && !layer.built) layer.build(shape);
      shape = layer.outputShape;
    }
    this.built = this.stack.length > 0 && this.stack.every((l) => l.built);
  }

  get inputShapeSpec(): ShapeSpec {
    if (!this.built) throw notBuilt();
    return this.stack[0].inputShape;
  }

  override computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    let shape = inputShape;
    for (const layer of this.stack)
      shape = layer.built ? layer.outputShape : layer.computeOutputShape(shape);
    return shape;
  }

  override get outputShape(): ShapeSpec {
    if (!this.built) throw notBuilt();
    return this.stack[this.stack.length - 1].outputShape;
  }

  protected override invoke(inputs: unknown, options?: CallOptions): Tensor {
    if (this.stack.length === 0)
      throw new Error('This Sequential model has no layers: add some with model.add(...)');
    const training = isOptionsObject(options) && options.training === true;
    let x = toTensor(inputs);
    if (!this.built) this.buildStack([null, ...x.shape.slice(1)], 0);
    const weight = this.weights[0];
    // TF copies inputs (numpy arrays, tensors) to the variables' device.
    if (weight && x.deviceObject !== weight.deviceObject) x = x.to(weight.deviceObject);
    for (const layer of this.stack) x = layer(x, { training });
    return x;
  }

  protected override call(x: Tensor, training: boolean): Tensor {
    return this.invoke(x, { training });
  }
}

function notBuilt(): Error {
  return new ShapeError(
    'This model has not yet been built. Build the model first by calling `build()` or by calling ' +
      'the model on a batch of data (or give the first layer an `inputShape` / `inputLength`).',
  );
}
