/**
 * The JavaScript module our Python packages import as `_gpubook`: the torch-shaped layer
 * (src/api) they wrap, plus the few helpers that have to live on the engine's side of the
 * boundary (tensor ownership, PyTorch's repr, moving a parameter in place). Python calls these
 * through Pyodide's JsProxy; nothing here computes what the engine already does.
 */
import type { PyCallable } from 'pyodide/ffi';
import {
  defaultDevice,
  getDevice,
  isGradEnabled,
  ops,
  setGradEnabled,
  Tensor,
  ValuesIndices,
} from '../../engine';
import { formatSummary, moveInPlace, Module, Parameter } from '../../engine/nn';
import { randperm } from '../../engine/data';
import { getTensorStore } from '../../engine/serialization';
import { gatherStructure, ReplicaSet, scatterStructure } from '../../engine';
import { reduceGradientInto } from '../../engine/parallel/data-parallel';
import { torch } from '../torch';
import { torchkeras, torchmetrics, torchvision, transforms } from '../torch/index';
import { formatForPython, setPrintOptions, torchDeviceName } from './format';
import { disown, isTensor, pythonHeldCount, release, retain } from './ownership';
import { PythonLayer } from '../tf/keras/layers/python-layer';
import { PythonModel } from '../tf/keras/models/python-model';

/** What a JavaScript value is, as Python needs to know to wrap it (one call, not several). */
export type JsKind = 'tensor' | 'parameter' | 'values_indices' | 'module' | 'array' | 'other';

function kind(value: unknown): JsKind {
  if (value instanceof Parameter) return 'parameter';
  if (value instanceof Tensor) return 'tensor';
  if (value instanceof ValuesIndices) return 'values_indices';
  if (value instanceof Module) return 'module';
  if (Array.isArray(value)) return 'array';
  return 'other';
}

/**
 * `kind(value)`, and for a tensor also `retain` (ownership.ts) — one crossing per op result
 * instead of two, as every result Python wraps passes here.
 */
function adopt(value: unknown, fresh: boolean): JsKind {
  const k = kind(value);
  if (k === 'tensor') retain(value as Tensor, fresh);
  else if (k === 'parameter') retain(value as Tensor, false);
  return k;
}

/**
 * nn.DataParallel for Python modules, with the engine's pieces (engine/parallel): replicas of the
 * parameters on each device whose gradients are reduced into the primaries, scatter and gather.
 */
const dataParallel = {
  replicas: (devices: string[]): ReplicaSet =>
    new ReplicaSet(
      devices.map((d) => getDevice(d)),
      (primary, copy) => {
        copy.registerPostAccumulateGradHook(() => reduceGradientInto(primary, copy));
      },
    ),
  copyOf: (set: ReplicaSet, primary: Tensor, replica: number): Tensor =>
    set.copyOf(primary, replica),
  /** Runs fn with the engine layers in `roots` using replica copies of `tensors`. */
  withReplica: (
    set: ReplicaSet,
    replica: number,
    roots: object[],
    tensors: Tensor[],
    fn: () => void,
  ): void => {
    set.withReplica(replica, roots, tensors, (v) => v instanceof Module, fn);
  },
  scatter: (inputs: unknown[], devices: string[], dim: number): unknown[] =>
    scatterStructure(
      inputs,
      devices.map((d) => getDevice(d)),
      dim,
    ),
  gather: (outputs: unknown[], device: string, dim: number): unknown =>
    gatherStructure(outputs, getDevice(device), dim),
};

/** An exception a Python callable raised, on its way through the TS layer (see `pythonRaised`). */
class PythonCallableError extends Error {
  override name = 'PythonCallableError';
}

/**
 * `t[name](...args)` for an op that always makes a new plain tensor (`add`, `mul`, `matmul`, the
 * comparisons; never an in-place op, which returns `t` itself, perhaps a Parameter), retained
 * for the Python wrapper as `adopt(result, true)` would: one crossing per operator instead of
 * three (read the method, call it, adopt its result). torch/_tensor.py's operators call it.
 */
function tensorOp(t: Tensor, name: string, ...args: unknown[]): Tensor {
  const method = (t as unknown as Record<string, (...a: unknown[]) => unknown>)[name];
  const out = method.apply(t, args);
  if (!(out instanceof Tensor) || out instanceof Parameter) {
    throw new Error(`internal: tensorOp('${name}') did not make a plain tensor`);
  }
  retain(out, true);
  return out;
}

/** `tensorOp` with `name` bound: Python's operators hold one each, so no name crosses per call. */
function tensorOpFor(name: string): (t: Tensor, ...args: unknown[]) => Tensor {
  return (t, ...args) => tensorOp(t, name, ...args);
}

