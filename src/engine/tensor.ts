/**
 * The Tensor: a strided view of reference-counted device memory, with an optional autograd node.
 * Its core (memory, autograd state, lifetime) is TensorBase (tensor-base.ts), which ops build on;
 * its methods, defined here, are the cell API's tensor members (API.md): each parses the calling
 * convention and hands over to one op in `ops/`, where shape rules, forward and backward live.
 * This module imports the ops and the ops import only the core, so there is no import cycle; the
 * methods land on the one class's prototype as this module loads.
 */
import { asBool, asDims, asInt, asShape, bindArgs, isOptionsObject, optional } from './args';
import type { DType, TypedArray } from './backend';
import { backward } from './backward';
import type { Device } from './devices/device';
import type { DeviceSpec } from './devices/device-name';
import { getDevice } from './devices/registry';
import { isDTypeName, parseDType } from './dtype';
import { BINARY_OPS, opsWithFace, UNARY_OPS, type WithFace } from './elementwise-table';
import { touch } from './memory';
import * as broadcast from './ops/broadcast';
import * as elementwise from './ops/elementwise';
import * as indexOps from './ops/index-ops';
import * as einsumOps from './ops/einsum';
import * as inplace from './ops/inplace';
import * as inplaceGraph from './ops/inplace-graph';
import * as linalg from './ops/matmul';
import * as masks from './ops/masks';
import * as nnOps from './ops/nn';
import * as reduce from './ops/reduce';
import * as sampling from './ops/multinomial';
import * as scanOps from './ops/scan';
import * as shapeOps from './ops/shape-ops';
import * as sortOps from './ops/sort';
import * as splitOps from './ops/split';
import * as statistics from './ops/statistics';
import { toDevice } from './ops/transfer';
import { numel } from './shape';
import { TensorBase } from './tensor-base';

export type Scalar = number;
export type NestedNumbers = number | NestedNumbers[];
/** `dim` arguments: one dim, several dims, or (for most reductions) all when omitted. */
export type Dims = number | number[];

/**
 * torch's `max(dim)` result: named fields like PyTorch's namedtuple, and destructurable and
 * indexable as a pair (`const [values, indices] = t.max(1)`).
 */
export class ValuesIndices {
  readonly length = 2;
  readonly 0: Tensor;
  readonly 1: Tensor;
  constructor(
    readonly values: Tensor,
    readonly indices: Tensor,
    /** The op that made it, as PyTorch names its result type (torch.return_types.sort). */
    readonly kind = 'max',
  ) {
    this[0] = values;
    this[1] = indices;
  }
  *[Symbol.iterator](): IterableIterator<Tensor> {
    yield this.values;
    yield this.indices;
  }
}

export interface ReduceOptions {
  dim?: Dims;
  keepdim?: boolean;
}

/** Options naming one dim (max/min with a dim return values and indices). */
export interface DimOptions {
  dim: number;
  keepdim?: boolean;
}

