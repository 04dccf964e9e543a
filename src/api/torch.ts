/**
 * `torch`: the PyTorch-shaped names of API.md over the engine — tensor creation (on the cpu unless
 * a device is given, as in PyTorch), seeding, a few functional forms of tensor methods, grad mode,
 * `torch.device` and `torch.cuda`. Later modules add `torch.nn`, `torch.optim`, `torch.utils`.
 */
import {
  defaultDevice,
  defaultGenerator,
  emptyCache,
  enableGrad,
  gpuDevices,
  isGradEnabled,
  manualSeed,
  maxMemoryAllocated,
  memoryAllocated,
  memoryReserved,
  noGrad,
  ops,
  resetPeakMemoryStats,
  setGradEnabled,
  synchronize,
  Tensor,
  type Device,
  type DType,
} from '../engine';
import {
  asInt,
  asNumber,
  asShape,
  bindArgs,
  boolArg,
  deviceArg,
  dtypeArg,
  optional,
  type BoundArgs,
  tensorArg,
} from './args';
import { torchFunctions } from './elementwise-faces';
import { TorchDevice } from './torch-device';
import { load, nn, optim, save, utils } from './torch/index';
import { extrasFunctional } from './torch/functional-extras';
import { multinomial } from './torch/multinomial';
import { randint } from './torch/randint';

export interface CreationOptions {
  dtype?: DType | string;
  device?: string | { readonly name: string };
  requiresGrad?: boolean;
}

type SizeArgs = (number | readonly number[] | (CreationOptions & { size?: readonly number[] }))[];

const CREATION = [
  'dtype',
  'device',
  'requiresGrad',
  'generator',
  'layout',
  'pinMemory',
  'out',
] as const;

function creation(a: BoundArgs, fallback: Device = defaultDevice('torch')): ops.CreateOptions {
  return {
    dtype: dtypeArg(a.dtype),
    device: deviceArg(a.device, fallback),
    requiresGrad: boolArg(a.requiresGrad, 'requiresGrad'),
  };
}

function sized(name: string, args: unknown[]): [number[], ops.CreateOptions] {
  const a = bindArgs({ name, params: [], rest: 'size', keywordOnly: CREATION }, args);
  return [asShape(a.size ?? [], `${name}: size`), creation(a)];
}

function like(name: string, args: unknown[]): [Tensor, ops.CreateOptions] {
  const a = bindArgs({ name, params: ['input'], keywordOnly: CREATION }, args);
  const input = tensorArg(a.input, `${name}: input`);
  const options = creation(a, input.deviceObject);
  return [input, { ...options, dtype: options.dtype ?? input.dtype }];
}

function gpuIndex(device: unknown): Device {
  if (gpuDevices().length === 0)
    throw new Error('torch.cuda: no GPU is available (torch.cuda.isAvailable() is false)');
  if (device === undefined || device === null) return gpuDevices()[0];
  if (typeof device === 'number') return deviceArg(`gpu:${device}`, gpuDevices()[0]);
  return deviceArg(device, gpuDevices()[0]);
}

/** Functional forms of tensor methods: torch.exp(t) is t.exp(), torch.sum(t, 1) is t.sum(1). */
function method<K extends keyof Tensor>(name: K) {
  return (input: Tensor, ...rest: unknown[]): Tensor => {
    const t = tensorArg(input, `torch.${String(name)}: input`);
    const fn = t[name] as unknown as (...a: unknown[]) => Tensor;
    return fn.apply(t, rest);
  };
}

/** As method(), for methods that return several tensors: torch.split(t, 2) is t.split(2). */
function methodList<K extends 'split' | 'chunk' | 'unbind' | 'tensorSplit'>(name: K) {
  return (input: Tensor, ...rest: unknown[]): Tensor[] => {
    const t = tensorArg(input, `torch.${name}: input`);
    return (t[name] as (...a: unknown[]) => Tensor[]).apply(t, rest);
  };
}

