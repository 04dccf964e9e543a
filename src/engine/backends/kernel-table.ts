/**
 * The kernel table as data, so that backends and wrappers implement `Kernels` without repeating
 * every method: a backend lists its implementation of each kernel once (a `KernelTable`), and a
 * class that runs or forwards kernels extends `KernelRouter`, whose prototype carries one
 * forwarding method per kernel name into the class's `route`. A kernel missing from a table, or
 * from `KERNEL_NAMES`, is a compile error.
 */
import type { Kernels, View } from '../backend';

export type KernelName = keyof Kernels;
export type KernelArgs<K extends KernelName> = Parameters<Kernels[K]>;

/** One implementation per kernel, each taking the backend's own context first. */
export type KernelTable<Ctx> = {
  readonly [K in KernelName]: (ctx: Ctx, ...args: KernelArgs<K>) => void;
};

// A Record over the names: adding a kernel to `Kernels` without listing it here fails to compile.
const NAMES: Record<KernelName, true> = {
  fill: true,
  assign: true,
  random: true,
  unary: true,
  binary: true,
  binaryScalar: true,
  fusedElementwise: true,
  fusedReduce: true,
  reduce: true,
  matmul: true,
  gemm: true,
  adam: true,
  softmaxCrossEntropy: true,
  softmax: true,
  gatherColumns: true,
  scatterColumns: true,
  indexSelect: true,
  indexAdd: true,
  conv2d: true,
  conv2dWeightGrad: true,
  im2col: true,
  col2im: true,
  maxPool2d: true,
  maxPool2dBackward: true,
  // Area A: indexing, scans and sorts along the last dim.
  gatherAlong: true,
  scatterAddAlong: true,
  scan: true,
  sortRows: true,
  // Area B: normalisation.
  normalizeSlices: true,
  normalizeSlicesBackward: true,
  // Area D: recurrent layers.
  lstmCell: true,
  lstmCellBackward: true,
  gruCell: true,
  gruCellBackward: true,
  // Attention weights.
  scaleMaskSoftmax: true,
  scaleMaskSoftmaxBackward: true,
};

export const KERNEL_NAMES = Object.keys(NAMES) as readonly KernelName[];

/** Runs kernel `name` of a table. */
export function runKernel<Ctx, K extends KernelName>(
  table: KernelTable<Ctx>,
  ctx: Ctx,
  name: K,
  args: KernelArgs<K>,
): void {
  const kernel: (ctx: Ctx, ...args: KernelArgs<K>) => void = table[name];
  kernel(ctx, ...args);
}

/** Calls kernel `name` of another backend (or wrapper) with `args`. */
export function callKernel<K extends KernelName>(
  target: Kernels,
  name: K,
  args: KernelArgs<K>,
): void {
  // Kernels[K] is a method type; indexing by a generic name loses its parameter list, so the
  // shape is restated once here (every kernel returns void, see backend.ts).
  const kernel = target[name] as (...args: KernelArgs<K>) => void;
  kernel.apply(target, args);
}

function isView(value: unknown): value is View {
  return (
    typeof value === 'object' &&
    value !== null &&
    'buffer' in value &&
    'strides' in value &&
    'shape' in value
  );
}

/**
 * `value` with every view in it passed through `map`, looking `depth` levels into arrays and
 * objects.
 */
function mapNested(value: unknown, map: (view: View) => View, depth: number): unknown {
  if (isView(value)) return map(value);
  if (depth === 0 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => mapNested(item, map, depth - 1));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  const entries = Object.entries(value);
  const mapped = entries.map(([k, v]) => [k, mapNested(v, map, depth - 1)] as const);
  return mapped.some(([, v], i) => v !== entries[i][1]) ? Object.fromEntries(mapped) : value;
}

/**
 * Kernel arguments with every view (also one in an array, in an options object such as a gemm
 * bias, or in an array of objects such as Adam's slots) passed through `map`: how a wrapper swaps
 * its placeholder buffers for real ones.
 */
export function mapViews<K extends KernelName>(
  args: KernelArgs<K>,
  map: (view: View) => View,
): KernelArgs<K> {
  return args.map((arg: unknown) => mapNested(arg, map, 2)) as KernelArgs<K>;
}

/**
 * A base class that implements every kernel by handing its name and arguments to `route`: a
 * backend runs it from its table, a wrapper records or forwards it. Extend `RoutedKernels`.
 */
abstract class KernelRouter {
  /** Runs (or records, or refuses) kernel `name` with `args`. */
  protected abstract route<K extends KernelName>(name: K, args: KernelArgs<K>): void;

  static {
    for (const name of KERNEL_NAMES) {
      Object.defineProperty(KernelRouter.prototype, name, {
        value: function (this: KernelRouter, ...args: KernelArgs<typeof name>) {
          this.route(name, args);
        },
        writable: true,
        configurable: true,
      });
    }
  }
}

/** `KernelRouter` typed with the methods its prototype carries. */
export const RoutedKernels = KernelRouter as abstract new () => KernelRouter & Kernels;