/** The members of Tensor that call ops; copied onto TensorBase's prototype below (exported so
 * declarations can name the type; never constructed itself). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the interface below adds the table's methods
export class TensorMethods extends TensorBase {
  /** Computes gradients of this tensor w.r.t. every leaf that requires grad, into `.grad`. */
  backward(...args: unknown[]): void {
    const a = bindArgs(SIG.backward, args);
    if (a.createGraph)
      throw new Error('backward: createGraph (higher-order gradients) is not supported');
    const gradient =
      a.gradient === undefined || a.gradient === null ? null : asTensor(a.gradient, 'gradient');
    backward(this, gradient, optional(a.retainGraph, asBool, 'retainGraph', false));
  }
  /** The values as a typed array in row-major order. */
  async data(): Promise<TypedArray> {
    touch(this.res);
    const backend = this.deviceObject.backend;
    const n = this.numel();
    if (this.isContiguous())
      return backend.read(this.res.storage.buffer, this.dtype, this.offset, n);
    const copy = shapeOps.clone(this.detach());
    try {
      return await backend.read(copy.res.storage.buffer, this.dtype, 0, n);
    } finally {
      copy.dispose();
    }
  }

  async item(): Promise<number> {
    const n = this.numel();
    if (n !== 1) throw new Error(`a Tensor with ${n} elements cannot be converted to Scalar`);
    return (await this.data())[0];
  }

  async tolist(): Promise<NestedNumbers> {
    const flat = Array.from(await this.data());
    const build = (dim: number, start: number): NestedNumbers => {
      if (dim === this.shape.length) return flat[start];
      const inner = numel(this.shape.slice(dim + 1));
      return Array.from({ length: this.shape[dim] }, (_, i) => build(dim + 1, start + i * inner));
    };
    return build(0, 0);
  }
  // -------------------------------------------------------------------------------------------
  // Devices and dtypes.

  /** `to(device)`, `to(dtype)`, `to(device, dtype)`, `to(otherTensor)` or `to({ device, dtype })`. */
  to(...args: unknown[]): Tensor {
    let device: Device | null = null;
    let dtype: DType | null = null;
    for (const arg of args) {
      if (arg === undefined || arg === null) continue;
      if (arg instanceof Tensor) {
        device = arg.deviceObject;
        dtype = arg.dtype;
      } else if (typeof arg === 'string' && isDTypeName(arg)) dtype = parseDType(arg);
      else if (isOptionsObject(arg) && !('name' in arg)) {
        const o = bindArgs(SIG.to, [arg]);
        if (o.device !== undefined) device = getDevice(o.device as DeviceSpec);
        if (o.dtype !== undefined) dtype = parseDType(o.dtype, 'to');
      } else device = getDevice(arg as DeviceSpec);
    }
    const cast = dtype !== null && dtype !== this.dtype ? elementwise.cast(this, dtype) : this;
    return device !== null ? toDevice(cast, device) : cast;
  }

  cuda(device: DeviceSpec | number = 'gpu:0'): Tensor {
    return toDevice(this, getDevice(typeof device === 'number' ? `gpu:${device}` : device));
  }

  cpu(): Tensor {
    return toDevice(this, getDevice('cpu'));
  }

  float(): Tensor {
    return elementwise.cast(this, 'float32');
  }

  int(): Tensor {
    return elementwise.cast(this, 'int32');
  }

  /** int64 does not exist on WebGPU: long() gives int32, enough for labels and indices. */
  long(): Tensor {
    return elementwise.cast(this, 'int32');
  }

  type(dtype?: string): Tensor | string {
    return dtype === undefined ? this.dtype : elementwise.cast(this, parseDType(dtype, 'type'));
  }

  // -------------------------------------------------------------------------------------------
  // Element-wise.

  add(other: Tensor | Scalar, options?: { alpha?: number }): Tensor {
    const alpha = options?.alpha ?? 1;
    return elementwise.add(this, alpha === 1 ? other : elementwise.mul(other, alpha));
  }
  sub(other: Tensor | Scalar, options?: { alpha?: number }): Tensor {
    const alpha = options?.alpha ?? 1;
    return elementwise.sub(this, alpha === 1 ? other : elementwise.mul(other, alpha));
  }
  clamp(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.clamp, args);
    return elementwise.clamp(
      this,
      optional(a.min, asNum, 'min', null),
      optional(a.max, asNum, 'max', null),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Reductions: t.sum(), t.sum(1), t.sum(1, true), t.sum({ dim: 1, keepdim: true }).

  sum(dim?: Dims | ReduceOptions, keepdim?: boolean | ReduceOptions): Tensor {
    const [d, k] = reduceArgs('sum', [dim, keepdim]);
    return reduce.sum(this, d, k);
  }
  mean(dim?: Dims | ReduceOptions, keepdim?: boolean | ReduceOptions): Tensor {
    const [d, k] = reduceArgs('mean', [dim, keepdim]);
    return reduce.mean(this, d, k);
  }
  /** Without dim: the maximum (a 0-d tensor). With dim: [values, indices], as in PyTorch. */
  max(): Tensor;
  max(other: Tensor): Tensor;
  max(dim: number | DimOptions, keepdim?: boolean | ReduceOptions): ValuesIndices;
  max(
    dim?: number | Tensor | ReduceOptions,
    keepdim?: boolean | ReduceOptions,
  ): Tensor | ValuesIndices {
    if (dim instanceof Tensor) return elementwise.maximum(this, dim);
    const [d, k] = reduceArgs('max', [dim, keepdim]);
    if (d === undefined) return reduce.amax(this, undefined, false);
    return valuesIndices(reduce.amax(this, d, k), reduce.argmax(this, asInt(d, 'max: dim'), k));
  }
  min(): Tensor;
  min(other: Tensor): Tensor;
  min(dim: number | DimOptions, keepdim?: boolean | ReduceOptions): ValuesIndices;
  min(
    dim?: number | Tensor | ReduceOptions,
    keepdim?: boolean | ReduceOptions,
  ): Tensor | ValuesIndices {
    if (dim instanceof Tensor) return elementwise.minimum(this, dim);
    const [d, k] = reduceArgs('min', [dim, keepdim]);
    if (d === undefined) return reduce.amin(this, undefined, false);
    return valuesIndices(
      reduce.amin(this, d, k),
      reduce.argmin(this, asInt(d, 'min: dim'), k),
      'min',
    );
  }
  amax(dim?: Dims | ReduceOptions, keepdim?: boolean | ReduceOptions): Tensor {
    const [d, k] = reduceArgs('amax', [dim, keepdim]);
    return reduce.amax(this, d, k);
  }
  amin(dim?: Dims | ReduceOptions, keepdim?: boolean | ReduceOptions): Tensor {
    const [d, k] = reduceArgs('amin', [dim, keepdim]);
    return reduce.amin(this, d, k);
  }
  argmax(dim?: number | ReduceOptions, keepdim?: boolean | ReduceOptions): Tensor {
    const [d, k] = reduceArgs('argmax', [dim, keepdim]);
    return reduce.argmax(this, d === undefined ? undefined : asInt(d, 'argmax: dim'), k);
  }
  argmin(dim?: number | ReduceOptions, keepdim?: boolean | ReduceOptions): Tensor {
    const [d, k] = reduceArgs('argmin', [dim, keepdim]);
    return reduce.argmin(this, d === undefined ? undefined : asInt(d, 'argmin: dim'), k);
  }
  softmax(dim: number | { dim: number }): Tensor {
    return nnOps.softmax(this, dimArg('softmax', dim));
  }
  logSoftmax(dim: number | { dim: number }): Tensor {
    return nnOps.logSoftmax(this, dimArg('logSoftmax', dim));
  }

  // -------------------------------------------------------------------------------------------
  // Linear algebra.

  matmul(other: Tensor): Tensor {
    return linalg.matmul(this, asTensor(other, 'matmul: other'));
  }
  mm(other: Tensor): Tensor {
    return linalg.matmul(this, asTensor(other, 'mm: other'));
  }
  /** Transpose of a tensor with at most 2 dimensions. */
  t(): Tensor {
    return linalg.t(this);
  }

  // -------------------------------------------------------------------------------------------
  // Shapes: reshape(2, 3), reshape([2, 3]), reshape({ shape: [2, 3] }).

  reshape(...shape: unknown[]): Tensor {
    return shapeOps.reshape(this, shapeArg('reshape', 'shape', shape));
  }
  view(...shape: unknown[]): Tensor {
    return shapeOps.view(this, shapeArg('view', 'size', shape));
  }
  flatten(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.flatten, args);
    return shapeOps.flatten(
      this,
      optional(a.startDim, asInt, 'startDim', 0),
      optional(a.endDim, asInt, 'endDim', -1),
    );
  }
  permute(...dims: unknown[]): Tensor {
    return shapeOps.permute(this, shapeArgDims('permute', dims));
  }
  transpose(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.transpose, args);
    return shapeOps.transpose(
      this,
      asInt(a.dim0, 'transpose: dim0'),
      asInt(a.dim1, 'transpose: dim1'),
    );
  }
  squeeze(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.squeeze, args);
    return shapeOps.squeeze(this, a.dim === undefined ? undefined : asDims(a.dim, 'squeeze: dim'));
  }
  unsqueeze(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.unsqueeze, args);
    return shapeOps.unsqueeze(this, asInt(a.dim, 'unsqueeze: dim'));
  }
  expand(...sizes: unknown[]): Tensor {
    return broadcast.expand(this, shapeArg('expand', 'size', sizes));
  }
  expandAs(other: Tensor): Tensor {
    return broadcast.expand(this, other.shape);
  }
  /** Python's x[start:end:step] along one dim (negative indices count from the end). */
  slice(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.slice, args);
    return shapeOps.slice(
      this,
      optional(a.dim, asInt, 'slice: dim', 0),
      optional(a.start, asInt, 'slice: start', null),
      optional(a.end, asInt, 'slice: end', null),
      optional(a.step, asInt, 'slice: step', 1),
    );
  }
  narrow(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.narrow, args);
    const start = asInt(a.start, 'narrow: start');
    return shapeOps.narrow(
      this,
      asInt(a.dim, 'narrow: dim'),
      start,
      asInt(a.length, 'narrow: length'),
    );
  }
  /** x[..., index, ...] along dim (the dim disappears). */
  select(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.select, args);
    return shapeOps.select(this, asInt(a.dim, 'select: dim'), asInt(a.index, 'select: index'));
  }
  indexSelect(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.indexSelect, args);
    return shapeOps.indexSelect(
      this,
      asInt(a.dim, 'indexSelect: dim'),
      asTensor(a.index, 'indexSelect: index'),
    );
  }
  contiguous(): Tensor {
    return shapeOps.contiguous(this);
  }
  clone(): Tensor {
    return shapeOps.clone(this);
  }

  // -------------------------------------------------------------------------------------------
  // In-place updates (for optimizers; they bump the version autograd checks).

  copy_(src: Tensor | Scalar): this {
    inplaceGraph.copyInPlace(this, src);
    return this;
  }
  zero_(): this {
    inplace.fillInto(this, 0);
    return this;
  }
  fill_(value: Scalar): this {
    inplace.fillInto(this, value);
    return this;
  }
  add_(other: Tensor | Scalar, options?: { alpha?: number }): this {
    inplaceGraph.updateInPlace(this, this.add(other, options));
    return this;
  }
  sub_(other: Tensor | Scalar, options?: { alpha?: number }): this {
    inplaceGraph.updateInPlace(this, this.sub(other, options));
    return this;
  }
  mul_(other: Tensor | Scalar): this {
    inplaceGraph.updateInPlace(this, this.mul(other));
    return this;
  }
  div_(other: Tensor | Scalar): this {
    inplaceGraph.updateInPlace(this, this.div(other));
    return this;
  }

  // -------------------------------------------------------------------------------------------
  // Indexing, scans and sorts along a dim (issue 36, area A): ops/index-ops.ts, scan.ts, sort.ts.

  /** gather(dim, index): out[i][j] = this[i][index[i][j]] along dim (index's shape). */
  gather(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.gather, args);
    return indexOps.gather(this, asInt(a.dim, 'gather: dim'), asTensor(a.index, 'gather: index'));
  }
  /** scatterAdd(dim, index, src): a copy with src added at index along dim. */
  scatterAdd(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.scatterAdd, args);
    return indexOps.scatterAdd(
      this,
      asInt(a.dim, 'scatter_add: dim'),
      asTensor(a.index, 'scatter_add: index'),
      asTensor(a.src, 'scatter_add: src'),
    );
  }
  scatterAdd_(...args: unknown[]): this {
    inplace.copyInto(this, this.scatterAdd(...args));
    return this;
  }
  /** scatter(dim, index, src or value): a copy with src (or value) written at index along dim. */
  scatter(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.scatter, args);
    if (a.reduce !== undefined && a.reduce !== null)
      throw new Error(`scatter: reduce='${String(a.reduce)}' is not supported; use scatter_add`);
    const given = a.src ?? a.value;
    const src = given instanceof Tensor ? given : asNum(given, 'scatter: src');
    return indexOps.scatter(
      this,
      asInt(a.dim, 'scatter: dim'),
      asTensor(a.index, 'scatter: index'),
      src,
    );
  }
  scatter_(...args: unknown[]): this {
    inplace.copyInto(this, this.scatter(...args));
    return this;
  }
  /** indexAdd(dim, index, source, { alpha }): a copy with alpha · source added at index along dim. */
  indexAdd(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.indexAdd, args);
    return indexOps.indexAdd(
      this,
      asInt(a.dim, 'index_add: dim'),
      asTensor(a.index, 'index_add: index'),
      asTensor(a.source, 'index_add: source'),
      optional(a.alpha, asNum, 'index_add: alpha', 1),
    );
  }
  indexAdd_(...args: unknown[]): this {
    inplace.copyInto(this, this.indexAdd(...args));
    return this;
  }
  /** takeAlongDim(indices, dim = null): gather with indices broadcast (flattened without dim). */
  takeAlongDim(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.takeAlongDim, args);
    const dim = a.dim === undefined || a.dim === null ? null : asInt(a.dim, 'take_along_dim: dim');
    return indexOps.takeAlongDim(this, asTensor(a.indices, 'take_along_dim: indices'), dim);
  }
  /** maskedFill(mask, value): value where mask is nonzero (mask broadcasts to this shape). */
  maskedFill(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.maskedFill, args);
    const value = a.value instanceof Tensor ? a.value : asNum(a.value, 'masked_fill: value');
    return indexOps.maskedFill(this, asTensor(a.mask, 'masked_fill: mask'), value);
  }
  maskedFill_(...args: unknown[]): this {
    inplace.copyInto(this, this.maskedFill(...args));
    return this;
  }
  /** cumsum(dim, { dtype }): running sums along dim. */
  cumsum(...args: unknown[]): Tensor {
    const a = bindArgs({ ...SIG.scan, name: 'Tensor.cumsum' }, args);
    return scanOps.cumsum(this, asInt(a.dim, 'cumsum: dim'), scanDtype(a.dtype, 'cumsum'));
  }
  /** cumprod(dim, { dtype }): running products along dim. */
  cumprod(...args: unknown[]): Tensor {
    const a = bindArgs({ ...SIG.scan, name: 'Tensor.cumprod' }, args);
    return scanOps.cumprod(this, asInt(a.dim, 'cumprod: dim'), scanDtype(a.dtype, 'cumprod'));
  }
  /** sort(dim = -1, descending = false): [values, indices] (a stable sort). */
  sort(...args: unknown[]): ValuesIndices {
    const a = bindArgs(SIG.sort, args);
    const [values, indices] = sortOps.sort(
      this,
      optional(a.dim, asInt, 'sort: dim', -1),
      optional(a.descending, asBool, 'sort: descending', false),
    );
    return new ValuesIndices(values, indices, 'sort');
  }
  /** argsort(dim = -1, descending = false): the indices that sort along dim. */
  argsort(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.sort, args);
    return sortOps.argsort(
      this,
      optional(a.dim, asInt, 'argsort: dim', -1),
      optional(a.descending, asBool, 'argsort: descending', false),
    );
  }
  /** topk(k, dim = -1, largest = true, sorted = true): the k largest (smallest) and indices. */
  topk(...args: unknown[]): ValuesIndices {
    const a = bindArgs(SIG.topk, args);
    const [values, indices] = sortOps.topk(
      this,
      asInt(a.k, 'topk: k'),
      optional(a.dim, asInt, 'topk: dim', -1),
      optional(a.largest, asBool, 'topk: largest', true),
    );
    return new ValuesIndices(values, indices, 'topk');
  }
  /** kthvalue(k, dim = -1, keepdim = false): the k-th smallest along dim and its index. */
  kthvalue(...args: unknown[]): ValuesIndices {
    const a = bindArgs(SIG.kthvalue, args);
    const [values, indices] = sortOps.kthvalue(
      this,
      asInt(a.k, 'kthvalue: k'),
      optional(a.dim, asInt, 'kthvalue: dim', -1),
      optional(a.keepdim, asBool, 'kthvalue: keepdim', false),
    );
    return new ValuesIndices(values, indices, 'kthvalue');
  }
  /** multinomial(numSamples, replacement = false): category indices drawn from each row. */
  multinomial(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.multinomial, args);
    return sampling.multinomial(
      this,
      asInt(a.numSamples, 'multinomial: num_samples'),
      optional(a.replacement, asBool, 'multinomial: replacement', false),
    );
  }
  /** median(): the lower median of all elements; median(dim, keepdim): [values, indices]. */
  median(...args: unknown[]): Tensor | ValuesIndices {
    const a = bindArgs(SIG.median, args);
    if (a.dim === undefined || a.dim === null) return sortOps.median(this);
    const [values, indices] = sortOps.medianAlong(
      this,
      asInt(a.dim, 'median: dim'),
      optional(a.keepdim, asBool, 'median: keepdim', false),
    );
    return new ValuesIndices(values, indices, 'median');
  }
  /** flip(dims) or flip(d0, d1, …): reversed along each dim. */
  flip(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'Tensor.flip', params: [], rest: 'dims' }, args);
    return indexOps.flip(this, intList(a.dims, 'flip: dims'));
  }
  /** roll(shifts, dims = null): shifted along dims (or flattened), wrapping around. */
  roll(...args: unknown[]): Tensor {
    const a = bindArgs(SIG.roll, args);
    return indexOps.roll(
      this,
      intList(a.shifts, 'roll: shifts'),
      a.dims === undefined || a.dims === null ? [] : intList(a.dims, 'roll: dims'),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Compositions (issue 36, area H): masks, splits, repeats, statistics, einsum's outer.

  tril(...args: unknown[]): Tensor {
    return masks.tril(this, diagonalArg('tril', args));
  }
  triu(...args: unknown[]): Tensor {
    return masks.triu(this, diagonalArg('triu', args));
  }
  tril_(...args: unknown[]): this {
    inplaceGraph.updateInPlace(this, masks.tril(this, diagonalArg('tril_', args)));
    return this;
  }
  triu_(...args: unknown[]): this {
    inplaceGraph.updateInPlace(this, masks.triu(this, diagonalArg('triu_', args)));
    return this;
  }
  diag(...args: unknown[]): Tensor {
    return masks.diag(this, diagonalArg('diag', args));
  }
  trace(): Tensor {
    return masks.trace(this);
  }
  /** Tensor.where(condition, other): this where condition, else other. */
  where(condition: Tensor, other: Tensor | Scalar): Tensor {
    return masks.where(asTensor(condition, 'where: condition'), this, other);
  }
  /** split(size or [sizes], dim = 0): views along dim. */
  split(...args: unknown[]): Tensor[] {
    const a = bindArgs({ name: 'Tensor.split', params: ['splitSize', 'dim'] }, args);
    return splitOps.split(this, sizesArg(a.splitSize, 'split: split_size'), dimOr0(a.dim, 'split'));
  }
  chunk(...args: unknown[]): Tensor[] {
    const a = bindArgs({ name: 'Tensor.chunk', params: ['chunks', 'dim'] }, args);
    return splitOps.chunk(this, asInt(a.chunks, 'chunk: chunks'), dimOr0(a.dim, 'chunk'));
  }
  unbind(...args: unknown[]): Tensor[] {
    const a = bindArgs({ name: 'Tensor.unbind', params: ['dim'] }, args);
    return splitOps.unbind(this, dimOr0(a.dim, 'unbind'));
  }
  tensorSplit(...args: unknown[]): Tensor[] {
    const a = bindArgs({ name: 'Tensor.tensorSplit', params: ['indicesOrSections', 'dim'] }, args);
    const what = 'tensor_split: indices_or_sections';
    return splitOps.tensorSplit(
      this,
      sizesArg(a.indicesOrSections, what),
      dimOr0(a.dim, 'tensor_split'),
    );
  }
  /** repeat(2, 3) or repeat([2, 3]): tiles (a copy, unlike expand). */
  repeat(...sizes: unknown[]): Tensor {
    return splitOps.repeat(this, shapeArg('repeat', 'sizes', sizes));
  }
  repeatInterleave(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'Tensor.repeatInterleave', params: ['repeats', 'dim'], keywordOnly: ['outputSize'] },
      args,
    );
    const dim =
      a.dim === undefined || a.dim === null ? undefined : asInt(a.dim, 'repeat_interleave: dim');
    return splitOps.repeatInterleave(this, asInt(a.repeats, 'repeat_interleave: repeats'), dim);
  }
  outer(other: Tensor): Tensor {
    return einsumOps.outer(this, asTensor(other, 'outer: vec2'));
  }
  logsumexp(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'Tensor.logsumexp', params: ['dim', 'keepdim'] }, args);
    const dim = a.dim === undefined || a.dim === null ? undefined : asDims(a.dim, 'logsumexp: dim');
    return statistics.logsumexp(
      this,
      dim,
      optional(a.keepdim, asBool, 'logsumexp: keepdim', false),
    );
  }
  /** norm(p = 'fro', dim, keepdim): vector norms (p 2/'fro', 1, ±inf, 0 or any number). */
  norm(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'Tensor.norm', params: ['p', 'dim', 'keepdim'], keywordOnly: ['dtype'] },
      args,
    );
    const p = a.p === undefined || a.p === null ? 'fro' : a.p;
    if (p !== 'fro' && typeof p !== 'number')
      throw new Error(`norm: p = ${String(p)} is not supported (only 'fro' and numbers)`);
    const dim = a.dim === undefined || a.dim === null ? undefined : asDims(a.dim, 'norm: dim');
    return statistics.norm(this, p, dim, optional(a.keepdim, asBool, 'norm: keepdim', false));
  }
  /** var(dim, unbiased = true, keepdim = false, { correction }); var(false) is unbiased=false. */
  var(...args: unknown[]): Tensor {
    const [dim, correction, keepdim] = varianceArgs('var', args);
    return statistics.variance(this, dim, correction, keepdim);
  }
  std(...args: unknown[]): Tensor {
    const [dim, correction, keepdim] = varianceArgs('std', args);
    return statistics.std(this, dim, correction, keepdim);
  }
  isclose(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'Tensor.isclose', params: ['other', 'rtol', 'atol', 'equalNan'] },
      args,
    );
    const other = a.other instanceof Tensor ? a.other : asNum(a.other, 'isclose: other');
    return statistics.isclose(
      this,
      other,
      optional(a.rtol, asNum, 'isclose: rtol', 1e-5),
      optional(a.atol, asNum, 'isclose: atol', 1e-8),
      optional(a.equalNan, asBool, 'isclose: equal_nan', false),
    );
  }
  clamp_(...args: unknown[]): this {
    inplaceGraph.updateInPlace(this, this.clamp(...args));
    return this;
  }
  clampMin(min: Scalar): Tensor {
    return elementwise.clamp(this, asNum(min, 'clamp_min: min'), null);
  }
  clampMax(max: Scalar): Tensor {
    return elementwise.clamp(this, null, asNum(max, 'clamp_max: max'));
  }
  clampMin_(min: Scalar): this {
    inplaceGraph.updateInPlace(this, this.clampMin(min));
    return this;
  }
  clampMax_(max: Scalar): this {
    inplaceGraph.updateInPlace(this, this.clampMax(max));
    return this;
  }
  /** Leaves the graph in place: a leaf that does not require grad. */
  detach_(): this {
    inplaceGraph.detachInPlace(this);
    return this;
  }
}

