/**
 * Tensor lifetimes without `dispose` in user code.
 *
 * JS has no destructors and a FinalizationRegistry runs far too late for GPU memory, yet a training
 * loop repeated thousands of times must not grow device memory — and no tensor a program can still
 * reach may ever be lost. Lifetimes are therefore layered:
 *  1. Storage is reference counted (views share it); `dispose()` and `tidy(fn)` release eagerly.
 *  2. Composed ops and backward run inside internal scopes: temporaries that do not escape are
 *     released as soon as the op returns. So does a call of a module tree made only of the
 *     library's own layers (nn/module.ts, `libraryForward`): what passes between its layers is
 *     seen by no program.
 *  3. The autograd graph holds its own handles on saved tensors and drops them after backward
 *     (unless retainGraph), or as soon as no live tensor can reach that part of the graph.
 *  4. Step sweeps: optimizers, data loaders and fit loops call `stepBoundary()`. JavaScript cannot
 *     tell whether a local variable, a closure, a `#private` field or a generator still holds a
 *     tensor, so a sweep never destroys anything a program might hold: it *moves* memory. Each
 *     storage records the step it was last used in; at a boundary, storages untouched for the last
 *     two steps (created before the closing step and unused in it), shared by no persistent tensor
 *     (`keep()`: parameters, optimizer state, datasets) and by no tensor reachable from the host's
 *     roots (`setRootProvider`: the notebook's globals) are parked (parking.ts): they stay on the
 *     device, oldest first in line, and are spilled to host memory only when memory is short: when
 *     an allocation would pass the device's memory limit, or parked bytes pass the device's cap
 *     (`Device.parkingCap`: the limit, else the backend's figure). A spill copies their bytes out
 *     (WebGPU: one copy into one staging buffer per sweep, mapped later; CPU: the memory simply
 *     changes accounts, no copy) and frees their device memory at once, in the same synchronous
 *     step, so even a loop that never awaits stays under the limit. A parked or spilled tensor is
 *     used like any other (a spilled one's next use brings its bytes back, `Storage.buffer`, under
 *     the device's limit). Candidates whose Tensor object the garbage collector has taken, parked
 *     ones included, are released without any read-back: most of what a loop drops goes this way.
 *  5. A FinalizationRegistry frees whatever becomes unreachable everywhere else, spilled host
 *     copies included: the garbage collector sees their bytes, so host memory is bounded by what
 *     the program really holds.
 *  6. Device memory accounting counts live device storages only, so `memoryAllocated` is exact;
 *     spilled bytes are counted apart (`memorySpilled`), and a limit applies to device bytes.
 *
 * Cost: what a training step handed the program and the program dropped (a model's output, a
 * user forward's locals, gradients dropped by zero_grad) waits parked until the garbage collector
 * takes it (autograd lets go of an op's backward closure once it ran, so nothing of ours keeps an
 * output reachable); it is spilled only if memory runs short first. A value held and used again
 * pays one upload per use after a spill. `memoryAllocated` leaves parked bytes out, as it leaves
 * out the pool's: the engine gives both up on demand (`memoryParked` reports them).
 */
import type { Node } from './autograd';
import { Storage } from './storage';
import type { Tensor } from './tensor';

export type ReleaseReason = 'disposed' | 'tidy' | 'graph' | 'collected';

/** What a tensor owns, kept apart from the Tensor object so a finalizer can release it. */
export interface TensorResources {
  storage: Storage;
  /** The autograd node that produced the tensor (its grad_fn). */
  node: Node | null;
  persistent: boolean;
  /** Autograd's own handle on a saved tensor: owned by its node, never swept. */
  internal: boolean;
  released: ReleaseReason | null;
}

let generation = 0;
/** Non-persistent user-visible tensors, weakly held so the garbage collector stays free to act. */
const live = new Map<TensorResources, WeakRef<Tensor>>();
const scopes: Tensor[][] = [];
let rootProvider: (() => Iterable<unknown>) | null = null;

const finalizer = new FinalizationRegistry<TensorResources>((res) => {
  releaseResources(res, 'collected');
});

export function currentGeneration(): number {
  return generation;
}

