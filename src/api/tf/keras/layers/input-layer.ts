/**
 * `keras.Input(shape)` and `InputLayer`: the start of a functional graph. `Input` makes an
 * InputLayer and returns its symbolic output, a KerasTensor of shape `[batchSize, ...shape]`
 * (null for an unknown batch). As the first element of a `Sequential([...])` it sets the input
 * shape (sequential.ts), as in Keras.
 */
import { parseDType, type DType, type Tensor } from '../../../../engine';
import { asInt, bindArgs, describe } from '../../../args';
import { KerasValueError } from '../engine/errors';
import { KerasTensor, type SymbolicShape } from '../engine/keras-tensor';
import { addNode } from '../engine/symbolic-call';
import { uniqueName } from '../naming';
import { Layer, type ShapeSpec } from './layer';

function sizes(value: unknown, what: string): (number | null)[] {
  // Python's None inside a tuple arrives as undefined.
  const given = typeof value === 'number' ? [value] : value;
  const list = Array.isArray(given)
    ? given.map((d: unknown) => (d === undefined ? null : d))
    : given;
  if (!Array.isArray(list) || !list.every((d) => d === null || (Number.isInteger(d) && d >= 0))) {
    throw new TypeError(`${what} must be a tuple of sizes (None for any), got ${describe(value)}`);
  }
  return list as (number | null)[];
}

/** A dtype given as a string or as an object with a name (Python's `tf.float32`). */
function dtypeOf(value: unknown): DType {
  if (value === undefined || value === null) return 'float32';
  const name =
    typeof value === 'object' && 'name' in (value as object)
      ? (value as { name: unknown }).name
      : value;
  return parseDType(name, 'Input: dtype');
}

/** TF 2.x Keras names inputs from 1: input_1, input_2, … */
function inputName(): string {
  const base = uniqueName('input');
  const n = base === 'input' ? 0 : Number(base.slice('input_'.length));
  return `input_${n + 1}`;
}

export class InputLayer extends Layer {
  /** The symbolic tensor this layer outputs (Keras's `input_layer.output`). */
  readonly tensor: KerasTensor;
  readonly batchShape: SymbolicShape;
  readonly dtype: DType;

  constructor(...args: unknown[]) {
    const a = bindArgs(
      {
        name: 'InputLayer',
        params: [
          'inputShape',
          'batchSize',
          'dtype',
          'inputTensor',
          'sparse',
          'name',
          'ragged',
          'typeSpec',
        ],
        keywordOnly: ['shape', 'batchShape', 'trainable'],
      },
      args,
    );
    for (const k of ['inputTensor', 'typeSpec'] as const) {
      if (a[k] !== undefined && a[k] !== null)
        throw new TypeError(`InputLayer: ${k} is not supported`);
    }
    for (const k of ['sparse', 'ragged'] as const) {
      if (a[k] === true) throw new TypeError(`InputLayer: ${k} inputs are not supported`);
    }
    const shapeArg = a.shape ?? a.inputShape;
    let batchShape: (number | null)[];
    if (a.batchShape !== undefined && a.batchShape !== null) {
      if (shapeArg !== undefined && shapeArg !== null)
        throw new KerasValueError(
          'Only provide the `shape` OR `batch_shape` argument to Input, not both.',
        );
      batchShape = sizes(a.batchShape, 'InputLayer: batchShape');
    } else {
      if (shapeArg === undefined || shapeArg === null)
        throw new KerasValueError(
          'Please provide to Input a `shape` or a `tensor` or a `type_spec` argument. Note that `shape` does not include the batch dimension.',
        );
      const batch =
        a.batchSize === undefined || a.batchSize === null ? null : asInt(a.batchSize, 'batchSize');
      batchShape = [batch, ...sizes(shapeArg, 'InputLayer: shape')];
    }
    const name = a.name === undefined || a.name === null ? inputName() : String(a.name);
    // The common kwargs' inputShape is this layer's own argument: not passed on as declared shape.
    super('InputLayer', { name, trainable: a.trainable });
    this.batchShape = batchShape;
    this.dtype = dtypeOf(a.dtype);
    this.declaredInputShape = batchShape;
    this.build(batchShape);
    // Keras names an Input's tensor after the layer when given a name, else keras_tensor_N.
    this.tensor = new KerasTensor(batchShape, this.dtype, a.name == null ? undefined : name);
    addNode({ layer: this, args: [], options: null, inputs: [], outputs: this.tensor });
  }

  computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    return inputShape;
  }

  /** An InputLayer's input is its own tensor, as in Keras. */
  override get input(): KerasTensor {
    return this.tensor;
  }

  protected call(x: Tensor): Tensor {
    return x;
  }
}

/**
 * `keras.Input(shape=None, batch_size=None, name=None, dtype=None, sparse=None, tensor=None,
 * ragged=None, type_spec=None, batch_shape=None)`: a symbolic input of `[batch, ...shape]`.
 */
export function Input(...args: unknown[]): KerasTensor {
  const a = bindArgs(
    {
      name: 'Input',
      params: ['shape', 'batchSize', 'name', 'dtype', 'sparse', 'tensor', 'ragged', 'typeSpec'],
      keywordOnly: ['batchShape'],
    },
    args,
  );
  if (a.tensor !== undefined && a.tensor !== null)
    throw new TypeError('Input: tensor is not supported');
  const layer = new InputLayer({
    shape: a.shape,
    batchSize: a.batchSize,
    name: a.name,
    dtype: a.dtype,
    sparse: a.sparse,
    ragged: a.ragged,
    typeSpec: a.typeSpec,
    batchShape: a.batchShape,
  });
  return layer.tensor;
}

/** The InputLayer that made `t`, if `t` is a Keras Input's tensor. */
export function inputLayerOf(t: unknown): InputLayer | null {
  if (!(t instanceof KerasTensor)) return null;
  const layer = t.history?.node.layer;
  return layer instanceof InputLayer ? layer : null;
}