/** The element-wise table's ops with a Tensor face, as methods: t.exp(), t.mul(other). */
type TableMethods = { [K in WithFace<typeof UNARY_OPS, 'tensor'>]: () => Tensor } & {
  [K in WithFace<typeof BINARY_OPS, 'tensor'>]: (other: Tensor | Scalar) => Tensor;
};
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- the loops below define them
export interface TensorMethods extends TableMethods {}

const { unary: unaryMethods, binary: binaryMethods } = opsWithFace('tensor');
for (const op of unaryMethods) {
  const fn = elementwise.unaryOps[op as Exclude<typeof op, 'copy'>];
  Object.defineProperty(TensorMethods.prototype, op, {
    value: function (this: Tensor): Tensor {
      return fn(this);
    },
    writable: true,
    configurable: true,
  });
}
for (const op of binaryMethods) {
  const fn = elementwise.binaryOps[op];
  Object.defineProperty(TensorMethods.prototype, op, {
    value: function (this: Tensor, other: Tensor | Scalar): Tensor {
      return fn(this, other);
    },
    writable: true,
    configurable: true,
  });
}

// Copied as class members are defined (non-enumerable), so a Tensor looks like one class.
for (const name of Object.getOwnPropertyNames(TensorMethods.prototype)) {
  if (name === 'constructor') continue;
  const member = Object.getOwnPropertyDescriptor(TensorMethods.prototype, name);
  if (member) Object.defineProperty(TensorBase.prototype, name, member);
}

