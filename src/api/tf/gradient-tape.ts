/**
 * `tf.GradientTape`: gradients of a target with respect to chosen variables, returned instead of
 * accumulated. The engine records every op on tensors that require grad, so the tape does not
 * record anything itself; `gradient()` runs the engine's backward and hands back what it put in
 * `.grad`, restoring every leaf's previous `.grad`, so a tape and a PyTorch-style loop never see
 * each other's gradients.
 */
import { Tensor, noGrad, ops } from '../../engine';
import { Node } from '../../engine/autograd';
import { bindArgs, boolArg, describe } from '../args';

/** Sources as TF takes them: one variable, a list, or a (nested) list / record of variables. */
export type Sources = Tensor | readonly Sources[] | { readonly [key: string]: Sources };
/** The gradients, in the structure of the sources (null where the target does not depend on one). */
export type Gradients<S> = S extends Tensor
  ? Tensor | null
  : S extends readonly unknown[]
    ? { [K in keyof S]: Gradients<S[K]> }
    : S extends Record<string, unknown>
      ? { [K in keyof S]: Gradients<S[K]> }
      : never;

/** Every leaf tensor whose `.grad` a backward from `root` would write. */
function leavesOf(root: Tensor): Set<Tensor> {
  const leaves = new Set<Tensor>();
  const start = root.res.node;
  if (start === null) {
    if (root.requiresGrad) leaves.add(root);
    return leaves;
  }
  const seen = new Set<Node>([start]);
  const stack: Node[] = [start];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    for (const edge of node.next) {
      if (edge instanceof Node) {
        if (!seen.has(edge)) {
          seen.add(edge);
          stack.push(edge);
        }
      } else if (edge instanceof Tensor) leaves.add(edge);
    }
  }
  return leaves;
}

function flatten(sources: unknown, out: Tensor[], what: string): void {
  if (sources instanceof Tensor) out.push(sources);
  else if (Array.isArray(sources)) sources.forEach((s, i) => flatten(s, out, `${what}[${i}]`));
  else if (
    sources !== null &&
    typeof sources === 'object' &&
    Object.getPrototypeOf(sources) === Object.prototype
  ) {
    for (const [k, v] of Object.entries(sources)) flatten(v, out, `${what}.${k}`);
  } else
    throw new TypeError(
      `GradientTape.gradient: ${what} must be a variable (tensor), got ${describe(sources)}`,
    );
}

function rebuild(sources: unknown, grads: Map<Tensor, Tensor | null>): unknown {
  if (sources instanceof Tensor) return grads.get(sources) ?? null;
  if (Array.isArray(sources)) return sources.map((s) => rebuild(s, grads));
  return Object.fromEntries(
    Object.entries(sources as Record<string, unknown>).map(([k, v]) => [k, rebuild(v, grads)]),
  );
}

export class GradientTapeImpl {
  readonly persistent: boolean;
  private used = false;
  private readonly watched = new Set<Tensor>();

  constructor(...args: unknown[]) {
    const a = bindArgs(
      { name: 'tf.GradientTape', params: ['persistent', 'watchAccessedVariables'] },
      args,
    );
    this.persistent = boolArg(a.persistent, 'GradientTape: persistent');
  }

  /** Makes the tape follow a float tensor that is not a variable (it must be a leaf). */
  watch(tensor: Sources): void {
    const list: Tensor[] = [];
    flatten(tensor, list, 'tensor');
    for (const t of list) {
      if (!t.requiresGrad) t.requiresGrad = true;
      this.watched.add(t);
    }
  }

  watchedVariables(): Tensor[] {
    return [...this.watched];
  }

  /** Runs fn without recording, as `with tape.stop_recording():`. */
  stopRecording<T>(fn: () => T): T {
    return noGrad(fn);
  }

  reset(): void {
    this.used = false;
  }

