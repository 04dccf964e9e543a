/**
 * Float64 reference implementations for tests: plain loops written independently of the engine
 * (no im2col, no strides), plus central finite differences for gradients.
 */

export interface Ref {
  shape: number[];
  data: Float64Array;
}

export function ref(shape: number[], data: ArrayLike<number>): Ref {
  return { shape: [...shape], data: Float64Array.from(data) };
}

export function size(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

export function stridesOf(shape: readonly number[]): number[] {
  const s = new Array<number>(shape.length).fill(1);
  for (let i = shape.length - 2; i >= 0; i--) s[i] = s[i + 1] * shape[i + 1];
  return s;
}

/** Multi-index of flat position i. */
export function unravel(i: number, shape: readonly number[]): number[] {
  const idx = new Array<number>(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    idx[d] = i % shape[d];
    i = Math.floor(i / shape[d]);
  }
  return idx;
}

export function ravel(idx: readonly number[], shape: readonly number[]): number {
  let flat = 0;
  for (let d = 0; d < shape.length; d++) flat = flat * shape[d] + idx[d];
  return flat;
}

export function broadcastShape(a: readonly number[], b: readonly number[]): number[] {
  const rank = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < rank; i++) {
    const x = a[a.length - rank + i] ?? 1;
    const y = b[b.length - rank + i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) throw new Error('reference: shapes do not broadcast');
    out.push(Math.max(x, y) === 0 ? 0 : x === 1 ? y : x);
  }
  return out;
}

/** Element of `a` seen at output multi-index `idx` under broadcasting. */
function at(a: Ref, idx: readonly number[]): number {
  const lead = idx.length - a.shape.length;
  let flat = 0;
  for (let d = 0; d < a.shape.length; d++)
    flat = flat * a.shape[d] + (a.shape[d] === 1 ? 0 : idx[lead + d]);
  return a.data[flat];
}

export function map(a: Ref, f: (x: number) => number): Ref {
  return { shape: [...a.shape], data: a.data.map(f) };
}

export function zip(a: Ref, b: Ref, f: (x: number, y: number) => number): Ref {
  const shape = broadcastShape(a.shape, b.shape);
  const data = new Float64Array(size(shape));
  for (let i = 0; i < data.length; i++) {
    const idx = unravel(i, shape);
    data[i] = f(at(a, idx), at(b, idx));
  }
  return { shape, data };
}

/** Reduces the listed dims (all when undefined) with f over the values of each group. */
export function reduce(
  a: Ref,
  dims: number[] | undefined,
  keepdim: boolean,
  f: (values: number[]) => number,
): Ref {
  const rank = a.shape.length;
  const reduced = (dims ?? a.shape.map((_, i) => i)).map((d) => (d < 0 ? d + rank : d));
  const outShapeKeep = a.shape.map((s, i) => (reduced.includes(i) ? 1 : s));
  const groups = new Map<number, number[]>();
  for (let i = 0; i < a.data.length; i++) {
    const idx = unravel(i, a.shape).map((v, d) => (reduced.includes(d) ? 0 : v));
    const key = ravel(idx, outShapeKeep);
    let list = groups.get(key);
    if (!list) groups.set(key, (list = []));
    list.push(a.data[i]);
  }
  const data = new Float64Array(size(outShapeKeep));
  for (let k = 0; k < data.length; k++) data[k] = f(groups.get(k) ?? []);
  const shape = keepdim ? outShapeKeep : a.shape.filter((_, i) => !reduced.includes(i));
  return { shape, data };
}

export const sumOf = (v: number[]): number => v.reduce((s, x) => s + x, 0);

/** Batched matmul with torch.matmul's broadcasting (operands at least 2-D here). */
export function matmul(a: Ref, b: Ref): Ref {
  const [m, k] = a.shape.slice(-2);
  const [k2, n] = b.shape.slice(-2);
  if (k !== k2) throw new Error('reference matmul: inner dims differ');
  const batch = broadcastShape(a.shape.slice(0, -2), b.shape.slice(0, -2));
  const shape = [...batch, m, n];
  const data = new Float64Array(size(shape));
  const batches = size(batch);
  for (let bi = 0; bi < batches; bi++) {
    const bidx = unravel(bi, batch);
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let p = 0; p < k; p++) s += at(a, [...bidx, i, p]) * at(b, [...bidx, p, j]);
        data[bi * m * n + i * n + j] = s;
      }
    }
  }
  return { shape, data };
}