/** The tensor type: the core and its methods. */
export type Tensor = TensorMethods;
/** The tensor class (TensorBase, carrying the methods above). */
export const Tensor = TensorBase as typeof TensorMethods;

// ---------------------------------------------------------------------------------------------
// Argument helpers for the methods above.

const SIG = {
  backward: {
    name: 'Tensor.backward',
    params: ['gradient', 'retainGraph', 'createGraph', 'inputs'],
  },
  to: { name: 'Tensor.to', params: ['device', 'dtype', 'nonBlocking', 'copy'] },
  reduce: { name: 'Tensor.reduce', params: ['dim', 'keepdim'], keywordOnly: ['dtype'] },
  clamp: { name: 'Tensor.clamp', params: ['min', 'max'] },
  flatten: { name: 'Tensor.flatten', params: ['startDim', 'endDim'] },
  transpose: { name: 'Tensor.transpose', params: ['dim0', 'dim1'] },
  squeeze: { name: 'Tensor.squeeze', params: ['dim'] },
  unsqueeze: { name: 'Tensor.unsqueeze', params: ['dim'] },
  slice: { name: 'Tensor.slice', params: ['dim', 'start', 'end', 'step'] },
  narrow: { name: 'Tensor.narrow', params: ['dim', 'start', 'length'] },
  select: { name: 'Tensor.select', params: ['dim', 'index'] },
  indexSelect: { name: 'Tensor.indexSelect', params: ['dim', 'index'] },
  // Area A.
  gather: { name: 'Tensor.gather', params: ['dim', 'index'], keywordOnly: ['sparseGrad'] },
  scatterAdd: { name: 'Tensor.scatterAdd', params: ['dim', 'index', 'src'] },
  scatter: {
    name: 'Tensor.scatter',
    params: ['dim', 'index', 'src'],
    keywordOnly: ['value', 'reduce'],
  },
  maskedFill: { name: 'Tensor.maskedFill', params: ['mask', 'value'] },
  scan: { name: 'Tensor.cumsum', params: ['dim'], keywordOnly: ['dtype'] },
  sort: { name: 'Tensor.sort', params: ['dim', 'descending'], keywordOnly: ['stable'] },
  topk: { name: 'Tensor.topk', params: ['k', 'dim', 'largest', 'sorted'] },
  roll: { name: 'Tensor.roll', params: ['shifts', 'dims'] },
  kthvalue: { name: 'Tensor.kthvalue', params: ['k', 'dim', 'keepdim'] },
  multinomial: {
    name: 'Tensor.multinomial',
    params: ['numSamples', 'replacement'],
    keywordOnly: ['generator'],
  },
  indexAdd: { name: 'Tensor.indexAdd', params: ['dim', 'index', 'source'], keywordOnly: ['alpha'] },
  takeAlongDim: { name: 'Tensor.takeAlongDim', params: ['indices', 'dim'] },
  median: { name: 'Tensor.median', params: ['dim', 'keepdim'] },
} as const;

