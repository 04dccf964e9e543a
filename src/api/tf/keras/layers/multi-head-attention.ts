/**
 * Keras `MultiHeadAttention(numHeads, keyDim, { valueDim, dropout, useBias, outputShape,
 * attentionAxes, kernelInitializer, biasInitializer })`, called as
 * `mha(query, value, key?, { attentionMask, returnAttentionScores, training, useCausalMask })`.
 *
 * Keras's weights in Keras's order and layout (its EinsumDense sublayers):
 *   query/kernel [dim_q, heads, key_dim], query/bias [heads, key_dim], key/… (dim_k),
 *   value/kernel [dim_v, heads, value_dim], value/bias [heads, value_dim],
 *   attention_output/kernel [heads, value_dim, ...out], attention_output/bias [...out].
 * Each projection is one matrix product over a reshaped view of its kernel. The query is scaled
 * by 1/√key_dim before the dot product, masked scores get Keras's additive treatment (the
 * engine's fused scale-mask-softmax, ops/scale-mask-softmax.ts), dropout acts on the
 * probabilities when training, and the scores returned are those before dropout, as Keras's.
 * Attention over several axes (inputs of rank > 3) flattens those axes into one sequence:
 * the softmax then runs over all key positions together, which is Keras's joint softmax.
 */
import { ops, ShapeError, type Tensor } from '../../../../engine';
import { scaleMaskSoftmax } from '../../../../engine/ops/scale-mask-softmax';
import { asBool, asInt, asNumber, bindArgs, optional } from '../../../args';
import { ValueError } from '../../../tf-config';
import { isKerasTensor } from '../engine/keras-tensor';
import { getInitializer, type InitializerFn } from '../initializers';
import { bindLayerArgs, formatShapeSpec, Layer, toTensor, type ShapeSpec } from './layer';
import { kerasMask, setKerasMask } from './masking';

export interface AttentionCallOptions {
  key?: unknown;
  attentionMask?: unknown;
  returnAttentionScores?: boolean;
  training?: boolean;
  useCausalMask?: boolean;
}

const CALL_PARAMS = [
  'query',
  'value',
  'key',
  'attentionMask',
  'returnAttentionScores',
  'training',
  'useCausalMask',
];

const product = (dims: readonly number[]): number => dims.reduce((a, b) => a * b, 1);