const cuda = {
  isAvailable: (): boolean => gpuDevices().length > 0,
  deviceCount: (): number => gpuDevices().length,
  currentDevice: (): number => 0,
  getDeviceName: (device?: number | string): string => gpuIndex(device).info.label,
  /** Returns pooled, unused GPU memory to the system. */
  emptyCache: (): void => {
    for (const d of gpuDevices()) emptyCache(d);
  },
  /** Bytes held by live tensors on the GPU (0 when there is none). */
  memoryAllocated: (device?: number | string): number =>
    gpuDevices().length ? memoryAllocated(gpuIndex(device)) : 0,
  maxMemoryAllocated: (device?: number | string): number =>
    gpuDevices().length ? maxMemoryAllocated(gpuIndex(device)) : 0,
  /** Live bytes plus freed buffers kept for reuse (what emptyCache gives back). */
  memoryReserved: (device?: number | string): number =>
    gpuDevices().length ? memoryReserved(gpuIndex(device)) : 0,
  /** `{ name, totalMemory }`: totalMemory is the logical GPU's limit in bytes (0: none). */
  getDeviceProperties: (device?: number | string): { name: string; totalMemory: number } => {
    const d = gpuIndex(device);
    return { name: d.info.label, totalMemory: d.memory.limit ?? 0 };
  },
  resetPeakMemoryStats: (device?: number | string): void => {
    if (gpuDevices().length) resetPeakMemoryStats(gpuIndex(device));
  },
  /** Waits for all queued GPU work. */
  synchronize: async (device?: number | string): Promise<void> => {
    if (device === undefined) await Promise.all(gpuDevices().map((d) => synchronize(d)));
    else await synchronize(gpuIndex(device));
  },
  manualSeed: (seed: number): void => {
    manualSeed(seed);
  },
  manualSeedAll: (seed: number): void => {
    manualSeed(seed);
  },
};