function asTensor(value: unknown, what: string): Tensor {
  if (value instanceof Tensor) return value;
  throw new TypeError(`${what} must be a Tensor`);
}

function asNum(value: unknown, what: string): number {
  if (typeof value !== 'number') throw new TypeError(`${what} must be a number`);
  return value;
}

function reduceArgs(op: string, args: unknown[]): [Dims | undefined, boolean] {
  const a = bindArgs({ ...SIG.reduce, name: `Tensor.${op}` }, args);
  const dim = a.dim === undefined || a.dim === null ? undefined : asDims(a.dim, `${op}: dim`);
  return [dim, optional(a.keepdim, asBool, `${op}: keepdim`, false)];
}

function dimArg(op: string, value: unknown): number {
  const a = bindArgs({ name: `Tensor.${op}`, params: ['dim'], keywordOnly: ['dtype'] }, [value]);
  return asInt(a.dim, `${op}: dim`);
}

/** reshape(2, 3) / reshape([2, 3]) / reshape({ shape: [2, 3] }). */
function shapeArg(op: string, name: string, args: unknown[]): number[] {
  const a = bindArgs({ name: `Tensor.${op}`, params: [], rest: name }, args);
  return asShape(a[name], `${op}: ${name}`);
}

function shapeArgDims(op: string, args: unknown[]): number[] {
  const a = bindArgs({ name: `Tensor.${op}`, params: [], rest: 'dims' }, args);
  const value = a.dims;
  const list =
    Array.isArray(value) && value.length === 1 && Array.isArray(value[0]) ? value[0] : value;
  if (!Array.isArray(list)) throw new TypeError(`${op}: expected a list of dims`);
  return list.map((d, i) => asInt(d, `${op}: dims[${i}]`));
}

