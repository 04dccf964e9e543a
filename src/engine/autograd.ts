/**
 * The autograd graph: nodes that hold an op's backward closure, the tensors it saved, and edges to
 * the nodes (or leaf tensors) of its inputs; plus the grad mode switch. Ops attach nodes with
 * `withGrad`, right beside their forward code; `backward.ts` walks the graph.
 */
import { releaseResources } from './memory';
import type { Tensor } from './tensor';

let gradEnabled = true;

export function isGradEnabled(): boolean {
  return gradEnabled;
}

export function setGradEnabled(enabled: boolean): void {
  gradEnabled = enabled;
}

function withGradMode<T>(enabled: boolean, fn: () => T): T {
  const previous = gradEnabled;
  gradEnabled = enabled;
  let result: T;
  try {
    result = fn();
  } catch (error) {
    gradEnabled = previous;
    throw error;
  }
  if (result instanceof Promise) {
    return result.finally(() => {
      gradEnabled = previous;
    }) as T;
  }
  gradEnabled = previous;
  return result;
}

/** Runs fn (sync or async) without recording a graph, like `with torch.no_grad():`. */
export function noGrad<T>(fn: () => T): T {
  return withGradMode(false, fn);
}

export function enableGrad<T>(fn: () => T): T {
  return withGradMode(true, fn);
}

/** Gradients of an op's inputs from the gradient of its output; null where none flows. */
export type BackwardFn = (grad: Tensor) => readonly (Tensor | null)[];

/** A node's edge: the producing node of a non-leaf input, the leaf tensor itself, or nothing. */
export type Edge = Node | Tensor | null;

export class Node {
  /** Live tensors whose grad_fn this is, plus nodes with an edge to it. */
  private refs = 0;
  backwardFn: BackwardFn | null = null;
  readonly saved: Tensor[] = [];
  readonly savedVersions: number[] = [];
  /** True once the saved tensors are gone (after backward without retainGraph). */
  freed = false;

  constructor(
    public name: string,
    readonly next: readonly Edge[],
  ) {
    for (const edge of next) if (edge instanceof Node) edge.ref();
  }

  ref(): void {
    this.refs++;
  }

  /** Drops one reference; a node nothing refers to frees its saved tensors and its edges. */
  unref(): void {
    const stack: Node[] = [this];
    while (stack.length > 0) {
      const node = stack.pop() as Node;
      node.refs--;
      if (node.refs > 0) continue;
      node.freeSaved();
      node.backwardFn = null;
      for (const edge of node.next) if (edge instanceof Node) stack.push(edge);
    }
  }

  freeSaved(): void {
    this.freed = true;
    // The closure goes too: it may hold the op's output (elementwise ops hand y to gradients that
    // never read it), and through the output's resources (a root of memory.ts) that output would
    // stay out of the garbage collector's reach, to be spilled by step sweeps instead.
    this.backwardFn = null;
    for (const t of this.saved) releaseResources(t.res, 'graph');
  }

  /** Throws PyTorch's error when a saved tensor was overwritten in place after it was saved. */
  checkVersions(): void {
    this.saved.forEach((t, i) => {
      const now = t.res.storage.version;
      if (now !== this.savedVersions[i]) {
        throw new Error(
          `one of the variables needed for gradient computation has been modified by an inplace ` +
            `operation: [${t.dtype} ${JSON.stringify(t.shape)}], which is output 0 of ` +
            `${this.name}, is at version ${now}; expected version ${this.savedVersions[i]} instead.`,
        );
      }
    });
  }
}

type Operand = Tensor | number | null | undefined;

function isTensorLike(x: Operand): x is Tensor {
  return x !== null && typeof x === 'object';
}

/** True when an op with these inputs must record a node. */
export function needsGrad(...inputs: Operand[]): boolean {
  return gradEnabled && inputs.some((x) => isTensorLike(x) && x.requiresGrad);
}

/**
 * Names the node that made `out` as PyTorch names the op, where the engine composes it of others:
 * `F.binary_cross_entropy_with_logits(...).grad_fn` is BinaryCrossEntropyWithLogitsBackward0 in
 * PyTorch, not the Mean of the composition's last step (tutorials print it). Only the name
 * changes; `out` must be the composition's fresh result, whose node nothing else shows.
 */
export function presentAs(out: Tensor, name: string): Tensor {
  const node = out.res.node;
  if (node) node.name = name;
  return out;
}

/**
 * Attaches a backward closure to `out` when any input requires grad. `build` receives `save`,
 * which returns autograd's own handle on a tensor the backward will read, and returns the closure.
 */
export function withGrad(
  name: string,
  inputs: readonly Operand[],
  out: Tensor,
  build: (save: (t: Tensor) => Tensor) => BackwardFn,
): Tensor {
  if (!needsGrad(...inputs)) return out;
  const edges: Edge[] = inputs.map((x) =>
    isTensorLike(x) && x.requiresGrad ? (x.res.node ?? x) : null,
  );
  const node = new Node(name, edges);
  const save = (t: Tensor): Tensor => {
    const handle = t.savedHandle();
    node.saved.push(handle);
    node.savedVersions.push(t.res.storage.version);
    return handle;
  };
  node.backwardFn = build(save);
  out.attachNode(node);
  return out;
}