  /**
   * d target / d sources, in the structure of `sources`. A non-scalar target is summed first (as
   * TF does), unless `outputGradients` gives the upstream gradient.
   */
  // Generic, so an untyped (`any`) list of variables in a cell picks this overload.
  gradient<L extends readonly Tensor[]>(
    target: Tensor,
    sources: L,
    outputGradients?: Tensor | null,
  ): (Tensor | null)[];
  gradient(target: Tensor, sources: Tensor, outputGradients?: Tensor | null): Tensor | null;
  gradient<S extends Sources>(
    target: Tensor,
    sources: S,
    outputGradients?: Tensor | null,
  ): Gradients<S>;
  gradient(target: Tensor, sources: Sources, outputGradients?: Tensor | null): unknown {
    if (!(target instanceof Tensor))
      throw new TypeError(
        `GradientTape.gradient: target must be a tensor, got ${describe(target)}`,
      );
    if (this.used && !this.persistent) {
      throw new Error(
        'A non-persistent GradientTape can only be used to compute one set of gradients (or ' +
          'jacobians); create the tape with new tf.GradientTape({ persistent: true }) to call gradient() again.',
      );
    }
    this.used = true;
    const list: Tensor[] = [];
    flatten(sources, list, 'sources');
    const grads = new Map<Tensor, Tensor | null>(list.map((s) => [s, null]));
    if (target.requiresGrad) {
      const leaves = leavesOf(target);
      for (const s of list) {
        if (!s.isLeaf) {
          throw new Error(
            'GradientTape.gradient: a source was computed from other tensors; gradients are taken ' +
              'with respect to variables (leaf tensors such as model.trainableVariables) only',
          );
        }
      }
      const saved = new Map<Tensor, Tensor | null>();
      for (const leaf of leaves) {
        saved.set(leaf, leaf.grad);
        leaf.grad = null;
      }
      try {
        const seed =
          outputGradients ?? (target.numel() === 1 ? undefined : ops.fullLike(target, 1));
        target.backward(seed ?? null, { retainGraph: this.persistent });
        for (const s of list) if (leaves.has(s)) grads.set(s, s.grad);
      } finally {
        for (const [leaf, previous] of saved) leaf.grad = previous;
      }
    }
    return rebuild(sources, grads);
  }
}

/**
 * `new tf.GradientTape()` (or `{ persistent: true }`), and the callback form
 * `tf.GradientTape((tape) => …)`, which runs the body with a fresh tape and returns its result.
 */
export interface GradientTapeConstructor {
  new (options?: { persistent?: boolean; watchAccessedVariables?: boolean }): GradientTapeImpl;
  <T>(body: (tape: GradientTapeImpl) => T): T;
  readonly prototype: GradientTapeImpl;
}

export const GradientTape = new Proxy(GradientTapeImpl, {
  apply(_target, _this, args: unknown[]) {
    const [body] = args;
    if (typeof body !== 'function') {
      throw new TypeError(
        'tf.GradientTape(fn) takes a function (tape) => …; use new tf.GradientTape() for a tape object',
      );
    }
    return (body as (tape: GradientTapeImpl) => unknown)(new GradientTapeImpl());
  },
}) as unknown as GradientTapeConstructor;

export type GradientTape = GradientTapeImpl;

/** `tf.function(fn)`: graphs are not compiled here; the function runs eagerly as written. */
export function tfFunction<F>(fn: F): F {
  if (typeof fn !== 'function') throw new TypeError('tf.function expects a function');
  return fn;
}

/** Python's `zip(a, b, …)` for `optimizer.applyGradients(tf.zip(gradients, variables))`. */
export function zip<A, B>(a: Iterable<A>, b: Iterable<B>): [A, B][];
export function zip(...lists: Iterable<unknown>[]): unknown[][];
export function zip(...lists: Iterable<unknown>[]): unknown[][] {
  const arrays = lists.map((l) => [...l]);
  const n = Math.min(...arrays.map((a) => a.length));
  return Array.from({ length: n }, (_, i) => arrays.map((a) => a[i]));
}