export function newResources(storage: Storage, internal: boolean): TensorResources {
  storage.retain();
  return {
    storage,
    node: null,
    persistent: false,
    internal,
    released: null,
  };
}

/** Called once for every new Tensor. */
export function track(tensor: Tensor): void {
  const res = tensor.res;
  finalizer.register(tensor, res, res);
  if (res.internal) return;
  live.set(res, new WeakRef(tensor));
  scopes[scopes.length - 1]?.push(tensor);
}

export function releaseResources(res: TensorResources, reason: ReleaseReason): void {
  if (res.released !== null) return;
  res.released = reason;
  live.delete(res);
  finalizer.unregister(res);
  res.storage.release();
  const node = res.node;
  res.node = null;
  node?.unref();
}

export function releasedMessage(reason: ReleaseReason): string {
  switch (reason) {
    case 'tidy':
      return (
        'This tensor was created inside tidy() and released when tidy() returned. Return it from ' +
        'the tidy function, or call .keep() on it, to use it afterwards.'
      );
    case 'graph':
      return (
        'Trying to backward through the graph a second time (or directly access saved tensors ' +
        'after they have already been freed). Saved intermediate values of the graph are freed ' +
        'when you call .backward(); pass { retainGraph: true } if you need to backward twice.'
      );
    case 'disposed':
    case 'collected':
      return 'This tensor was disposed and can no longer be used.';
  }
}

/** Marks a tensor as an op input now; throws if it has been released. */
export function touch(res: TensorResources): void {
  if (res.released !== null) throw new Error(releasedMessage(res.released));
  res.storage.markUsed(generation);
}

/** Persistent tensors (parameters, optimizer state, datasets) stay on their device. */
export function keep(res: TensorResources): void {
  res.persistent = true;
  res.storage.pin();
  live.delete(res);
}

// ---------------------------------------------------------------------------------------------
// Scopes: deterministic release of temporaries.

export function startScope(): void {
  scopes.push([]);
}

/** Ends the innermost scope: releases its tensors except `keepers`, which move to the parent. */
export function endScope(keepers: Iterable<Tensor>, reason: ReleaseReason = 'tidy'): void {
  const scope = scopes.pop();
  if (!scope) throw new Error('endScope() without startScope()');
  const keepSet = new Set(keepers);
  const parent = scopes[scopes.length - 1];
  for (const tensor of scope) {
    if (keepSet.has(tensor) || tensor.res.persistent) parent?.push(tensor);
    else releaseResources(tensor.res, reason);
  }
}

/**
 * The live tensors of the innermost scope other than `except` that hold `storage`: handles that
 * end with the scope unless kept (backward.ts asks which gradients it may hand over without a
 * copy).
 */
export function scopeHolders(storage: Storage, except: Tensor): Tensor[] {
  const scope = scopes[scopes.length - 1] ?? [];
  return scope.filter(
    (t) =>
      t !== except && t.res.storage === storage && t.res.released === null && !t.res.persistent,
  );
}

/**
 * Whether a user-visible live tensor other than `except` holds `storage` (a view of it, or one it
 * views). Persistent tensors are not counted (ops/inplace-graph.ts asks, for a non-leaf).
 */
export function sharedWithVisible(storage: Storage, except: Tensor): boolean {
  for (const [res, ref] of live) {
    if (res.storage === storage && !res.internal && res.released === null && ref.deref() !== except)
      return true;
  }
  return false;
}

/** Tensors directly inside a value (a tensor, or arrays/plain objects of them, a few levels deep). */
export function tensorsIn(
  value: unknown,
  isTensor: (v: unknown) => v is Tensor,
  depth = 4,
): Tensor[] {
  const found: Tensor[] = [];
  const visit = (v: unknown, d: number): void => {
    if (isTensor(v)) found.push(v);
    else if (d > 0 && Array.isArray(v)) v.forEach((x) => visit(x, d - 1));
    else if (d > 0 && v instanceof Map) v.forEach((x) => visit(x, d - 1));
    else if (
      d > 0 &&
      v !== null &&
      typeof v === 'object' &&
      Object.getPrototypeOf(v) === Object.prototype
    ) {
      Object.values(v).forEach((x) => visit(x, d - 1));
    }
  };
  visit(value, depth);
  return found;
}

