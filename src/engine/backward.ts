/**
 * Reverse-mode differentiation: walks the graph from a tensor in reverse topological order, calls
 * each node's backward closure, and accumulates into the `.grad` of leaves. Runs without recording
 * a graph, inside a scope so every intermediate gradient is released when it returns.
 */
import { Node, noGrad } from './autograd';
import { endScope, scopeHolders, startScope } from './memory';
import * as elementwise from './ops/elementwise';
import * as inplace from './ops/inplace';
import { clone, slice, sliceOfNode, type SliceSpec } from './ops/shape-ops';
import { fullLike, zeros } from './ops/creation';
import { kernelView } from './ops/support';
import { formatShape, shapesEqual, type Shape } from './shape';
import type { Tensor } from './tensor';

/** Nodes reachable from `root`, each after every node that feeds it a gradient. */
function reverseTopological(root: Node): Node[] {
  const order: Node[] = [];
  const seen = new Set<Node>([root]);
  const stack: [Node, number][] = [[root, 0]];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const [node, i] = top;
    if (i < node.next.length) {
      top[1]++;
      const edge = node.next[i];
      if (edge instanceof Node && !seen.has(edge)) {
        seen.add(edge);
        stack.push([edge, 0]);
      }
    } else {
      stack.pop();
      order.push(node);
    }
  }
  return order.reverse();
}

interface SlicePiece {
  readonly g: Tensor;
  readonly spec: SliceSpec;
}

/**
 * The gradient of an input sliced several times: `dense` (what its other uses sent, or null) plus
 * each slice's gradient added into its range, in one buffer of the input's shape. Summing the
 * slices' zero-padded gradients instead costs a full-size add per slice: O(T²) for an RNN's T
 * time steps.
 */
function addSliceGrads(shape: Shape, dense: Tensor | null, pieces: readonly SlicePiece[]): Tensor {
  const first = pieces[0].g;
  const out =
    dense !== null
      ? clone(dense)
      : zeros(shape, { device: first.deviceObject, dtype: first.dtype });
  const backend = out.deviceObject.backend;
  for (const { g, spec } of pieces) {
    if (g.numel() === 0) continue;
    const end = spec.start + (g.shape[spec.dim] - 1) * spec.step + 1;
    const region = slice(out, spec.dim, spec.start, end, spec.step);
    // Read the range, add, write it back: a kernel may not bind one buffer as input and output.
    backend.assign(kernelView(elementwise.add(region, g)), kernelView(region));
  }
  return out;
}

