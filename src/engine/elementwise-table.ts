/**
 * The element-wise table: the one place an element-wise op exists. A row says how the op computes
 * (its WGSL expression for the WebGPU kernels, its JavaScript function for the CPU's loops), how
 * int32 inputs are treated, its gradient as engine ops, and which public names it has. Everything
 * else is derived from the rows: the op-name types (backend.ts), the WebGPU kernels
 * (backends/webgpu/elementwise.ts, fused.ts), the CPU's unfused and fused loops
 * (backends/cpu/elementwise.ts, fused-loop.ts), the op functions and their autograd
 * (ops/elementwise.ts), the Tensor methods (tensor.ts), the activation modules (nn/layers/
 * activation.ts) and the faces' names (api/torch.ts, api/torch/functional.ts, api/tf.ts, Keras's
 * activations, and through them Python's). Adding an op: docs/engine.md, "Adding an op".
 *
 * This module imports no code (types only), so backends and ops can both read it.
 */
import type { DType } from './backend';

/**
 * An op as WGSL: an expression of `a` (and `b`) in the compute type, written `/*C*\/` where a
 * literal needs it (`/*C*\/(0)`). `float` computes in f32; `int`, where given, is the exact int32
 * form used when every operand is int32 (without it int operands are computed as f32). The
 * helpers it may call (sigmoid, tanhSafe, powSafe, softplus) are in kernels/common.wgsl.
 */
export interface WgslExpression {
  readonly float: string;
  readonly int?: string;
}

/**
 * A tensor as the rows' gradients see it: the table names no Tensor type, since tensor.ts derives
 * its methods from the rows (a type cycle); ops/elementwise.ts hands over its ops, whose tensors
 * these are.
 */
export interface GradTensor {
  readonly shape: readonly number[];
  readonly dtype: DType;
}

type Operand = GradTensor | number;

/** The engine ops a gradient is written with (ops/elementwise.ts hands them over). */
export interface GradOps {
  add(a: Operand, b: Operand): GradTensor;
  sub(a: Operand, b: Operand): GradTensor;
  mul(a: Operand, b: Operand): GradTensor;
  div(a: Operand, b: Operand): GradTensor;
  pow(a: Operand, b: Operand): GradTensor;
  gt(a: Operand, b: Operand): GradTensor;
  lt(a: Operand, b: Operand): GradTensor;
  eq(a: Operand, b: Operand): GradTensor;
  keepWhere(a: Operand, b: Operand): GradTensor;
  cast(x: GradTensor, dtype: DType): GradTensor;
  // The unary ops gradients use so far (listed, as the table's own names can't type its rows).
  neg(x: GradTensor): GradTensor;
  log(x: GradTensor): GradTensor;
  sign(x: GradTensor): GradTensor;
  square(x: GradTensor): GradTensor;
  step(x: GradTensor): GradTensor;
  sigmoid(x: GradTensor): GradTensor;
  exp(x: GradTensor): GradTensor;
  tanh(x: GradTensor): GradTensor;
  geluDerivative(x: GradTensor): GradTensor;
  softplus(x: GradTensor): GradTensor;
}

/**
 * The public names of an op, each the op's own (camelCase) name in its face unless it says
 * otherwise; Python's faces find them by snake_case (api/python).
 */
export interface Faces {
  /** A Tensor method and a `torch.*` function (t.exp(), torch.exp(t)). */
  readonly tensor?: true;
  /** A `torch.nn.functional` function, taking the row's `args` after the input. */
  readonly functional?: true;
  /** The `torch.nn` module class that applies it (`ReLU`), taking the row's `args`. */
  readonly module?: string;
  /** A Keras activation name (`activation='relu'`) and a `tf.keras.activations` function. */
  readonly keras?: true;
  /** Where TensorFlow has it: `tf.*`, `tf.math.*`, `tf.nn.*`, named `tfName` or the op's name. */
  readonly tf?: readonly ('tf' | 'math' | 'nn')[];
  readonly tfName?: string;
}