// Calls may return Keras's (output, scores) pair; the merged signatures say so to TS callers.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface MultiHeadAttention {
  (
    query: unknown,
    value: unknown,
    options: AttentionCallOptions & { returnAttentionScores: true },
  ): [Tensor, Tensor];
  (query: unknown, value: unknown, options?: AttentionCallOptions): Tensor;
  (query: unknown, value: unknown, key: unknown, options?: AttentionCallOptions): Tensor;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class MultiHeadAttention extends Layer {
  readonly numHeads: number;
  readonly keyDim: number;
  readonly valueDim: number;
  readonly dropout: number;
  readonly useBias: boolean;
  /** Keras's `output_shape` argument (the projection's dims), or null for the query's last dim. */
  readonly outputDims: number[] | null;
  private attentionAxesArg: number[] | null;
  private readonly kernelInitializer: InitializerFn;
  private readonly biasInitializer: InitializerFn;
  private pendingShapes: [ShapeSpec, ShapeSpec] | null = null;
  /** The normalised attention axes (input axes), once built. */
  attentionAxes: number[] | null = null;
  /** [kernel, bias] of each projection, bias null without useBias. */
  private projections: Record<
    'query' | 'key' | 'value' | 'output',
    [Tensor, Tensor | null]
  > | null = null;

  constructor(...args: unknown[]) {
    const a = bindLayerArgs(
      'MultiHeadAttention',
      [
        'numHeads',
        'keyDim',
        'valueDim',
        'dropout',
        'useBias',
        'outputShape',
        'attentionAxes',
        'flashAttention',
        'kernelInitializer',
        'biasInitializer',
      ],
      ['seed'],
      args,
    );
    super('MultiHeadAttention', a);
    const name = 'MultiHeadAttention';
    if (a.numHeads === undefined)
      throw new TypeError(`${name}() missing required argument 'numHeads'`);
    if (a.keyDim === undefined) throw new TypeError(`${name}() missing required argument 'keyDim'`);
    this.numHeads = asInt(a.numHeads, `${name}: numHeads`);
    this.keyDim = asInt(a.keyDim, `${name}: keyDim`);
    const valueDim = optional(a.valueDim, asInt, `${name}: valueDim`, 0);
    this.valueDim = valueDim ? valueDim : this.keyDim;
    if (this.numHeads < 1 || this.keyDim < 1 || this.valueDim < 1)
      throw new ValueError(
        `${name}: num_heads, key_dim and value_dim must be positive, got ` +
          `num_heads=${this.numHeads}, key_dim=${this.keyDim}, value_dim=${this.valueDim}`,
      );
    this.dropout = optional(a.dropout, asNumber, `${name}: dropout`, 0);
    if (!(this.dropout >= 0 && this.dropout < 1))
      throw new ValueError(`${name}: dropout must be in [0, 1), got ${this.dropout}`);
    this.useBias = optional(a.useBias, asBool, `${name}: useBias`, true);
    this.outputDims = outputShapeArg(a.outputShape);
    this.attentionAxesArg = attentionAxesArg(a.attentionAxes);
    if (a.flashAttention === true)
      throw new ValueError(`${name}: flash_attention is not available here (use the default)`);
    this.kernelInitializer = getInitializer(
      a.kernelInitializer ?? 'glorot_uniform',
      `${name}: kernelInitializer`,
    );
    this.biasInitializer = getInitializer(a.biasInitializer ?? 'zeros', `${name}: biasInitializer`);
    this.supportsMasking = true;
  }

  /** Keras's `compute_output_shape(query_shape, value_shape, key_shape=None)`. */
  override computeOutputShape(
    queryShape: ShapeSpec,
    valueShape?: ShapeSpec,
    keyShape?: ShapeSpec,
  ): ShapeSpec {
    if (valueShape) checkKeyValue(valueShape, keyShape ?? valueShape);
    return this.outputDims ? [...queryShape.slice(0, -1), ...this.outputDims] : [...queryShape];
  }

  /** Keras's `build(query_shape, value_shape, key_shape=None)`. */
  override build(queryShape: ShapeSpec, valueShape?: ShapeSpec, keyShape?: ShapeSpec): void {
    if (this.built) return;
    if (!valueShape)
      throw new TypeError("MultiHeadAttention.build() missing 1 required argument: 'valueShape'");
    this.pendingShapes = [valueShape, keyShape ?? valueShape];
    super.build(queryShape);
    this.pendingShapes = null;
  }

  /** Functional API: built from the symbolic query, value (and positional key) shapes. */
  override buildSymbolicArgs(positional: readonly unknown[]): void {
    const [query, value, key] = positional;
    if (!this.built && isKerasTensor(query) && isKerasTensor(value))
      this.build(query.shape, value.shape, isKerasTensor(key) ? key.shape : undefined);
  }

  protected override buildWeights(queryShape: ShapeSpec): void {
    const [valueShape, keyShape] = this.pendingShapes ?? [queryShape, queryShape];
    checkKeyValue(valueShape, keyShape);
    const rank = queryShape.length;
    if (rank < 3 || valueShape.length !== rank)
      throw new ValueError(
        `MultiHeadAttention: query and value must have the same rank, at least 3 ` +
          `([batch, ...positions, features]); got ${formatShapeSpec(queryShape)} and ${formatShapeSpec(valueShape)}`,
      );
    this.attentionAxes = normaliseAxes(this.attentionAxesArg, rank);
    const last = (s: ShapeSpec, what: string): number => {
      const d = s[s.length - 1];
      if (d === null)
        throw new ValueError(`MultiHeadAttention: the last dimension of ${what} must be defined`);
      return d;
    };
    const [dq, dk, dv] = [
      last(queryShape, 'query'),
      last(keyShape, 'key'),
      last(valueShape, 'value'),
    ];
    const outDims = this.outputDims ?? [dq];
    const heads = this.numHeads;
    const dense = (name: string, kernel: number[], bias: number[]): [Tensor, Tensor | null] => [
      this.addWeight(`${name}/kernel`, kernel, this.kernelInitializer),
      this.useBias ? this.addWeight(`${name}/bias`, bias, this.biasInitializer) : null,
    ];
    this.projections = {
      query: dense('query', [dq, heads, this.keyDim], [heads, this.keyDim]),
      key: dense('key', [dk, heads, this.keyDim], [heads, this.keyDim]),
      value: dense('value', [dv, heads, this.valueDim], [heads, this.valueDim]),
      output: dense('attention_output', [heads, this.valueDim, ...outDims], outDims),
    };
  }

  protected override invoke(...args: unknown[]): Tensor {
    // Keras returns a tuple with returnAttentionScores; Layer's call type is one Tensor, and the
    // merged call signatures above give TS callers the pair.
    return this.callAttention(...args) as Tensor;
  }

  /** Unused: calls go through invoke, which needs both query and value (as Keras's call does). */
  protected call(): Tensor {
    throw new TypeError(
      "MultiHeadAttention.call() missing 1 required positional argument: 'value'",
    );
  }

  /** The eager call: `(query, value, key?, options)` → output, or [output, scores]. */
  callAttention(...args: unknown[]): Tensor | [Tensor, Tensor] {
    const a = bindArgs({ name: 'MultiHeadAttention', params: CALL_PARAMS }, args);
    if (a.query === undefined || a.value === undefined)
      throw new TypeError(
        "MultiHeadAttention.call() missing required arguments: 'query' and 'value'",
      );
    let query = toTensor(a.query);
    let value = toTensor(a.value);
    const keyGiven = a.key !== undefined && a.key !== null;
    let key = keyGiven ? toTensor(a.key) : value;
    const training = optional(a.training, asBool, 'training', false);
    const returnScores = optional(a.returnAttentionScores, asBool, 'returnAttentionScores', false);
    const causal = optional(a.useCausalMask, asBool, 'useCausalMask', false);
    if (!this.built) {
      const spec = (t: Tensor): ShapeSpec => [null, ...t.shape.slice(1)];
      this.build(spec(query), spec(value), keyGiven ? spec(key) : undefined);
    }
    const p = this.projections as NonNullable<typeof this.projections>;
    this.checkFeatures(query, p.query[0], 'query');
    this.checkFeatures(value, p.value[0], 'value');
    this.checkFeatures(key, p.key[0], 'key');
    checkKeyValue(value.shape, key.shape);
    const queryMask = kerasMask(query);
    const valueMask = kerasMask(value);
    const keyMask = keyGiven && key !== value ? kerasMask(key) : null;
    const device = p.query[0].deviceObject;
    const onDevice = (t: Tensor): Tensor => (t.deviceObject === device ? t : t.to(device));
    [query, value, key] = [onDevice(query), onDevice(value), onDevice(key)];

    const q = ops.mul(project(query, p.query), 1 / Math.sqrt(this.keyDim));
    const k = project(key, p.key);
    const v = project(value, p.value);
    const mask = this.attentionMask(query, value, {
      queryMask,
      valueMask,
      keyMask,
      given: a.attentionMask,
      causal,
      onDevice,
    });
    const [context, scores] = this.attend(q, k, v, mask, training);
    // context [B, ..., heads, value_dim] → the output projection over (heads, value_dim)
    const [wo, bo] = p.output;
    const outDims = wo.shape.slice(2);
    const lead = context.shape.slice(0, -2);
    let out = ops.matmul(
      ops.reshape(context, [-1, this.numHeads * this.valueDim]),
      ops.reshape(wo, [this.numHeads * this.valueDim, product(outDims)]),
    );
    out = ops.reshape(out, [...lead, ...outDims]);
    if (bo) out = ops.add(out, bo);
    if (queryMask) setKerasMask(out, queryMask);
    return returnScores ? [out, scores] : out;
  }

  private checkFeatures(t: Tensor, kernel: Tensor, what: string): void {
    const expected = kernel.shape[0];
    if (t.ndim !== this.inputShape.length || t.shape[t.ndim - 1] !== expected)
      throw new ShapeError(
        `MultiHeadAttention "${this.name}": the ${what} has shape ${formatShapeSpec(t.shape)}; ` +
          `the layer was built for rank ${this.inputShape.length} with ${expected} features`,
      );
  }

  /**
   * softmax(q·kᵀ + mask) over the attention axes, and its product with v. q [B, ..., heads,
   * key_dim] (already scaled), k and v the same over the key positions; returns the context
   * [B, ..., heads, value_dim] and Keras's scores [B, <other axes>, heads, <query axes>, <key axes>].
   */
  private attend(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    mask: Tensor | null,
    training: boolean,
  ): [Tensor, Tensor] {
    const rank = q.ndim - 1; // the input's rank
    const axes = this.attentionAxes as number[];
    const inner = Array.from({ length: rank - 2 }, (_, i) => i + 1);
    const others = inner.filter((i) => !axes.includes(i));
    const heads = rank - 1; // the heads axis of a projection [B, ...positions, heads, size]
    // [B, <others>, heads, <attention axes>, channels], flattened to [B', heads, T, channels]
    const order = [0, ...others, heads, ...axes, rank];
    const flat = (t: Tensor): Tensor =>
      ops.reshape(ops.permute(t, order), [
        -1,
        this.numHeads,
        product(axes.map((i) => t.shape[i])),
        t.shape[rank],
      ]);
    const [qf, kf, vf] = [flat(q), flat(k), flat(v)];
    const otherDims = [q.shape[0], ...others.map((i) => q.shape[i])];
    const queryDims = axes.map((i) => q.shape[i]);
    const keyDims = axes.map((i) => k.shape[i]);
    const scoresShape = [...otherDims, this.numHeads, ...queryDims, ...keyDims];
    let m: Tensor | null = null;
    if (mask) {
      // Keras inserts the head axis before the query positions, then broadcasts.
      let expanded = mask;
      while (expanded.ndim < scoresShape.length)
        expanded = ops.unsqueeze(expanded, -2 * axes.length - 1);
      try {
        expanded = ops.expand(expanded, scoresShape);
      } catch {
        throw new ShapeError(
          `MultiHeadAttention: the attention mask ${formatShapeSpec(mask.shape)} does not broadcast ` +
            `to the attention scores ${formatShapeSpec(scoresShape)}`,
        );
      }
      m = ops.reshape(expanded, [-1, this.numHeads, qf.shape[2], kf.shape[2]]);
    }
    const weights = scaleMaskSoftmax(ops.matmul(qf, ops.transpose(kf, -2, -1)), 1, m, false);
    const dropped =
      this.dropout > 0 && training ? ops.dropout(weights, this.dropout, true) : weights;
    const context = ops.matmul(dropped, vf); // [B', heads, T, value_dim]
    // back to [B, <others>, heads, <attention axes>, value_dim], then the input's axis order
    const unflat = ops.reshape(context, [...otherDims, this.numHeads, ...queryDims, this.valueDim]);
    const inverse = new Array<number>(order.length);
    order.forEach((axis, i) => (inverse[axis] = i));
    return [ops.permute(unflat, inverse), ops.reshape(weights, scoresShape)];
  }

  /** Keras's `_compute_attention_mask`: the masks given and implied, ANDed, as int32 0/1. */
  private attentionMask(
    query: Tensor,
    value: Tensor,
    m: {
      queryMask: Tensor | null;
      valueMask: Tensor | null;
      keyMask: Tensor | null;
      given: unknown;
      causal: boolean;
      onDevice: (t: Tensor) => Tensor;
    },
  ): Tensor | null {
    const parts: Tensor[] = [];
    const bool = (t: Tensor): Tensor => m.onDevice(ops.cast(ops.ne(t, 0), 'int32'));
    if (m.queryMask) parts.push(ops.unsqueeze(bool(m.queryMask), -1)); // [B, T, 1]
    if (m.valueMask) parts.push(ops.unsqueeze(bool(m.valueMask), -2)); // [B, 1, S]
    if (m.keyMask) parts.push(ops.unsqueeze(bool(m.keyMask), -2));
    if (m.causal) {
      const [T, S] = [query.shape[1], value.shape[1]];
      const data = new Int32Array(T * S);
      for (let i = 0; i < T; i++) for (let j = 0; j <= Math.min(i, S - 1); j++) data[i * S + j] = 1;
      parts.push(ops.fromHost(data, [1, T, S], { device: query.deviceObject, dtype: 'int32' }));
    }
    if (m.given !== undefined && m.given !== null) parts.unshift(bool(toTensor(m.given)));
    if (parts.length === 0) return null;
    return parts.reduce((acc, t) => ops.mul(acc, t));
  }
}