export function backward(root: Tensor, gradient: Tensor | null, retainGraph: boolean): void {
  if (!root.requiresGrad) {
    throw new Error('element 0 of tensors does not require grad and does not have a grad_fn');
  }
  if (gradient === null && root.numel() !== 1) {
    throw new Error(
      `grad can be implicitly created only for scalar outputs (this tensor has shape ` +
        `${formatShape(root.shape)}); pass a gradient of the same shape to backward()`,
    );
  }
  if (gradient !== null && !shapesEqual(gradient.shape, root.shape)) {
    throw new Error(
      `backward: gradient has shape ${formatShape(gradient.shape)} but the tensor has shape ` +
        `${formatShape(root.shape)}`,
    );
  }
  const newGrads: Tensor[] = [];
  const updatedLeaves: Tensor[] = [];
  startScope();
  try {
    noGrad(() => {
      const seed = gradient ?? fullLike(root, 1);
      const leafGrads = new Map<Tensor, Tensor>();
      const addLeaf = (leaf: Tensor, g: Tensor): void => {
        const previous = leafGrads.get(leaf);
        leafGrads.set(leaf, previous ? elementwise.add(previous, g) : g);
      };
      const rootNode = root.res.node;
      if (rootNode === null) addLeaf(root, seed);
      else {
        const grads = new Map<Node, Tensor>([[rootNode, seed]]);
        // Slices' gradients by the input they slice, added into one buffer when it is reached.
        const pieces = new Map<Node | Tensor, { shape: Shape; list: SlicePiece[] }>();
        const gradOf = (node: Node): Tensor | undefined => {
          const dense = grads.get(node);
          const sliced = pieces.get(node);
          if (sliced === undefined) return dense;
          pieces.delete(node);
          return addSliceGrads(sliced.shape, dense ?? null, sliced.list);
        };
        for (const node of reverseTopological(rootNode)) {
          const g = gradOf(node);
          grads.delete(node);
          const spec = sliceOfNode(node);
          const target = node.next[0];
          if (g !== undefined && spec !== undefined && target !== null && !node.freed) {
            const entry = pieces.get(target) ?? { shape: spec.shape, list: [] };
            entry.list.push({ g, spec });
            pieces.set(target, entry);
          } else if (g !== undefined) {
            if (node.freed || node.backwardFn === null) {
              throw new Error(
                'Trying to backward through the graph a second time (or directly access saved ' +
                  'tensors after they have already been freed). Saved intermediate values of the ' +
                  'graph are freed when you call .backward(); pass { retainGraph: true } to ' +
                  'backward twice.',
              );
            }
            node.checkVersions();
            const inputGrads = node.backwardFn(g);
            node.next.forEach((edge, i) => {
              const gi = inputGrads[i];
              if (edge === null || gi === null || gi === undefined) return;
              if (edge instanceof Node) {
                const previous = grads.get(edge);
                grads.set(edge, previous ? elementwise.add(previous, gi) : gi);
              } else addLeaf(edge, gi);
            });
          }
          if (!retainGraph) node.freeSaved();
        }
        // Leaves that were sliced: their pieces join whatever else they were sent.
        for (const [leaf, sliced] of pieces) {
          if (leaf instanceof Node) continue;
          const dense = leafGrads.get(leaf) ?? null;
          leafGrads.set(leaf, addSliceGrads(sliced.shape, dense, sliced.list));
        }
      }
      const given = new Set<Tensor>();
      for (const [leaf, g] of leafGrads) {
        if (leaf.isDisposed) continue;
        updatedLeaves.push(leaf);
        const existing = leaf.gradInternal;
        if (existing !== null && !existing.isDisposed && existing.isContiguous()) {
          // Accumulate in place, as PyTorch does, so a held reference to .grad sees the sum.
          inplace.copyInto(existing, elementwise.add(existing, g));
          continue;
        }
        const sum = existing !== null && !existing.isDisposed ? elementwise.add(existing, g) : g;
        // A gradient may be a broadcast view or shared with another leaf; .grad must own its memory.
        const owned =
          ownsWholeStorage(sum, given) && !given.has(sum) && sum !== gradient ? sum : clone(sum);
        given.add(owned);
        leaf.setGradInternal(owned);
        newGrads.push(owned);
      }
    });
  } finally {
    endScope(newGrads);
  }
  // Outside the scope: what hooks make (e.g. a gradient copied to another device) must survive.
  for (const leaf of updatedLeaves) leaf.runPostAccumulateGradHooks();
}

/**
 * Whether `t` may become a leaf's `.grad` as it is: contiguous over its whole storage, and held
 * by nothing that outlives this backward. Views the backward itself made on the way (a reshape of
 * a sum, the transpose of a weight's product) share the storage but end with its scope, so they
 * do not count; anything else does (a user's tensor, a handle saved for a double backward, or
 * another leaf's new gradient), and then the gradient is copied.
 */
function ownsWholeStorage(t: Tensor, given: ReadonlySet<Tensor>): boolean {
  if (t.res.internal || !t.isContiguous() || t.offset !== 0) return false;
  const storage = t.res.storage;
  if (storage.bytes !== t.numel() * 4) return false;
  if (storage.refCount === 1) return true;
  const temporaries = scopeHolders(storage, t);
  if (temporaries.some((other) => given.has(other))) return false;
  return storage.refCount === 1 + temporaries.length;
}