/** Softmax (or log-softmax) along dim. */
export function softmax(a: Ref, dim: number, log: boolean): Ref {
  const rank = a.shape.length;
  const d = dim < 0 ? dim + rank : dim;
  const out = new Float64Array(a.data.length);
  const stride = stridesOf(a.shape)[d];
  const len = a.shape[d];
  for (let i = 0; i < a.data.length; i++) {
    const idx = unravel(i, a.shape);
    if (idx[d] !== 0) continue;
    const vals = Array.from({ length: len }, (_, j) => a.data[i + j * stride]);
    const max = Math.max(...vals);
    const sum = vals.reduce((s, v) => s + Math.exp(v - max), 0);
    vals.forEach(
      (v, j) => (out[i + j * stride] = log ? v - max - Math.log(sum) : Math.exp(v - max) / sum),
    );
  }
  return { shape: [...a.shape], data: out };
}

/** Direct-loop conv2d on [N, C, H, W] with weight [O, C, kH, kW]. */
export function conv2d(
  x: Ref,
  w: Ref,
  bias: Ref | null,
  stride: [number, number],
  pad: [number, number],
  dil: [number, number],
): Ref {
  const [N, C, H, W] = x.shape;
  const [O, , KH, KW] = w.shape;
  const OH = Math.floor((H + 2 * pad[0] - dil[0] * (KH - 1) - 1) / stride[0]) + 1;
  const OW = Math.floor((W + 2 * pad[1] - dil[1] * (KW - 1) - 1) / stride[1]) + 1;
  const out = new Float64Array(N * O * OH * OW);
  for (let n = 0; n < N; n++)
    for (let o = 0; o < O; o++)
      for (let oh = 0; oh < OH; oh++)
        for (let ow = 0; ow < OW; ow++) {
          let s = bias ? bias.data[o] : 0;
          for (let c = 0; c < C; c++)
            for (let kh = 0; kh < KH; kh++)
              for (let kw = 0; kw < KW; kw++) {
                const ih = oh * stride[0] - pad[0] + kh * dil[0];
                const iw = ow * stride[1] - pad[1] + kw * dil[1];
                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                s +=
                  x.data[((n * C + c) * H + ih) * W + iw] *
                  w.data[((o * C + c) * KH + kh) * KW + kw];
              }
          out[((n * O + o) * OH + oh) * OW + ow] = s;
        }
  return { shape: [N, O, OH, OW], data: out };
}

/** Max pooling of [N, C, H, W] with explicit windows per output position. */
export function maxPool2d(
  x: Ref,
  outH: number,
  outW: number,
  window: (axis: 0 | 1, i: number) => [number, number],
): Ref {
  const [N, C, H, W] = x.shape;
  const out = new Float64Array(N * C * outH * outW);
  for (let nc = 0; nc < N * C; nc++)
    for (let oh = 0; oh < outH; oh++)
      for (let ow = 0; ow < outW; ow++) {
        const [h0, h1] = window(0, oh);
        const [w0, w1] = window(1, ow);
        let best = -Infinity;
        for (let h = Math.max(0, h0); h < Math.min(H, h1); h++)
          for (let w = Math.max(0, w0); w < Math.min(W, w1); w++)
            best = Math.max(best, x.data[nc * H * W + h * W + w]);
        out[(nc * outH + oh) * outW + ow] = best;
      }
  return { shape: [N, C, outH, outW], data: out };
}

/**
 * Central finite differences of a scalar function of several inputs, in float64: the gradient
 * w.r.t. input `which`.
 */
export function numericGrad(
  f: (inputs: Ref[]) => number,
  inputs: Ref[],
  which: number,
  eps = 1e-6,
): Float64Array {
  const grad = new Float64Array(inputs[which].data.length);
  for (let i = 0; i < grad.length; i++) {
    const plus = inputs.map((r) => ({ shape: r.shape, data: Float64Array.from(r.data) }));
    const minus = inputs.map((r) => ({ shape: r.shape, data: Float64Array.from(r.data) }));
    plus[which].data[i] += eps;
    minus[which].data[i] -= eps;
    grad[i] = (f(plus) - f(minus)) / (2 * eps);
  }
  return grad;
}

/** Weighted sum used to turn a tensor output into a scalar loss with a non-uniform gradient. */
export function dot(a: Ref, weights: Ref): number {
  let s = 0;
  for (let i = 0; i < a.data.length; i++) s += a.data[i] * weights.data[i];
  return s;
}