/** x [..., features] through a projection kernel [features, ...dims] and bias [...dims]. */
function project(x: Tensor, [kernel, bias]: [Tensor, Tensor | null]): Tensor {
  const input = x.dtype === 'float32' ? x : ops.cast(x, 'float32');
  const dims = kernel.shape.slice(1);
  let y = ops.matmul(
    ops.reshape(input, [-1, kernel.shape[0]]),
    ops.reshape(kernel, [kernel.shape[0], product(dims)]),
  );
  y = ops.reshape(y, [...input.shape.slice(0, -1), ...dims]);
  return bias ? ops.add(y, bias) : y;
}

function checkKeyValue(valueShape: ShapeSpec, keyShape: ShapeSpec): void {
  const inner = (s: ShapeSpec) => s.slice(1, -1);
  const [a, b] = [inner(valueShape), inner(keyShape)];
  if (a.length !== b.length || a.some((d, i) => d !== b[i]))
    throw new ValueError(
      'All dimensions of `value` and `key`, except the last one, must be equal. ' +
        `Received: value_shape=${formatShapeSpec(valueShape)} and key_shape=${formatShapeSpec(keyShape)}`,
    );
}

function outputShapeArg(value: unknown): number[] | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return [asInt(value, 'MultiHeadAttention: outputShape')];
  if (Array.isArray(value) && value.length > 0)
    return value.map((v, i) => asInt(v, `MultiHeadAttention: outputShape[${i}]`));
  throw new ValueError(
    `Invalid \`output_shape\`: ${String(value)}. When specified, the \`output_shape\` should be of type tuple, list, or int.`,
  );
}

function attentionAxesArg(value: unknown): number[] | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return [asInt(value, 'MultiHeadAttention: attentionAxes')];
  if (Array.isArray(value))
    return value.map((v, i) => asInt(v, `MultiHeadAttention: attentionAxes[${i}]`));
  throw new ValueError(
    `\`attention_axes\` must be an int, list, or tuple.Received: attention_axes=${String(value)}`,
  );
}

/**
 * The attention axes as input axes 1..rank−2: all of them by default; a negative axis counts as
 * Keras counts it, from the end of the projected tensor without its last dim (rank + axis).
 */
function normaliseAxes(axes: number[] | null, rank: number): number[] {
  if (axes === null) return Array.from({ length: rank - 2 }, (_, i) => i + 1);
  const normal = axes.map((a) => (a >= 0 ? a : rank + a));
  if (normal.some((a) => a < 1 || a > rank - 2) || new Set(normal).size !== normal.length)
    throw new ValueError(
      `MultiHeadAttention: attention_axes ${JSON.stringify(axes)} must be distinct axes between 1 ` +
        `and ${rank - 2} of inputs of rank ${rank} (not the batch or the feature axis)`,
    );
  return normal;
}
