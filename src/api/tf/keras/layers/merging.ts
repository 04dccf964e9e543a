/**
 * Keras's merging layers, called on a list of tensors: `Add`, `Subtract`, `Multiply`, `Average`,
 * `Maximum`, `Minimum` (element-wise, broadcasting sizes of 1 and lower-rank inputs as Keras's
 * `_Merge` does), `Concatenate(axis)` and `Dot(axes, normalize)`, with their functional forms
 * (`concatenate([a, b])`, `add([...])`, …). Shapes are checked with Keras's (TF 2.x) messages when
 * the layer is first called, symbolically or eagerly; masks are merged as Keras merges them.
 */
import { ops, type Tensor } from '../../../../engine';
import { KerasValueError } from '../engine/errors';
import { asBool, asInt, describe, isOptionsObject, optional } from '../../../args';
import { formatTuple, isKerasTensor } from '../engine/keras-tensor';
import { kerasMask, setKerasMask } from './masking';
import { bindLayerArgs, Layer, toTensor, type CallOptions, type ShapeSpec } from './layer';

const listText = (shapes: readonly ShapeSpec[]): string =>
  `[${shapes.map(formatTuple).join(', ')}]`;

/** The base of the merging layers: a list of inputs in, one tensor out. */
abstract class Merge extends Layer {
  override supportsMasking = true;

  /** Throws Keras's message when these input shapes (batch first) cannot be merged. */
  protected abstract checkShapes(shapes: readonly ShapeSpec[]): void;
  /** The output shape for these input shapes. */
  protected abstract outputFor(shapes: readonly ShapeSpec[]): ShapeSpec;
  /** The merge itself, on checked inputs. */
  protected abstract merge(inputs: Tensor[]): Tensor;

  /** Keras's "should be called on a list" check; the list's tensors (or symbolic shapes). */
  protected inputList<T>(inputs: unknown, convert: (v: unknown) => T): T[] {
    if (!Array.isArray(inputs)) {
      throw new KerasValueError(
        `A merge layer should be called on a list of inputs. Received: inputs=${describe(inputs)} (not a list of tensors)`,
      );
    }
    return inputs.map(convert);
  }

  override buildSymbolicArgs(positional: readonly unknown[]): void {
    const shapes = this.inputList(positional[0], (t) => {
      if (!isKerasTensor(t))
        throw new TypeError(
          `${this.className}: every input must be a Keras tensor, got ${describe(t)}`,
        );
      return t.shape;
    });
    this.checkShapes(shapes);
    this.built = true;
  }

  override computeOutputShape(inputShape: ShapeSpec): ShapeSpec {
    // Keras's compute_output_shape of a merge takes the list of shapes.
    return this.outputFor(inputShape as unknown as ShapeSpec[]);
  }

  protected override invoke(inputs: unknown, options?: CallOptions): Tensor {
    if (isOptionsObject(options) && options.mask !== undefined)
      throw new TypeError(`${this.className}: pass masks along with the tensors, not as mask=`);
    const list = this.inputList(inputs, (v) => toTensor(v));
    this.checkShapes(list.map((t) => t.shape));
    this.built = true;
    const device = list[0].deviceObject;
    const same = list.map((t) => (t.deviceObject === device ? t : t.to(device)));
    const y = this.merge(same);
    const mask = this.mergeMasks(same);
    if (mask) setKerasMask(y, mask);
    return y;
  }

  protected call(x: Tensor): Tensor {
    return x;
  }

  /** Keras's _Merge.compute_mask: the masks present, combined with a logical and. */
  protected mergeMasks(inputs: Tensor[]): Tensor | null {
    const masks = inputs.map(kerasMask).filter((m): m is Tensor => m !== null);
    if (masks.length === 0) return null;
    return masks.reduce((a, b) => ops.mul(a, b));
  }
}