export const torch = {
  Tensor,
  float32: 'float32' as DType,
  float: 'float32' as DType,
  int32: 'int32' as DType,
  int: 'int32' as DType,
  /** No 64-bit integers on WebGPU: int64/long are int32. */
  int64: 'int32' as DType,
  long: 'int32' as DType,

  /** torch.tensor(data, { dtype, device, requiresGrad }): nested arrays, a typed array or a number. */
  tensor(data: unknown, options?: CreationOptions): Tensor {
    const a = bindArgs({ name: 'torch.tensor', params: ['data'], keywordOnly: CREATION }, [
      data,
      options,
    ]);
    const o = creation(a);
    if (a.data instanceof Tensor) {
      const copy = ops.clone(a.data.detach()).to(o.device, o.dtype ?? a.data.dtype);
      if (o.requiresGrad) copy.requiresGrad = true;
      return copy;
    }
    return ops.fromData(a.data, o);
  },
  zeros: (...size: SizeArgs): Tensor => ops.zeros(...sized('torch.zeros', size)),
  ones: (...size: SizeArgs): Tensor => ops.ones(...sized('torch.ones', size)),
  empty: (...size: SizeArgs): Tensor => ops.zeros(...sized('torch.empty', size)),
  full(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'torch.full', params: ['size', 'fillValue'], keywordOnly: CREATION },
      args,
    );
    return ops.full(
      asShape(a.size, 'torch.full: size'),
      asNumber(a.fillValue, 'torch.full: fillValue'),
      creation(a),
    );
  },
  /** Uniform in [0, 1). */
  rand: (...size: SizeArgs): Tensor => ops.rand(...sized('torch.rand', size)),
  /** Standard normal. */
  randn: (...size: SizeArgs): Tensor => ops.randn(...sized('torch.randn', size)),
  /** torch.normal(mean, std, size) with numbers, or tensor means/stds (mean + std * randn). */
  normal(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'torch.normal', params: ['mean', 'std', 'size'], keywordOnly: CREATION },
      args,
    );
    const mean = a.mean ?? 0;
    const std = a.std ?? 1;
    if (mean instanceof Tensor || std instanceof Tensor) {
      const shapeFrom = (mean instanceof Tensor ? mean : std) as Tensor;
      const noise = ops.randn(shapeFrom.shape, { device: shapeFrom.deviceObject });
      return ops.add(ops.mul(noise, std as Tensor | number), mean as Tensor | number);
    }
    const size = a.size === undefined ? [] : asShape(a.size, 'torch.normal: size');
    return ops.random('normal', size, asNumber(mean, 'mean'), asNumber(std, 'std'), creation(a));
  },
  zerosLike: (...args: unknown[]): Tensor => {
    const [t, o] = like('torch.zerosLike', args);
    return ops.zeros(t.shape, o);
  },
  onesLike: (...args: unknown[]): Tensor => {
    const [t, o] = like('torch.onesLike', args);
    return ops.ones(t.shape, o);
  },
  fullLike: (input: Tensor, fillValue: number, options?: CreationOptions): Tensor => {
    const [t, o] = like('torch.fullLike', [input, options]);
    return ops.full(t.shape, fillValue, o);
  },
  randLike: (...args: unknown[]): Tensor => {
    const [t, o] = like('torch.randLike', args);
    return ops.rand(t.shape, { ...o, dtype: 'float32' });
  },
  randnLike: (...args: unknown[]): Tensor => {
    const [t, o] = like('torch.randnLike', args);
    return ops.randn(t.shape, { ...o, dtype: 'float32' });
  },
  /** arange(end), arange(start, end), arange(start, end, step); int32 when all are integers. */
  arange(...args: unknown[]): Tensor {
    const a = bindArgs(
      { name: 'torch.arange', params: ['start', 'end', 'step'], keywordOnly: CREATION },
      args,
    );
    const first = asNumber(a.start ?? 0, 'torch.arange: start');
    const [start, end] =
      a.end === undefined ? [0, first] : [first, asNumber(a.end, 'torch.arange: end')];
    const o = creation(a);
    const t = ops.arange(start, end, optional(a.step, asNumber, 'step', 1), o);
    if (o.requiresGrad) t.requiresGrad = true;
    return t;
  },
  manualSeed: (seed: number): typeof defaultGenerator =>
    manualSeed(asInt(seed, 'torch.manualSeed: seed')),
  initialSeed: (): number => defaultGenerator.initialSeed(),

  matmul: (input: Tensor, other: Tensor): Tensor =>
    ops.matmul(tensorArg(input, 'torch.matmul: input'), tensorArg(other, 'torch.matmul: other')),
  mm: (input: Tensor, mat2: Tensor): Tensor =>
    ops.matmul(tensorArg(input, 'torch.mm: input'), tensorArg(mat2, 'torch.mm: mat2')),
  bmm: (input: Tensor, mat2: Tensor): Tensor =>
    ops.matmul(tensorArg(input, 'torch.bmm: input'), tensorArg(mat2, 'torch.bmm: mat2')),
  /** torch.cat(tensors, dim = 0). */
  cat(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'torch.cat', params: ['tensors', 'dim'] }, args);
    return ops.cat(tensorList(a.tensors, 'torch.cat'), optional(a.dim, asInt, 'torch.cat: dim', 0));
  },
  concat(...args: unknown[]): Tensor {
    return torch.cat(...args);
  },
  stack(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'torch.stack', params: ['tensors', 'dim'] }, args);
    return ops.stack(
      tensorList(a.tensors, 'torch.stack'),
      optional(a.dim, asInt, 'torch.stack: dim', 0),
    );
  },

  argmax: method('argmax'),
  argmin: method('argmin'),
  sum: method('sum'),
  mean: method('mean'),
  max: method('max'),
  min: method('min'),
  amax: method('amax'),
  amin: method('amin'),
  softmax: method('softmax'),
  logSoftmax: method('logSoftmax'),
  add: method('add'),
  sub: method('sub'),
  clamp: method('clamp'),
  reshape: method('reshape'),
  flatten: method('flatten'),
  transpose: method('transpose'),
  permute: method('permute'),
  squeeze: method('squeeze'),
  unsqueeze: method('unsqueeze'),
  t: method('t'),
  // Indexing, scans and sorts along a dim (area A): src/engine/ops/index-ops.ts, scan.ts, sort.ts.
  gather: method('gather'),
  scatterAdd: method('scatterAdd'),
  scatter: method('scatter'),
  indexSelect: method('indexSelect'),
  indexAdd: method('indexAdd'),
  takeAlongDim: method('takeAlongDim'),
  maskedFill: method('maskedFill'),
  cumsum: method('cumsum'),
  cumprod: method('cumprod'),
  sort: (input: Tensor, ...rest: unknown[]) => tensorArg(input, 'torch.sort: input').sort(...rest),
  argsort: method('argsort'),
  topk: (input: Tensor, ...rest: unknown[]) => tensorArg(input, 'torch.topk: input').topk(...rest),
  kthvalue: (input: Tensor, ...rest: unknown[]) =>
    tensorArg(input, 'torch.kthvalue: input').kthvalue(...rest),
  median: (input: Tensor, ...rest: unknown[]) =>
    tensorArg(input, 'torch.median: input').median(...rest),
  flip: method('flip'),
  roll: method('roll'),
  // Compositions (area H): src/engine/ops/masks.ts, split.ts, statistics.ts, einsum.ts.
  tril: method('tril'),
  triu: method('triu'),
  diag: method('diag'),
  trace: method('trace'),
  split: methodList('split'),
  chunk: methodList('chunk'),
  unbind: methodList('unbind'),
  tensorSplit: methodList('tensorSplit'),
  repeatInterleave: method('repeatInterleave'),
  outer: method('outer'),
  logsumexp: method('logsumexp'),
  norm: method('norm'),
  var: method('var'),
  std: method('std'),
  isclose: method('isclose'),
  clampMin: method('clampMin'),
  clampMax: method('clampMax'),
  /** torch.where(condition, x, y): x and y tensors or numbers. */
  where: (condition: Tensor, x: Tensor | number, y: Tensor | number): Tensor =>
    ops.where(tensorArg(condition, 'torch.where: condition'), x, y),
  /** torch.einsum('ij,jk->ik', a, b) or torch.einsum('ij,jk->ik', [a, b]). */
  einsum(equation: string, ...operands: (Tensor | Tensor[])[]): Tensor {
    if (typeof equation !== 'string')
      throw new TypeError('torch.einsum: equation must be a string');
    const list = operands.length === 1 && Array.isArray(operands[0]) ? operands[0] : operands;
    return ops.einsum(equation, tensorList(list, 'torch.einsum'));
  },
  /** torch.eye(n, m = n, { dtype, device, requiresGrad }). */
  eye(...args: unknown[]): Tensor {
    const a = bindArgs({ name: 'torch.eye', params: ['n', 'm'], keywordOnly: CREATION }, args);
    const n = asInt(a.n, 'torch.eye: n');
    const o = creation(a);
    const t = ops.eye(n, optional(a.m, asInt, 'torch.eye: m', n), o);
    if (o.requiresGrad) t.requiresGrad = true;
    return t;
  },
  emptyLike: (...args: unknown[]): Tensor => {
    const [t, o] = like('torch.emptyLike', args);
    return ops.zeros(t.shape, o);
  },
  // The element-wise table's ops with a Tensor face: torch.exp, torch.mul, torch.sigmoid, …
  ...torchFunctions(),
  isTensor: (value: unknown): value is Tensor => value instanceof Tensor,

  /** torch.noGrad(() => { ... }): runs fn (sync or async) without recording gradients. */
  noGrad: <T>(fn: () => T): T => noGrad(fn),
  enableGrad: <T>(fn: () => T): T => enableGrad(fn),
  isGradEnabled: (): boolean => isGradEnabled(),
  setGradEnabled: (enabled: boolean): void => setGradEnabled(enabled),

  /** torch.device('cuda:0'), torch.device('cuda', 0), torch.device('cpu'). */
  device: (type: string, index?: number): TorchDevice => new TorchDevice(type, index),
  cuda,

  // Models and training (src/api/torch/).
  nn,
  optim,
  utils,
  /** `await torch.save(obj, 'model.pt')`: a tensor, a state dict or a plain object of them. */
  save,
  /** `await torch.load('model.pt', { mapLocation })`. */
  load,
  // torch.prelu (area E; the other activations are F's only, as in PyTorch).
  prelu: extrasFunctional.prelu,
  // torch.multinomial, torch.randint (area I: sampling and batches in the tiny-GPT chapter).
  multinomial,
  randint,
};

function tensorList(value: unknown, name: string): Tensor[] {
  if (!Array.isArray(value)) throw new TypeError(`${name}: expected a list of tensors`);
  return value.map((t, i) => tensorArg(t, `${name}: tensors[${i}]`));
}