function valuesIndices(values: Tensor, indices: Tensor, kind = 'max'): ValuesIndices {
  return new ValuesIndices(values, indices, kind);
}

// Argument helpers of the indexing, scan and sort methods (area A).

/** One int, a list of ints, or varargs of ints (`flip(0, 1)`, `flip([0, 1])`), as a list. */
function intList(value: unknown, what: string): number[] {
  const list = Array.isArray(value) && value.length === 1 ? (value[0] as unknown) : value;
  if (Array.isArray(list)) return list.map((v, i) => asInt(v, `${what}[${i}]`));
  return [asInt(list, what)];
}

function scanDtype(value: unknown, op: string): DType | null {
  return value === undefined || value === null ? null : parseDType(value as string, op);
}

// Argument helpers of the compositions' methods (area H).

function diagonalArg(op: string, args: unknown[]): number {
  const a = bindArgs({ name: `Tensor.${op}`, params: ['diagonal'] }, args);
  return optional(a.diagonal, asInt, `${op}: diagonal`, 0);
}

function dimOr0(value: unknown, op: string): number {
  return optional(value, asInt, `${op}: dim`, 0);
}

/** An int or a list of ints (split sizes, tensor_split indices). */
function sizesArg(value: unknown, what: string): number | number[] {
  if (Array.isArray(value)) return value.map((v, i) => asInt(v, `${what}[${i}]`));
  return asInt(value, what);
}

/** var/std's PyTorch 1.13 arguments as [dims, correction, keepdim]. */
function varianceArgs(op: string, args: unknown[]): [Dims | undefined, number, boolean] {
  // var(False): the first positional is `unbiased` when it is a bool.
  const shifted = typeof args[0] === 'boolean' ? [undefined, ...args] : args;
  const a = bindArgs(
    { name: `Tensor.${op}`, params: ['dim', 'unbiased', 'keepdim'], keywordOnly: ['correction'] },
    shifted,
  );
  const dim = a.dim === undefined || a.dim === null ? undefined : asDims(a.dim, `${op}: dim`);
  const unbiased = optional(a.unbiased, asBool, `${op}: unbiased`, true);
  const correction = optional(a.correction, asNum, `${op}: correction`, unbiased ? 1 : 0);
  return [dim, correction, optional(a.keepdim, asBool, `${op}: keepdim`, false)];
}