/** Shapes without the batch, right-aligned and broadcast (Keras's _compute_elemwise_op_output_shape). */
function elementwiseShape(shape1: ShapeSpec, shape2: ShapeSpec): ShapeSpec {
  if (shape1.length < shape2.length) return elementwiseShape(shape2, shape1);
  const lead = shape1.slice(0, shape1.length - shape2.length);
  const tail = shape1.slice(shape1.length - shape2.length).map((i, k) => {
    const j = shape2[k];
    if (i === null || j === null) return null;
    if (i === 1) return j;
    if (j === 1) return i;
    if (i !== j)
      throw new KerasValueError(
        `Inputs have incompatible shapes. Received shapes ${formatTuple(shape1)} and ${formatTuple(shape2)}`,
      );
    return i;
  });
  return [...lead, ...tail];
}

/** Add, Subtract, Multiply, Average, Maximum, Minimum. */
abstract class ElementwiseMerge extends Merge {
  protected checkShapes(shapes: readonly ShapeSpec[]): void {
    if (shapes.length < 1) {
      throw new KerasValueError(
        `A merge layer should be called on a list of at least 1 input. Got ${shapes.length} inputs. Full input_shape received: ${listText(shapes)}`,
      );
    }
    const batches = new Set(shapes.map((s) => s[0]).filter((b) => b !== null));
    if (batches.size > 1) {
      throw new KerasValueError(
        `Cannot merge tensors with different batch sizes. Got tensors with shapes ${listText(shapes)}`,
      );
    }
    this.outputFor(shapes);
  }

  protected outputFor(shapes: readonly ShapeSpec[]): ShapeSpec {
    let out: ShapeSpec = shapes[0].slice(1);
    for (const s of shapes.slice(1)) out = elementwiseShape(out, s.slice(1));
    const batches = shapes.map((s) => s[0]).filter((b) => b !== null);
    return [batches.length > 0 ? batches[0] : null, ...out];
  }

  /** One element-wise step of the merge. */
  protected abstract combine(a: Tensor, b: Tensor): Tensor;

  protected merge(inputs: Tensor[]): Tensor {
    // Lower-rank inputs get size-1 axes after the batch axis, as Keras expands them.
    const rank = Math.max(...inputs.map((t) => t.ndim));
    const aligned = inputs.map((t) =>
      t.ndim === rank
        ? t
        : ops.reshape(t, [
            t.shape[0],
            ...Array<number>(rank - t.ndim).fill(1),
            ...t.shape.slice(1),
          ]),
    );
    return aligned.slice(1).reduce((acc, t) => this.combine(acc, t), aligned[0]);
  }
}

function mergeConstructor(className: string, args: unknown[]) {
  return bindLayerArgs(className, [], [], args);
}

export class Add extends ElementwiseMerge {
  constructor(...args: unknown[]) {
    super('Add', mergeConstructor('Add', args));
  }

  protected combine(a: Tensor, b: Tensor): Tensor {
    return ops.add(a, b);
  }
}

export class Subtract extends ElementwiseMerge {
  constructor(...args: unknown[]) {
    super('Subtract', mergeConstructor('Subtract', args));
  }

  protected override checkShapes(shapes: readonly ShapeSpec[]): void {
    if (shapes.length !== 2) {
      throw new KerasValueError(
        `A \`Subtract\` layer should be called on exactly 2 inputs. Received: input_shape=${listText(shapes)}`,
      );
    }
    super.checkShapes(shapes);
  }

  protected combine(a: Tensor, b: Tensor): Tensor {
    return ops.sub(a, b);
  }
}

export class Multiply extends ElementwiseMerge {
  constructor(...args: unknown[]) {
    super('Multiply', mergeConstructor('Multiply', args));
  }

  protected combine(a: Tensor, b: Tensor): Tensor {
    return ops.mul(a, b);
  }
}

export class Average extends ElementwiseMerge {
  constructor(...args: unknown[]) {
    super('Average', mergeConstructor('Average', args));
  }

  protected combine(a: Tensor, b: Tensor): Tensor {
    return ops.add(a, b);
  }

  protected override merge(inputs: Tensor[]): Tensor {
    return ops.div(super.merge(inputs), inputs.length);
  }
}

