/**
 * torch.einsum and torch.outer. The equation is reduced to the engine's ops: labels no later
 * operand or the output needs are summed out of each operand first, then operands are contracted
 * left to right, each pair as one batched matmul ([batch, left, contracted] @ [batch, contracted,
 * right]), and the result is summed and permuted into the output's order. Ellipses stand for the
 * same broadcast dims in every operand; gradients come from the ops used.
 */
import { ShapeError, formatShape } from '../shape';
import type { Tensor } from '../tensor';
import { expand } from './broadcast';
import { binaryOps, mul } from './elementwise';
import { eye } from './masks';
import { matmul } from './matmul';
import { sum } from './reduce';
import { permute, reshape } from './shape-ops';
import { inputsDevice, scoped } from './support';

/** One operand with one label per dim (an ellipsis's dims get labels of their own). */
interface Term {
  t: Tensor;
  labels: string[];
}

// Labels an ellipsis's dims get: outside a-zA-Z, so they never meet a user's letter.
const ellipsisLabel = (i: number): string => String.fromCharCode(0x100 + i);

function parse(equation: string, operands: readonly Tensor[]): { terms: Term[]; output: string[] } {
  const eq = equation.replace(/\s+/g, '');
  const [lhs, rhs] = eq.includes('->') ? eq.split('->') : [eq, null];
  const specs = lhs.split(',');
  if (specs.length !== operands.length) {
    throw new ShapeError(
      `einsum(): ${specs.length} operands were given in the equation but ${operands.length} tensors were passed`,
    );
  }
  const bad = /[^a-zA-Z.]/.exec(lhs.replace(/,/g, '') + (rhs ?? ''));
  if (bad)
    throw new ShapeError(
      `einsum(): invalid subscript given at index of '${bad[0]}' in the equation string, subscripts must be in [a-zA-Z]`,
    );
  let ellipsisDims = 0;
  const terms = specs.map((spec, i): Term => {
    const t = operands[i];
    const parts = spec.split('...');
    if (parts.length > 2)
      throw new ShapeError('einsum(): found more than one ellipsis in an operand');
    const named = parts.join('').length;
    const covered = parts.length === 2 ? t.ndim - named : 0;
    if (covered < 0 || (parts.length === 1 && named !== t.ndim)) {
      throw new ShapeError(
        `einsum(): the number of subscripts in the equation (${named}) does not match the number of dimensions (${t.ndim}) for operand ${i}${parts.length === 1 ? ' and no ellipsis was given' : ''}`,
      );
    }
    ellipsisDims = Math.max(ellipsisDims, covered);
    return { t, labels: [...parts[0], ...Array<string>(covered).fill('…'), ...(parts[1] ?? '')] };
  });
  // Right-align each operand's ellipsis dims on the common ones (they broadcast).
  for (const term of terms) {
    const covered = term.labels.filter((l) => l === '…').length;
    let k = ellipsisDims - covered;
    term.labels = term.labels.map((l) => (l === '…' ? ellipsisLabel(k++) : l));
  }
  const ellipsis = Array.from({ length: ellipsisDims }, (_, i) => ellipsisLabel(i));
  let output: string[];
  if (rhs === null) {
    // Implicit output: the ellipsis dims, then the letters used once, in alphabetical order.
    const counts = new Map<string, number>();
    for (const term of terms)
      for (const l of term.labels)
        if (l.length === 1 && l < '\u0100') counts.set(l, (counts.get(l) ?? 0) + 1);
    output = [
      ...ellipsis,
      ...[...counts]
        .filter(([, n]) => n === 1)
        .map(([l]) => l)
        .sort(),
    ];
  } else {
    const parts = rhs.split('...');
    output = parts.length === 2 ? [...parts[0], ...ellipsis, ...parts[1]] : [...rhs];
    for (const l of output) {
      if (!terms.some((term) => term.labels.includes(l)))
        throw new ShapeError(
          `einsum(): output subscript ${l} does not appear in the equation for any input operand`,
        );
    }
  }
  return { terms, output };
}

function sumOut(term: Term, keep: (label: string) => boolean): Term {
  const dims = term.labels.flatMap((l, d) => (keep(l) ? [] : [d]));
  if (dims.length === 0) return term;
  return { t: sum(term.t, dims), labels: term.labels.filter((l) => keep(l)) };
}