/** Runs fn; tensors it creates are released when it returns, except those it returns. */
export function runScoped<T>(
  fn: () => T,
  keepersOf: (result: T) => Iterable<Tensor>,
  reason: ReleaseReason,
): T {
  startScope();
  let result: T;
  try {
    result = fn();
  } catch (error) {
    endScope([], reason);
    throw error;
  }
  if (result instanceof Promise) {
    endScope([], reason);
    throw new TypeError('tidy() takes a synchronous function; an async function cannot be tidied');
  }
  endScope(keepersOf(result), reason);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Step sweeps.

/** The host's roots: the kernel registers the notebook's global scope object. */
export function setRootProvider(provider: (() => Iterable<unknown>) | null): void {
  rootProvider = provider;
}

/** How many objects one sweep may visit when looking for tensors the notebook still holds. */
const WALK_BUDGET = 200_000;

function reachableTensors(isTensor: (v: unknown) => v is Tensor): Set<Tensor> {
  const found = new Set<Tensor>();
  if (!rootProvider) return found;
  const visited = new Set<object>();
  const queue: unknown[] = [...rootProvider()];
  let budget = WALK_BUDGET;
  for (let i = 0; i < queue.length && budget > 0; i++) {
    const value = queue[i];
    // Functions too: modules, losses and metrics are callable objects holding tensors in fields.
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) continue;
    if (visited.has(value)) continue;
    visited.add(value);
    budget--;
    if (isTensor(value)) {
      found.add(value);
      continue;
    }
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Promise)
      continue;
    if (Array.isArray(value)) {
      if (value.length > 0 && typeof value[0] === 'number') continue;
      for (const item of value) queue.push(item);
    } else if (value instanceof Map) {
      for (const [k, v] of value) queue.push(k, v);
    } else if (value instanceof Set) {
      for (const v of value) queue.push(v);
    } else {
      // Own data properties only: reading accessors could run user code.
      const descriptors = Object.getOwnPropertyDescriptors(value);
      for (const key of Object.keys(descriptors)) {
        const d = descriptors[key];
        if ('value' in d) queue.push(d.value);
      }
    }
  }
  return found;
}

let tensorCheck: ((v: unknown) => v is Tensor) | null = null;

/** tensor.ts registers its instanceof check here, keeping this module free of a runtime import. */
export function setTensorCheck(check: (v: unknown) => v is Tensor): void {
  tensorCheck = check;
}

/**
 * The end of a training step: spills storages untouched for two steps that nothing persistent or
 * rooted shares, releases candidates the garbage collector has taken, and starts a new step.
 */
export function stepBoundary(): void {
  const closing = generation;
  const candidates: [TensorResources, WeakRef<Tensor>][] = [];
  for (const entry of live) {
    const storage = entry[0].storage;
    // Parked storages come round again: those the garbage collector took are released here.
    if (storage.pinned || storage.spilled || storage.lastUsed >= closing) continue;
    candidates.push(entry);
  }
  if (candidates.length > 0) {
    const rooted = new Set<Storage>();
    if (tensorCheck) for (const t of reachableTensors(tensorCheck)) rooted.add(t.res.storage);
    const toPark = new Set<Storage>();
    for (const [res, ref] of candidates) {
      if (ref.deref() === undefined) releaseResources(res, 'collected');
      else if (!rooted.has(res.storage)) toPark.add(res.storage);
    }
    Storage.parkAll(toPark);
  }
  generation++;
}

/**
 * Counts for tests and diagnostics. `liveTensors` counts user-visible tensors not yet collected,
 * spilled ones included (the garbage collector decides when those go); `deviceTensors` those
 * whose memory is held on their device (not spilled, not parked: as memoryAllocated counts).
 */
export function memoryStats(): {
  liveTensors: number;
  deviceTensors: number;
  generation: number;
  openScopes: number;
} {
  let deviceTensors = 0;
  for (const res of live.keys()) {
    if (!res.storage.spilled && !res.storage.isParked) deviceTensors++;
  }
  return { liveTensors: live.size, deviceTensors, generation, openScopes: scopes.length };
}