export class Maximum extends ElementwiseMerge {
  constructor(...args: unknown[]) {
    super('Maximum', mergeConstructor('Maximum', args));
  }

  protected combine(a: Tensor, b: Tensor): Tensor {
    return ops.maximum(a, b);
  }
}

export class Minimum extends ElementwiseMerge {
  constructor(...args: unknown[]) {
    super('Minimum', mergeConstructor('Minimum', args));
  }

  protected combine(a: Tensor, b: Tensor): Tensor {
    return ops.minimum(a, b);
  }
}

/** `Concatenate(axis=-1)`: joins the inputs along `axis`; the other sizes must agree. */
export class Concatenate extends Merge {
  readonly axis: number;

  constructor(...args: unknown[]) {
    const a = bindLayerArgs('Concatenate', ['axis'], [], args);
    super('Concatenate', a);
    this.axis = optional(a.axis, asInt, 'Concatenate: axis', -1);
  }

  private axisOf(ndim: number): number {
    return this.axis < 0 ? ndim + this.axis : this.axis;
  }

  protected checkShapes(shapes: readonly ShapeSpec[]): void {
    const error = (): KerasValueError =>
      new KerasValueError(
        `A \`Concatenate\` layer requires inputs with matching shapes except for the concatenation axis. Received: input_shape=${listText(shapes)}`,
      );
    if (shapes.length < 1) {
      throw new KerasValueError(
        `A \`Concatenate\` layer should be called on a list of at least 1 input. Received: input_shape=${listText(shapes)}`,
      );
    }
    const ranks = new Set(shapes.map((s) => s.length));
    if (ranks.size !== 1) throw error();
    const ndim = shapes[0].length;
    const axis = this.axisOf(ndim);
    if (axis < 0 || axis >= ndim) throw error();
    for (let d = 0; d < ndim; d++) {
      if (d === axis) continue;
      const sizes = new Set(shapes.map((s) => s[d]).filter((v) => v !== null));
      if (sizes.size > 1) throw error();
    }
  }

  protected outputFor(shapes: readonly ShapeSpec[]): ShapeSpec {
    const axis = this.axisOf(shapes[0].length);
    return shapes[0].map((d, i) => {
      if (i !== axis) return shapes.map((s) => s[i]).find((v) => v !== null) ?? null;
      const sizes = shapes.map((s) => s[axis]);
      return sizes.includes(null) ? null : (sizes as number[]).reduce((x, y) => x + y, 0);
    });
  }

  protected merge(inputs: Tensor[]): Tensor {
    return ops.cat(inputs, this.axisOf(inputs[0].ndim));
  }

  /**
   * Keras's Concatenate.compute_mask: inputs without a mask count as all present; along the last
   * axis the masks are and-ed, along an earlier axis they are joined.
   */
  protected override mergeMasks(inputs: Tensor[]): Tensor | null {
    const masks = inputs.map(kerasMask);
    const present = masks.find((m): m is Tensor => m !== null);
    if (!present) return null;
    const full = masks.map(
      (m, i) =>
        m ??
        ops.ones(inputs[i].shape.slice(0, -1), {
          device: present.deviceObject,
          dtype: present.dtype,
        }),
    );
    const axis = this.axisOf(inputs[0].ndim);
    if (axis === inputs[0].ndim - 1) return full.reduce((a, b) => ops.mul(a, b));
    return ops.cat(full, axis);
  }
}

/** `Dot(axes, normalize=False)`: Keras's batch_dot of two inputs over `axes` (cosine if normalized). */
export class Dot extends Merge {
  readonly axes: number | [number, number];
  readonly normalize: boolean;

  constructor(...args: unknown[]) {
    const a = bindLayerArgs('Dot', ['axes', 'normalize'], [], args);
    super('Dot', a);
    if (typeof a.axes === 'number') this.axes = asInt(a.axes, 'Dot: axes');
    else if (Array.isArray(a.axes) && a.axes.length === 2)
      this.axes = [asInt(a.axes[0], 'Dot: axes'), asInt(a.axes[1], 'Dot: axes')];
    else
      throw new TypeError(
        `Invalid format for argument \`axes\`: expected an int or a list of 2 ints. Received: axes=${describe(a.axes)}`,
      );
    this.normalize = optional(a.normalize, asBool, 'Dot: normalize', false);
  }