function contract(a: Term, b: Term, needed: Set<string>, sizes: Map<string, number>): Term {
  const inB = new Set(b.labels);
  const batch = a.labels.filter((l) => inB.has(l) && needed.has(l));
  const shared = a.labels.filter((l) => inB.has(l) && !needed.has(l));
  const left = a.labels.filter((l) => !inB.has(l));
  const right = b.labels.filter((l) => !a.labels.includes(l));
  const size = (ls: string[]) => ls.reduce((n, l) => n * (sizes.get(l) ?? 1), 1);
  const order = (term: Term, ls: string[]) =>
    permute(
      term.t,
      ls.map((l) => term.labels.indexOf(l)),
    );
  const a3 = reshape(order(a, [...batch, ...left, ...shared]), [
    size(batch),
    size(left),
    size(shared),
  ]);
  const b3 = reshape(order(b, [...batch, ...shared, ...right]), [
    size(batch),
    size(shared),
    size(right),
  ]);
  const labels = [...batch, ...left, ...right];
  return {
    t: reshape(
      matmul(a3, b3),
      labels.map((l) => sizes.get(l) ?? 1),
    ),
    labels,
  };
}

/** Each label's size; dims of size 1 broadcast against it. */
function labelSizes(terms: readonly Term[]): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const term of terms) {
    term.labels.forEach((l, d) => {
      const s = term.t.shape[d];
      const known = sizes.get(l);
      if (known !== undefined && known !== s && known !== 1 && s !== 1) {
        throw new ShapeError(
          `einsum(): operands do not broadcast with remapped shapes (original->remapped): subscript ${l} has size ${known} and ${s} (${formatShape(term.t.shape)})`,
        );
      }
      sizes.set(l, Math.max(known ?? s, s));
    });
  }
  return sizes;
}

/**
 * A label repeated within one operand ('ii->i', 'bii->bi') takes the diagonal of those dims: the
 * entries off it masked to 0 (an identity mask built on the device), the second dim summed out.
 */
function takeDiagonals(term: Term): Term {
  let { t, labels } = term;
  for (;;) {
    const second = labels.findIndex((l, i) => labels.indexOf(l) !== i);
    if (second < 0) return { t, labels };
    const first = labels.indexOf(labels[second]);
    const n = t.shape[first];
    if (t.shape[second] !== n) {
      throw new ShapeError(
        `einsum(): subscript ${labels[first]} is repeated for operand ${formatShape(t.shape)} but the sizes don't match, ${n} != ${t.shape[second]}`,
      );
    }
    const maskShape = t.shape.map((_, d) => (d === first || d === second ? n : 1));
    const identity = reshape(eye(n, n, { device: t.deviceObject, dtype: 'int32' }), maskShape);
    t = sum(binaryOps.keepWhere(t, identity), second);
    labels = labels.filter((_, d) => d !== second);
  }
}

/** torch.einsum(equation, *operands). */
export function einsum(equation: string, operands: readonly Tensor[]): Tensor {
  if (operands.length === 0) throw new ShapeError('einsum(): must provide at least one operand');
  inputsDevice('einsum', ...operands);
  const { terms, output } = parse(equation, operands);
  return scoped(() => {
    const diagonals = terms.map(takeDiagonals);
    const sizes = labelSizes(diagonals);
    const ts = diagonals.map((term) => {
      const shape = term.labels.map((l) => sizes.get(l) ?? 1);
      return shape.every((s, d) => s === term.t.shape[d])
        ? term
        : { ...term, t: expand(term.t, shape) };
    });
    const neededAfter = (i: number): Set<string> =>
      new Set([...output, ...ts.slice(i + 1).flatMap((term) => term.labels)]);
    let acc = sumOut(ts[0], (l) => neededAfter(0).has(l));
    for (let i = 1; i < ts.length; i++) {
      const needed = neededAfter(i);
      const other = sumOut(ts[i], (l) => needed.has(l) || acc.labels.includes(l));
      acc = sumOut(acc, (l) => needed.has(l) || other.labels.includes(l));
      acc = contract(acc, other, needed, sizes);
    }
    acc = sumOut(acc, (l) => output.includes(l));
    const result = acc;
    return permute(
      result.t,
      output.map((l) => result.labels.indexOf(l)),
    );
  });
}

/** torch.outer(a, b): the [n, m] matrix a[i]·b[j] of two vectors. */
export function outer(a: Tensor, b: Tensor): Tensor {
  if (a.ndim !== 1 || b.ndim !== 1) {
    throw new ShapeError(
      `outer: expected 1-D tensors, got ${formatShape(a.shape)} and ${formatShape(b.shape)}`,
    );
  }
  return scoped(() => mul(reshape(a, [a.shape[0], 1]), reshape(b, [1, b.shape[0]])));
}
