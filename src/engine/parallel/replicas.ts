/**
 * Replicas of a model's tensors on several devices, for data parallelism: device 0 holds the
 * primary tensors (the ones the optimizer updates); every other device holds a kept copy that is
 * refreshed from its primary only when the primary changed (a broadcast, enqueued, never awaited).
 *
 * A replica runs the model's own code: `withReplica` swaps every reference to a primary tensor
 * reachable from the model (module fields, Keras weight lists) for its copy while a synchronous
 * forward runs, then puts the primaries back. So one model object serves every device, layers
 * need no replication logic, and autograd sees the copies as the leaves of that replica's graph.
 */
import { noGrad } from '../autograd';
import type { Device } from '../devices/device';
import { copyInto } from '../ops/inplace';
import { toDevice } from '../ops/transfer';
import type { Storage } from '../storage';
import { Tensor } from '../tensor';

interface Synced {
  storage: Storage;
  version: number;
}

/** Called when a copy is made (DataParallel hooks the copy's gradient here). */
export type CopyListener = (primary: Tensor, copy: Tensor, replica: number) => void;

export class ReplicaSet {
  private readonly copies = new Map<Tensor, (Tensor | undefined)[]>();
  private readonly synced = new Map<Tensor, (Synced | undefined)[]>();

  constructor(
    readonly devices: readonly Device[],
    private readonly onCopy?: CopyListener,
  ) {
    if (devices.length === 0) throw new Error('a replica set needs at least one device');
  }

  get primary(): Device {
    return this.devices[0];
  }

  /** `primary`'s copy on devices[replica], made or brought up to date first (replica 0: itself). */
  copyOf(primary: Tensor, replica: number): Tensor {
    if (replica === 0) return primary;
    const device = this.devices[replica];
    let copies = this.copies.get(primary);
    let synced = this.synced.get(primary);
    if (!copies || !synced) {
      copies = [];
      synced = [];
      this.copies.set(primary, copies);
      this.synced.set(primary, synced);
    }
    const storage = primary.res.storage;
    const last = synced[replica];
    let copy = copies[replica];
    if (!copy) {
      const made = noGrad(() => toDevice(primary.detach(), device));
      made.requiresGrad = primary.requiresGrad;
      made.keep();
      copies[replica] = made;
      this.onCopy?.(primary, made, replica);
      copy = made;
    } else if (!last || last.storage !== storage || last.version !== storage.version) {
      const target = copy;
      noGrad(() => copyInto(target, primary));
    } else return copy;
    synced[replica] = { storage, version: storage.version };
    return copy;
  }

  /**
   * Runs fn with every reference to one of `tensors` reachable from `root` replaced by its copy on
   * devices[replica]. `descend` says which class instances belong to the model (modules, layers);
   * arrays and plain objects are always searched. fn must be synchronous.
   */
  withReplica<T>(
    replica: number,
    root: object,
    tensors: readonly Tensor[],
    descend: (value: object) => boolean,
    fn: () => T,
  ): T {
    if (replica === 0) return fn();
    const map = new Map<Tensor, Tensor>();
    for (const t of tensors) map.set(t, this.copyOf(t, replica));
    const restore = swapReferences(root, map, descend);
    try {
      const result = fn();
      if (result instanceof Promise) {
        throw new Error('a replica forward must be synchronous (it returned a Promise)');
      }
      return result;
    } catch (error) {
      throw unreplicated(error, root, this.devices[replica], this.primary);
    } finally {
      restore();
    }
  }

  /** Every copy made so far (for tests and memory accounting). */
  allCopies(): Tensor[] {
    return [...this.copies.values()].flatMap((list) => list.filter((t): t is Tensor => !!t));
  }
}

/**
 * A device mismatch inside a replica's forward means the model used a tensor the swap could not
 * reach: one kept in a #private field or a closure, or cached from a parameter (a
 * flattened weight). Say which model and what to do; other errors pass unchanged.
 */
function unreplicated(error: unknown, root: object, device: Device, primary: Device): unknown {
  if (!(error instanceof Error) || !error.message.startsWith('Expected all tensors')) return error;
  const roots = Array.isArray(root) ? (root as object[]) : [root];
  const names = roots.map((r) => r.constructor.name).join(', ');
  return new Error(
    `${error.message} DataParallel could not replicate ${names} on ${device.name}: its forward ` +
      `used a tensor on ${primary.name} that is not one of its parameters or buffers (kept in a ` +
      `#private field or a closure, or cached from a parameter). Register it as a buffer, ` +
      `or compute it inside forward, so that each replica gets its own copy.`,
    { cause: error },
  );
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Replaces tensor references in place; returns the function that puts them back. */
function swapReferences(
  root: object,
  map: ReadonlyMap<Tensor, Tensor>,
  descend: (value: object) => boolean,
): () => void {
  const undo: (() => void)[] = [];
  const seen = new Set<object>([root]);
  const stack: object[] = [root];
  const visit = (value: unknown, swap: (copy: Tensor) => (() => void) | null) => {
    if (value instanceof Tensor) {
      const copy = map.get(value);
      const back = copy ? swap(copy) : null;
      if (back) undo.push(back);
      return;
    }
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return;
    if (seen.has(value) || ArrayBuffer.isView(value)) return;
    // Maps too: a Keras model subclassed in Python keeps its layers and add_weight variables in
    // Maps (TrackedLayers in python-layer.ts), and its replicas must see their copies.
    if (Array.isArray(value) || value instanceof Map || isPlainObject(value) || descend(value)) {
      seen.add(value);
      stack.push(value);
    }
  };
  while (stack.length > 0) {
    const holder = stack.pop() as Record<string, unknown>;
    if (holder instanceof Map) {
      const m = holder as Map<unknown, unknown>;
      for (const [key, value] of m) {
        visit(value, (copy) => (m.set(key, copy), () => m.set(key, value)));
      }
      continue;
    }
    for (const key of Object.keys(holder)) {
      const value = holder[key];
      visit(value, (copy) => (Reflect.set(holder, key, copy) ? () => (holder[key] = value) : null));
    }
  }
  return () => {
    for (let i = undo.length - 1; i >= 0; i--) undo[i]();
  };
}