export function createBridge(globals: Record<string, unknown>) {
  return {
    torch,
    torchvision,
    transforms,
    torchmetrics,
    torchkeras,
    globals,
    retain,
    release,
    disown,
    pythonHeldCount,
    isTensor,
    kind,
    adopt,
    tensorOp,
    tensorOpFor,
    /** Moves a parameter's (or buffer's) memory to `device` in place (nn/parameter.ts). */
    moveInPlace: (t: Tensor, device: string): void => moveInPlace(t, getDevice(device)),
    dataParallel,
    /** `ds.get(i)` (Pyodide would read a JS `get` method as a Python mapping's `get`). */
    datasetItem: (ds: { get(i: number): unknown }, i: number): unknown => ds.get(i),
    /** A permutation of 0..n-1 from the engine's seeded generator, as a plain array. */
    randpermList: (n: number): number[] => Array.from(randperm(n)),
    formatTensor: formatForPython,
    /** `torch.set_printoptions` (torch/_settings.py). */
    setPrintOptions,
    /**
     * A tensor of `shape` from one typed array (a NumPy array's values, torch/_numpy_engine.py):
     * one bulk copy. `device`: a device name, or 'tf' for TensorFlow's default device.
     */
    fromTyped: (data: Float32Array | Int32Array, shape: number[], device: string): Tensor =>
      ops.fromHost(data, shape, {
        device: device === 'tf' ? defaultDevice('tf') : getDevice(device),
        dtype: data instanceof Int32Array ? 'int32' : 'float32',
      }),
    /** Writes raw bytes into the kernel's file store (where torch.save writes): exports. */
    storeFile: (name: string, bytes: Uint8Array): Promise<void> =>
      getTensorStore().put(name, bytes),
    /** torchsummary's table, as TypeScript cells print it (Python collects the rows). */
    formatSummary,
    torchDeviceName,
    isGradEnabled,
    setGradEnabled,
    /**
     * A Python function as a plain JavaScript function named `name` (Keras names a function
     * metric after it; a proxy has no `name`), for the TS layer to call synchronously: a custom
     * loss, metric, callback hook or `Dataset.map` function (tensorflow/_callables.py).
     */
    pythonFunction: (fn: PyCallable, name: string): ((...args: unknown[]) => unknown) => {
      const call = (...args: unknown[]): unknown => {
        const result: unknown = fn(...args);
        if (result instanceof PythonCallableError) throw result;
        return result;
      };
      Object.defineProperty(call, 'name', { value: name });
      return call;
    },
    /**
     * What a Python function handed to the TS layer returns when it raised: `pythonFunction`
     * throws it, so no Pyodide `PythonError` (whose text is a traceback of our package's frames)
     * crosses the TS layer; Python keeps the exception and raises it again in the cell.
     */
    pythonRaised: (message: string): Error => new PythonCallableError(message),
    /** The TS twins of Keras layers and models subclassed in Python (tensorflow/keras/_subclassing.py). */
    PythonLayer,
    PythonModel,
    /**
     * `fn.apply(thisArg, args)` for the tf layer's handles (tensorflow/_js_object.py): a result
     * that is a Promise comes back as `[true, promise settled as [ok, value]]`, anything else as
     * `[false, result]`. A rejected Promise must not reach Python as such: Pyodide then prints
     * its error to `sys.stderr` (a stray `pyodide.ffi.JsException: …` line above the cell's
     * traceback) when it settles, even though Python raises it as well.
     */
    callSettled: (
      fn: (...a: unknown[]) => unknown,
      thisArg: unknown,
      args: unknown[],
    ): [boolean, unknown] => {
      const result = Reflect.apply(fn, thisArg, args);
      if (!(result instanceof Promise)) return [false, result];
      return [
        true,
        result.then(
          (value): [boolean, unknown] => [true, value],
          (error: unknown): [boolean, unknown] => [false, error],
        ),
      ];
    },
    /** Throws `error`, which Pyodide raises in Python as it raises a JavaScript call's throw. */
    rethrow: (error: unknown): never => {
      throw error;
    },
    /**
     * A Python function as a JavaScript one that JavaScript may await (`timeit`, `compareDevices`):
     * called with `callPromising`, so the Python inside may itself wait for a GPU read (run_sync).
     */
    promising:
      (fn: PyCallable) =>
      (...args: unknown[]): Promise<unknown> =>
        fn.callPromising(...args),
  };
}

export type Bridge = ReturnType<typeof createBridge>;