  private axesFor(shapes: readonly ShapeSpec[]): [number, number] {
    const [n1, n2] = [shapes[0].length, shapes[1].length];
    const [a1, a2] = typeof this.axes === 'number' ? [this.axes, this.axes] : this.axes;
    return [a1 < 0 ? ((a1 % n1) + n1) % n1 : a1, a2 < 0 ? ((a2 % n2) + n2) % n2 : a2];
  }

  protected checkShapes(shapes: readonly ShapeSpec[]): void {
    if (shapes.length !== 2) {
      throw new KerasValueError(
        `A \`Dot\` layer should be called on a list of 2 inputs. Received: input_shape=${listText(shapes)}`,
      );
    }
    const [s1, s2] = shapes;
    const [a1, a2] = this.axesFor(shapes);
    if (a1 === 0 || a2 === 0)
      throw new KerasValueError('Dot: the batch axis (0) cannot be contracted');
    if (s1[a1] !== null && s2[a2] !== null && s1[a1] !== s2[a2]) {
      throw new KerasValueError(
        `Incompatible input shapes: axis values ${s1[a1]} (at axis ${a1}) != ${s2[a2]} (at axis ${a2}). Full input shapes: ${formatTuple(s1)}, ${formatTuple(s2)}`,
      );
    }
  }

  protected outputFor(shapes: readonly ShapeSpec[]): ShapeSpec {
    const [a1, a2] = this.axesFor(shapes);
    const rest1 = shapes[0].filter((_, i) => i !== a1);
    const rest2 = shapes[1].filter((_, i) => i !== a2 && i !== 0);
    const out = [...rest1, ...rest2];
    return out.length === 1 ? [out[0], 1] : out;
  }

  protected merge(inputs: Tensor[]): Tensor {
    let [x, y] = inputs;
    const [a1, a2] = this.axesFor([x.shape, y.shape]);
    if (this.normalize) {
      // tf.linalg.l2_normalize: x / sqrt(max(sum(x²), 1e-12)).
      const unit = (t: Tensor, axis: number): Tensor =>
        ops.div(t, ops.sqrt(ops.clamp(ops.sum(ops.square(t), [axis], true), 1e-12, null)));
      x = unit(x, a1);
      y = unit(y, a2);
    }
    const out = this.outputFor([x.shape, y.shape]) as number[];
    const n = x.shape[a1];
    const xm = ops.reshape(ops.movedim(x, a1, -1), [x.shape[0], -1, n]);
    const ym = ops.reshape(ops.movedim(y, a2, 1), [y.shape[0], n, -1]);
    return ops.reshape(ops.matmul(xm, ym), out);
  }
}

type LayerClass = new (...args: unknown[]) => Layer;

/** Keras's functional forms: `concatenate(inputs, axis=-1, **kwargs)` builds the layer and calls it. */
function functionalForm(cls: LayerClass, params: readonly string[]) {
  return (inputs: unknown, ...rest: unknown[]): Tensor => {
    const tail = rest[rest.length - 1];
    const kwargs = isOptionsObject(tail) ? { ...tail } : {};
    const positional = isOptionsObject(tail) ? rest.slice(0, -1) : rest;
    positional.forEach((v, i) => {
      if (i < params.length) (kwargs as Record<string, unknown>)[params[i]] = v;
    });
    return new cls(kwargs)(inputs);
  };
}

export const add = functionalForm(Add, []);
export const subtract = functionalForm(Subtract, []);
export const multiply = functionalForm(Multiply, []);
export const average = functionalForm(Average, []);
export const maximum = functionalForm(Maximum, []);
export const minimum = functionalForm(Minimum, []);
export const concatenate = functionalForm(Concatenate, ['axis']);
export const dot = functionalForm(Dot, ['axes', 'normalize']);