export interface UnaryRow {
  readonly wgsl: WgslExpression;
  /**
   * The op on one value, in float64, as the CPU computes it (its loops store the result into a
   * Float32Array or Int32Array, which rounds or truncates it).
   */
  readonly js: (x: number) => number;
  /** 'keep': int32 in, int32 out; 'float': int inputs are cast first (exp of an int is a float). */
  readonly ints: 'keep' | 'float';
  /** What the gradient reads: the input x, the output y, or nothing. */
  readonly saves: 'x' | 'y' | 'none';
  /** The gradient w.r.t. the input; absent for piecewise-constant ops (no gradient flows). */
  readonly grad?: (o: GradOps, g: GradTensor, saved: GradTensor) => GradTensor;
  readonly faces?: Faces;
  /**
   * PyTorch's further arguments of the functional and module forms, with their defaults. An
   * `inplace` flag is accepted and shown, and the result computed out of place all the same.
   * A string argument (GELU's `approximate`) is shown quoted, as Python's repr shows it.
   */
  readonly args?: Readonly<Record<string, number | boolean | string>>;
  /**
   * The numeric `args` PyTorch declares as floats, which its reprs show as `1.0` (JavaScript has
   * one number type, so a value given as the int 2 shows as `2.0` here).
   */
  readonly floatArgs?: readonly string[];
  /**
   * The op with `args` other than the defaults, from the plain op (`self`) and others: the
   * numeric ones in `args`, the string ones in `text`.
   */
  readonly withArgs?: (
    o: GradOps,
    self: (x: GradTensor) => GradTensor,
    x: GradTensor,
    args: Readonly<Record<string, number>>,
    text: Readonly<Record<string, string>>,
  ) => GradTensor;
}

export interface BinaryRow {
  readonly wgsl: WgslExpression;
  /** The op on two values, in float64, as the CPU computes it. */
  readonly js: (a: number, b: number) => number;
  /** The exact int32 form on the CPU, where float64 arithmetic would lose low bits. */
  readonly jsInt?: (a: number, b: number) => number;
  /** 'arith': promoted dtype; 'float': always float32; 'compare': int32 0/1 output, no gradient. */
  readonly kind: 'arith' | 'float' | 'compare';
  /** Which of a, b and the output y the gradient reads. */
  readonly saves: readonly ('a' | 'b' | 'y')[];
  /** Gradients before un-broadcasting; `need` says which operands want one. */
  readonly grad?: (
    o: GradOps,
    g: GradTensor,
    a: Operand,
    b: Operand,
    y: GradTensor,
    need: readonly [boolean, boolean],
  ) => [GradTensor | null, GradTensor | null];
  readonly faces?: Faces;
}

const ZERO = '/*C*/(0)';
const ONE = '/*C*/(1)';
/** The same expression for f32 and i32. */
const both = (expression: string): WgslExpression => ({ float: expression, int: expression });
const f32 = (expression: string): WgslExpression => ({ float: expression });

function sigmoid(x: number): number {
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}

/**
 * Φ(x), the standard normal CDF, as erfc(−x/√2)/2 with Numerical Recipes' erfc (relative error
 * under 1.2e-7 everywhere, so gelu's left tail keeps its tiny values); normalCdf in
 * kernels/common.wgsl is the same formula.
 */
