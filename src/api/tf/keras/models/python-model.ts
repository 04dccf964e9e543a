/**
 * The TS side of a Keras model subclassed in Python (`class MyModel(tf.keras.Model)`,
 * tensorflow/keras/_subclassing.py): a Model whose `build` and `call` are the Python methods
 * (PythonHooks, called synchronously), whose layers are the ones the Python object holds as
 * attributes (in assignment order), and whose compile, fit, evaluate, predict, weights and files
 * are Model's. Its summary shows "multiple" output shapes, as Keras's does for a subclassed model
 * (its layers were called inside `call`, not connected in a graph).
 */
import type { Tensor } from '../../../../engine';
import { writeOutput } from '../../../../engine/training';
import { bindArgs } from '../../../args';
import { ValueError } from '../../../tf-config';
import { getInitializer } from '../initializers';
import { Layer, toSnakeCase, toTensor, type CallOptions, type ShapeSpec } from '../layers/layer';
import {
  bindAddWeight,
  countTrackedParams,
  freshWeightName,
  trainingOf,
  TrackedLayers,
  type PythonHooks,
  type PythonWeightOwner,
} from '../layers/python-layer';
import { uniqueName } from '../naming';
import { Model } from './model';
import { summaryLines, type SummaryOptions } from './summary';

/** A plain Layer holding a Python model's own `add_weight` weights (Layer.addWeight is protected). */
class OwnWeights extends Layer {
  constructor(name: string) {
    super('Weights', { name });
  }

  computeOutputShape(shape: ShapeSpec): ShapeSpec {
    return shape;
  }

  protected call(x: Tensor): Tensor {
    return x;
  }

  add(name: string, shape: number[], initializer: unknown, trainable: boolean): Tensor {
    const init = getInitializer(initializer, `${this.name}.add_weight: initializer`);
    return this.addWeight(name, shape, init, trainable);
  }
}

const NOT_BUILT =
  'This model has not yet been built. Build the model first by calling `build()` or calling ' +
  '`fit()` with some data, or specify an `input_shape` argument in the first layer(s) for ' +
  'automatic build.';

export class PythonModel extends Model implements PythonWeightOwner {
  readonly tracked = new TrackedLayers();
  /** The Python object's number (tensorflow/_js_object.py OWNERS): Python gets its own object back. */
  pythonOwner: number | null = null;
  private readonly hooks: PythonHooks;
  private readonly own: OwnWeights;

  /** `new PythonModel(className, hooks, ...Keras Model.__init__ keyword arguments)`. */
  constructor(className: string, hooks: PythonHooks, ...args: unknown[]) {
    const a = bindArgs({ name: className, params: [], keywordOnly: ['name', 'trainable'] }, args);
    const name = a.name ?? uniqueName(toSnakeCase(className));
    super({ name, trainable: a.trainable });
    // A Python class's name, not this TS class's (which Model would show).
    (this as { className: string }).className = className;
    this.hooks = hooks;
    this.own = new OwnWeights(String(name));
  }

  /** Keras's `add_weight` on a model (weights of its own, besides its layers'). */
  addPythonWeight(...args: unknown[]): Tensor {
    const w = bindAddWeight(this.className, args);
    const taken = this.namedWeights.map((n) => n.name);
    const name = freshWeightName(taken, this.name, w.name ?? 'Variable');
    return this.own.add(name, w.shape, w.initializer, w.trainable);
  }

  override get layers(): Layer[] {
    return this.tracked.layers;
  }

  override get trainableWeights(): Tensor[] {
    if (!this.trainable) return [];
    const vars = this.tracked.split(this.name, true)[0];
    return [...this.own.trainableWeights, ...vars, ...super.trainableWeights];
  }

  override get nonTrainableWeights(): Tensor[] {
    const vars = this.tracked.split(this.name, this.trainable)[1];
    return this.trainable
      ? [...this.own.nonTrainableWeights, ...vars, ...super.nonTrainableWeights]
      : // Model's own getter would ask `weights`, which asks this one: the layers' weights here.
        [...this.own.weights, ...vars, ...this.layers.flatMap((l) => l.weights)];
  }

  override get namedWeights(): Layer['namedWeights'] {
    return [...this.own.namedWeights, ...this.tracked.variables(this.name), ...super.namedWeights];
  }

  override countParams(): number {
    return countTrackedParams(this);
  }

  /** Keras's `build(input_shape)` run once: the Python build (which may create weights). */
  override build(inputShape: ShapeSpec): void {
    if (this.built) return;
    this.hooks.build([...inputShape]);
    this.built = true;
  }

  protected override invoke(inputs: unknown, options?: CallOptions): Tensor {
    const training = trainingOf(options);
    const [x] = this.pythonEnter(inputs);
    return this.pythonExit(x, this.hooks.call(x, training, null));
  }

  /** The first half of a call Python makes itself (python-layer.ts says why): build, move. */
  pythonEnter(inputs: unknown): [Tensor, null] {
    let x = toTensor(inputs);
    if (!this.built) {
      // Built with the first input's full shape before its first call, as Keras does eagerly
      // (and built even if that call fails, so the weights are made once).
      this.hooks.build([...x.shape]);
      this.built = true;
    }
    const weight = this.weights[0];
    // TensorFlow copies inputs to the variables' device; our ops require one device.
    if (weight && x.deviceObject !== weight.deviceObject) x = x.to(weight.deviceObject);
    return [x, null];
  }

  pythonExit(_x: Tensor, y: Tensor): Tensor {
    this.built = true;
    return y;
  }

  protected override call(x: Tensor, training: boolean): Tensor {
    return this.hooks.call(x, training, null);
  }

  override summary(options: SummaryOptions = {}): void {
    const print = options.printFn ?? writeOutput;
    for (const line of this.summaryLines(options)) print(line);
  }

  override summaryText(options: Omit<SummaryOptions, 'printFn'> = {}): string {
    return this.summaryLines(options).join('\n');
  }

  private summaryLines(options: SummaryOptions): string[] {
    if (!this.built) throw new ValueError(NOT_BUILT);
    // Keras's layers of a subclassed model have no one output shape (they are called in `call`).
    return summaryLines(this.name, this.layers, options, () => 'multiple');
  }
}