function normalCdf(x: number): number {
  const z = Math.abs(x) * Math.SQRT1_2;
  const t = 1 / (1 + 0.5 * z);
  const poly =
    -1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t *
                  (-0.18628806 +
                    t *
                      (0.27886807 +
                        t *
                          (-1.13520398 +
                            t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const erfcZ = t * Math.exp(-z * z + poly);
  return x < 0 ? 0.5 * erfcZ : 1 - 0.5 * erfcZ;
}

/** 1 strictly between low and high, else 0: the gradient mask of a clamp (PyTorch's hardtanh). */
function inside(o: GradOps, x: GradTensor, low: number, high: number): GradTensor {
  return o.mul(o.cast(o.gt(x, low), 'float32'), o.cast(o.lt(x, high), 'float32'));
}

/** hardtanh with other bounds, composed so its gradient is the same mask. */
function clampAsHardtanh(o: GradOps, x: GradTensor, low: number, high: number): GradTensor {
  const below = o.sub(1, o.cast(o.gt(x, low), 'float32'));
  const above = o.sub(1, o.cast(o.lt(x, high), 'float32'));
  return o.add(o.mul(x, inside(o, x, low, high)), o.add(o.mul(below, low), o.mul(above, high)));
}

const tensorOp = { tensor: true } as const;
/** A row made by a helper below: its faces stay literal, so the types below can filter on them. */
type TensorRow = BinaryRow & { readonly faces: typeof tensorOp };

export const UNARY_OPS = {
  /** Also casts when the output's dtype differs (float→int truncates toward zero). */
  copy: { wgsl: both('a'), js: (x) => x, ints: 'keep', saves: 'none' },
  neg: {
    wgsl: both('-a'),
    js: (x) => -x,
    ints: 'keep',
    saves: 'none',
    grad: (o, g) => o.neg(g),
    faces: { tensor: true, tf: ['tf', 'math'], tfName: 'negative' },
  },
  exp: {
    wgsl: f32('exp(a)'),
    js: Math.exp,
    ints: 'float',
    saves: 'y',
    grad: (o, g, y) => o.mul(g, y),
    faces: { tensor: true, tf: ['tf', 'math'] },
  },
  log: {
    wgsl: f32('log(a)'),
    js: Math.log,
    ints: 'float',
    saves: 'x',
    grad: (o, g, x) => o.div(g, x),
    faces: { tensor: true, tf: ['tf', 'math'] },
  },
  sqrt: {
    wgsl: f32('sqrt(a)'),
    js: Math.sqrt,
    ints: 'float',
    saves: 'y',
    grad: (o, g, y) => o.div(g, o.mul(y, 2)),
    faces: { tensor: true, tf: ['tf', 'math'] },
  },
  rsqrt: {
    wgsl: f32('inverseSqrt(a)'),
    js: (x) => 1 / Math.sqrt(x),
    ints: 'float',
    saves: 'y',
    grad: (o, g, y) => o.mul(g, o.mul(o.pow(y, 3), -0.5)),
    faces: { tensor: true, tf: ['tf', 'math'] },
  },
  abs: {
    wgsl: both('abs(a)'),
    js: Math.abs,
    ints: 'keep',
    saves: 'x',
    grad: (o, g, x) => o.mul(g, o.sign(x)),
    faces: { tensor: true, tf: ['tf', 'math'] },
  },
  sign: {
    wgsl: both('sign(a)'),
    js: (x) => (x > 0 ? 1 : x < 0 ? -1 : 0),
    ints: 'keep',
    saves: 'none',
    faces: { tensor: true, tf: ['tf', 'math'] },
  },
  square: {
    wgsl: both('a * a'),
    js: (x) => x * x,
    ints: 'keep',
    saves: 'x',
    grad: (o, g, x) => o.mul(g, o.mul(x, 2)),
    faces: { tensor: true, tf: ['tf', 'math'] },
  },
  reciprocal: {
    wgsl: f32('1.0 / a'),
    js: (x) => 1 / x,
    ints: 'float',
    saves: 'y',
    grad: (o, g, y) => o.neg(o.mul(g, o.square(y))),
    faces: { tensor: true, tf: ['tf', 'math'] },
  },
  // The activations' gradients are compositions the fusing backend runs as one kernel each.
  relu: {
    wgsl: both(`max(a, ${ZERO})`),
    js: (x) => (x > 0 ? x : 0),
    ints: 'keep',
    saves: 'y',
    grad: (o, g, y) => o.mul(g, o.step(y)),
    faces: { tensor: true, functional: true, module: 'ReLU', keras: true, tf: ['nn'] },
    args: { inplace: false },
  },
  sigmoid: {
    wgsl: f32('sigmoid(a)'),
    js: sigmoid,
    ints: 'float',
    saves: 'y',
    grad: (o, g, y) => o.mul(o.mul(g, y), o.sub(1, y)),
    faces: {
      tensor: true,
      functional: true,
      module: 'Sigmoid',
      keras: true,
      tf: ['tf', 'math', 'nn'],
    },
  },
  tanh: {
    wgsl: f32('tanhSafe(a)'),
    js: Math.tanh,
    ints: 'float',
    saves: 'y',
    grad: (o, g, y) => o.mul(g, o.sub(1, o.square(y))),
    faces: {
      tensor: true,
      functional: true,
      module: 'Tanh',
      keras: true,
      tf: ['tf', 'math', 'nn'],
    },
  },
  /** log(1 + eˣ) = max(x, 0) + log1p(e^−|x|): no overflow for large x, no loss for large −x. */
  softplus: {
    wgsl: f32('softplus(a)'),
    js: (x) => Math.max(x, 0) + Math.log1p(Math.exp(-Math.abs(x))),
    ints: 'float',
    saves: 'x',
    grad: (o, g, x) => o.mul(g, o.sigmoid(x)),
    faces: { functional: true, module: 'Softplus', keras: true, tf: ['math', 'nn'] },
    // PyTorch's log(1 + e^(βx)) / β, and x itself where βx > threshold (the defaults' float32
    // values are the plain op's: past 20, x + log1p(e^−x) rounds to x).
    args: { beta: 1, threshold: 20 },
    withArgs: (o, self, x, { beta, threshold }) => {
      const bx = o.mul(x, beta);
      const linear = o.cast(o.gt(bx, threshold), 'float32');
      return o.add(o.mul(linear, x), o.mul(o.sub(1, linear), o.div(self(bx), beta)));
    },
  },
  floor: {
    wgsl: { float: 'floor(a)', int: 'a' },
    js: Math.floor,
    ints: 'keep',
    saves: 'none',
    faces: { tensor: true, tf: ['tf', 'math'] },
  },
  /** 1 where x > 0, else 0: relu's derivative. */
  step: {
    wgsl: both(`select(${ZERO}, ${ONE}, a > ${ZERO})`),
    js: (x) => (x > 0 ? 1 : 0),
    ints: 'keep',
    saves: 'none',
  },
  // Issue 36's activations (PyTorch's torch.nn ones). Gradients at the kinks are PyTorch's:
  // leaky_relu's slope at 0, hardtanh's and relu6's 0 at their bounds. Keys are camelCase
  // (Python's keywords arrive camelCased); reprs show them in snake_case.
  leakyRelu: {
    wgsl: f32('select(a * 0.01, a, a > 0.0)'),
    js: (x) => (x > 0 ? x : x * 0.01),
    ints: 'float',
    saves: 'x',
    grad: (o, g, x) => o.mul(g, o.add(o.mul(o.step(x), 0.99), 0.01)),
    faces: { functional: true, module: 'LeakyReLU' },
    args: { negativeSlope: 0.01, inplace: false },
    floatArgs: ['negativeSlope'],
    withArgs: (o, _self, x, { negativeSlope: slope }) =>
      o.mul(x, o.add(o.mul(o.step(x), 1 - slope), slope)),
  },
  /** α(eˣ − 1) for x ≤ 0; WGSL has no expm1, so small |x| lose a few ulps of their tiny values. */
  elu: {
    wgsl: f32('select(exp(a) - 1.0, a, a > 0.0)'),
    js: (x) => (x > 0 ? x : Math.expm1(x)),
    ints: 'float',
    saves: 'x',
    grad: (o, g, x) => {
      const positive = o.step(x);
      return o.mul(g, o.add(positive, o.mul(o.sub(1, positive), o.exp(x))));
    },
    faces: { functional: true, module: 'ELU' },
    args: { alpha: 1, inplace: false },
    floatArgs: ['alpha'],
    withArgs: (o, self, x, { alpha }) => {
      const positive = o.step(x);
      return o.add(o.mul(positive, x), o.mul(o.sub(1, positive), o.mul(self(x), alpha)));
    },
  },
  /** x·Φ(x) with the exact normal CDF (normalCdf in common.wgsl); 'tanh' is PyTorch's formula. */
  gelu: {
    wgsl: f32('gelu(a)'),
    js: (x) => x * normalCdf(x),
    ints: 'float',
    saves: 'x',
    grad: (o, g, x) => o.mul(g, o.geluDerivative(x)),
    faces: { functional: true, module: 'GELU' },
    args: { approximate: 'none' },
    withArgs: (o, _self, x, _numbers, { approximate }) => {
      if (approximate !== 'tanh')
        throw new RangeError(
          `gelu: approximate argument must be either none or tanh, got '${approximate}'`,
        );
      // 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), as PyTorch computes it.
      const inner = o.mul(o.add(x, o.mul(o.pow(x, 3), 0.044715)), Math.sqrt(2 / Math.PI));
      return o.mul(o.mul(x, 0.5), o.add(o.tanh(inner), 1));
    },
  },
  /** Φ(x) + x·φ(x): gelu's derivative (no gradient of its own). */
  geluDerivative: {
    wgsl: f32('geluDerivative(a)'),
    js: (x) => normalCdf(x) + x * Math.exp(-0.5 * x * x) * 0.3989422804014327,
    ints: 'float',
    saves: 'none',
  },
  silu: {
    wgsl: f32('a * sigmoid(a)'),
    js: (x) => x * sigmoid(x),
    ints: 'float',
    saves: 'x',
    grad: (o, g, x) => {
      const s = o.sigmoid(x);
      return o.mul(g, o.mul(s, o.add(o.mul(x, o.sub(1, s)), 1)));
    },
    faces: { functional: true, module: 'SiLU' },
    args: { inplace: false },
  },
  mish: {
    wgsl: f32('a * tanhSafe(softplus(a))'),
    js: (x) => x * Math.tanh(Math.max(x, 0) + Math.log1p(Math.exp(-Math.abs(x)))),
    ints: 'float',
    saves: 'x',
    // tanh(sp(x)) + x·σ(x)·(1 − tanh²(sp(x))), as PyTorch's mish_backward.
    grad: (o, g, x) => {
      const tanhSp = o.tanh(o.softplus(x));
      return o.mul(g, o.add(tanhSp, o.mul(o.mul(x, o.sigmoid(x)), o.sub(1, o.square(tanhSp)))));
    },
    faces: { functional: true, module: 'Mish' },
    args: { inplace: false },
  },
  hardtanh: {
    wgsl: f32('clamp(a, -1.0, 1.0)'),
    js: (x) => Math.min(Math.max(x, -1), 1),
    ints: 'float',
    saves: 'x',
    grad: (o, g, x) => o.mul(g, inside(o, x, -1, 1)),
    faces: { functional: true, module: 'Hardtanh' },
    args: { minVal: -1, maxVal: 1, inplace: false },
    floatArgs: ['minVal', 'maxVal'],
    withArgs: (o, _self, x, { minVal, maxVal }) => clampAsHardtanh(o, x, minVal, maxVal),
  },
  relu6: {
    wgsl: f32('clamp(a, 0.0, 6.0)'),
    js: (x) => Math.min(Math.max(x, 0), 6),
    ints: 'float',
    saves: 'x',
    grad: (o, g, x) => o.mul(g, inside(o, x, 0, 6)),
    faces: { functional: true, module: 'ReLU6' },
    args: { inplace: false },
  },
  /** relu6(x + 3) / 6, as PyTorch computes it; the gradient is 1/6 strictly inside (−3, 3). */
  hardsigmoid: {
    wgsl: f32('clamp(a + 3.0, 0.0, 6.0) / 6.0'),
    js: (x) => Math.min(Math.max(x + 3, 0), 6) / 6,
    ints: 'float',
    saves: 'x',
    grad: (o, g, x) => o.mul(g, o.div(inside(o, x, -3, 3), 6)),
    faces: { functional: true, module: 'Hardsigmoid' },
    args: { inplace: false },
  },
  /** x·relu6(x + 3) / 6; its gradient is x/3 + 1/2 on [−3, 3] (PyTorch's bounds), 1 above. */
  hardswish: {
    wgsl: f32('a * clamp(a + 3.0, 0.0, 6.0) / 6.0'),
    js: (x) => (x * Math.min(Math.max(x + 3, 0), 6)) / 6,
    ints: 'float',
    saves: 'x',
    grad: (o, g, x) => {
      const above = o.cast(o.gt(x, 3), 'float32');
      const middle = o.sub(o.sub(1, o.cast(o.lt(x, -3), 'float32')), above);
      return o.mul(g, o.add(o.mul(middle, o.add(o.div(x, 3), 0.5)), above));
    },
    faces: { functional: true, module: 'Hardswish' },
    args: { inplace: false },
  },
  softsign: {
    wgsl: f32('a / (1.0 + abs(a))'),
    js: (x) => x / (1 + Math.abs(x)),
    ints: 'float',
    saves: 'x',
    grad: (o, g, x) => o.div(g, o.square(o.add(o.mul(x, o.sign(x)), 1))),
    faces: { functional: true, module: 'Softsign' },
  },
  /** λ·elu(x) with α = 1.6732632…, λ = 1.0507009… (the self-normalising constants). */
  selu: {
    wgsl: f32('select(1.7580993408473766 * (exp(a) - 1.0), 1.0507009873554805 * a, a > 0.0)'),
    js: (x) => (x > 0 ? 1.0507009873554805 * x : 1.7580993408473766 * Math.expm1(x)),
    ints: 'float',
    saves: 'x',
    grad: (o, g, x) => {
      const positive = o.step(x);
      const negative = o.mul(o.mul(o.sub(1, positive), o.exp(x)), 1.7580993408473766);
      return o.mul(g, o.add(o.mul(positive, 1.0507009873554805), negative));
    },
    faces: { functional: true, module: 'SELU' },
    args: { inplace: false },
  },
  /** log σ(x) = −softplus(−x), stable both ways. */
  logsigmoid: {
    wgsl: f32('-softplus(-a)'),
    js: (x) => -(Math.max(-x, 0) + Math.log1p(Math.exp(-Math.abs(x)))),
    ints: 'float',
    saves: 'x',
    grad: (o, g, x) => o.mul(g, o.sigmoid(o.neg(x))),
    faces: { functional: true, module: 'LogSigmoid' },
  },
} as const satisfies Record<string, UnaryRow>;

export type UnaryOp = keyof typeof UNARY_OPS;

/** d max(a, b)/da: 1 where a wins, 1/2 on ties (PyTorch splits ties evenly). */
function winnerMask(o: GradOps, a: Operand, b: Operand, larger: boolean): GradTensor {
  const wins = larger ? o.gt(a, b) : o.lt(a, b);
  return o.add(o.cast(wins, 'float32'), o.mul(o.cast(o.eq(a, b), 'float32'), 0.5));
}

const compare = (operator: string, js: (a: number, b: number) => boolean): TensorRow => ({
  wgsl: both(`select(${ZERO}, ${ONE}, a ${operator} b)`),
  js: (a, b) => (js(a, b) ? 1 : 0),
  kind: 'compare',
  saves: [],
  faces: tensorOp,
});

const extreme = (larger: boolean): TensorRow => ({
  wgsl: both(larger ? 'max(a, b)' : 'min(a, b)'),
  // NaN wins either way, as in PyTorch.
  js: larger
    ? (a, b) => (a !== a || b !== b ? NaN : a > b ? a : b)
    : (a, b) => (a !== a || b !== b ? NaN : a < b ? a : b),
  kind: 'arith',
  saves: ['a', 'b'],
  grad: (o, g, a, b, _y, need) => {
    const m = winnerMask(o, a, b, larger);
    return [need[0] ? o.mul(g, m) : null, need[1] ? o.mul(g, o.sub(1, m)) : null];
  },
  faces: tensorOp,
});

export const BINARY_OPS = {
  // add and sub take PyTorch's `alpha`: their Tensor methods are written out in tensor.ts.
  add: {
    wgsl: both('a + b'),
    js: (a, b) => a + b,
    kind: 'arith',
    saves: [],
    grad: (_o, g) => [g, g],
  },
  sub: {
    wgsl: both('a - b'),
    js: (a, b) => a - b,
    kind: 'arith',
    saves: [],
    grad: (o, g, _a, _b, _y, need) => [g, need[1] ? o.neg(g) : null],
  },
  mul: {
    wgsl: both('a * b'),
    js: (a, b) => a * b,
    jsInt: Math.imul,
    kind: 'arith',
    saves: ['a', 'b'],
    grad: (o, g, a, b, _y, need) => [need[0] ? o.mul(g, b) : null, need[1] ? o.mul(g, a) : null],
    faces: tensorOp,
  },
  div: {
    wgsl: f32('a / b'),
    js: (a, b) => a / b,
    kind: 'float',
    saves: ['b', 'y'],
    grad: (o, g, _a, b, y, need) => [
      need[0] ? o.div(g, b) : null,
      need[1] ? o.neg(o.mul(g, o.div(y, b))) : null,
    ],
    faces: tensorOp,
  },
  pow: {
    wgsl: f32('powSafe(a, b)'),
    js: Math.pow,
    kind: 'float',
    saves: ['a', 'b', 'y'],
    grad: (o, g, a, b, y, need) => [
      need[0] ? o.mul(g, o.mul(b, o.pow(a, typeof b === 'number' ? b - 1 : o.sub(b, 1)))) : null,
      need[1] ? o.mul(g, o.mul(y, typeof a === 'number' ? Math.log(a) : o.log(a))) : null,
    ],
    faces: tensorOp,
  },
  maximum: extreme(true),
  minimum: extreme(false),
  eq: compare('==', (a, b) => a === b),
  ne: compare('!=', (a, b) => a !== b),
  lt: compare('<', (a, b) => a < b),
  le: compare('<=', (a, b) => a <= b),
  gt: compare('>', (a, b) => a > b),
  ge: compare('>=', (a, b) => a >= b),
  // `a` where the mask `b` is nonzero, else 0: a select, not a product, so an infinite `a` that
  // is masked out gives 0, not NaN (tril of -inf, torch.where). Internal: no face.
  keepWhere: {
    wgsl: both(`select(${ZERO}, a, b != ${ZERO})`),
    js: (a, b) => (b !== 0 ? a : 0),
    kind: 'arith',
    saves: ['b'],
    grad: (o, g, _a, b, _y, need) => [need[0] ? o.keepWhere(g, b) : null, null],
  },
} as const satisfies Record<string, BinaryRow>;

export type BinaryOp = keyof typeof BINARY_OPS;

/** The ops of one arity that have a face, as a type (`WithFace<typeof UNARY_OPS, 'tensor'>`). */
export type WithFace<Table, F extends keyof Faces> = {
  [K in keyof Table]: Table[K] extends { readonly faces: { readonly [P in F]: unknown } }
    ? K
    : never;
}[keyof Table];

/** The `torch.nn` class names the rows give (`'ReLU' | 'Sigmoid' | …`). */
export type ModuleName = {
  [K in UnaryOp]: (typeof UNARY_OPS)[K] extends { readonly faces: { readonly module: infer N } }
    ? N & string
    : never;
}[UnaryOp];

/** The rows as their common types (the literal types above keep the names exact). */
export const unaryRow = (op: UnaryOp): UnaryRow => UNARY_OPS[op];
export const binaryRow = (op: BinaryOp): BinaryRow => BINARY_OPS[op];

/** The ops that have a given face, in table order. */
export function opsWithFace<K extends keyof Faces>(
  face: K,
): { unary: UnaryOp[]; binary: BinaryOp[] } {
  const has = (row: { faces?: Faces }) => row.faces?.[face] !== undefined;
  return {
    unary: (Object.keys(UNARY_OPS) as UnaryOp[]).filter((op) => has(unaryRow(op))),
    binary: (Object.keys(BINARY_OPS) as BinaryOp[]).filter((op) => has(binaryRow(op))),
  };
}
