/**
 * Keras's weight initialisers (glorot_uniform kernels, zeros biases, uniform(-0.05, 0.05)
 * embeddings and the others a layer may name), drawing from the engine's seeded generator so
 * `tf.random.setSeed(n)` makes a model's starting weights reproducible.
 */
import { ops, type Device, type Tensor } from '../../../engine';

export type InitializerFn = (shape: readonly number[], device: Device) => Tensor;

/** Keras's fans: the last two dims are (in, out); any leading dims are the receptive field. */
export function computeFans(shape: readonly number[]): [number, number] {
  if (shape.length === 0) return [1, 1];
  if (shape.length === 1) return [shape[0], shape[0]];
  if (shape.length === 2) return [shape[0], shape[1]];
  const receptive = shape.slice(0, -2).reduce((a, b) => a * b, 1);
  return [shape[shape.length - 2] * receptive, shape[shape.length - 1] * receptive];
}

const uniform =
  (limit: number): InitializerFn =>
  (shape, device) =>
    ops.random('uniform', shape, -limit, limit, { device });

const glorotUniform: InitializerFn = (shape, device) => {
  const [fanIn, fanOut] = computeFans(shape);
  return uniform(Math.sqrt(6 / (fanIn + fanOut)))(shape, device);
};

const heUniform: InitializerFn = (shape, device) =>
  uniform(Math.sqrt(6 / computeFans(shape)[0]))(shape, device);

const lecunUniform: InitializerFn = (shape, device) =>
  uniform(Math.sqrt(3 / computeFans(shape)[0]))(shape, device);

const NAMED: Record<string, InitializerFn> = {
  glorot_uniform: glorotUniform,
  glorotUniform,
  he_uniform: heUniform,
  heUniform,
  lecun_uniform: lecunUniform,
  lecunUniform,
  zeros: (shape, device) => ops.zeros(shape, { device }),
  ones: (shape, device) => ops.ones(shape, { device }),
  random_uniform: uniform(0.05),
  randomUniform: uniform(0.05),
  uniform: uniform(0.05),
  random_normal: (shape, device) => ops.random('normal', shape, 0, 0.05, { device }),
  randomNormal: (shape, device) => ops.random('normal', shape, 0, 0.05, { device }),
};

/** An initialiser given by Keras name ('glorot_uniform', 'zeros', …) or as a function. */
export function getInitializer(spec: unknown, what: string): InitializerFn {
  if (typeof spec === 'function') return spec as InitializerFn;
  if (typeof spec === 'string' && spec in NAMED) return NAMED[spec];
  throw new TypeError(
    `${what}: unknown initializer ${JSON.stringify(spec)}; use one of ${Object.keys(NAMED)
      .filter((k) => k.includes('_') || k === 'zeros' || k === 'ones')
      .join(', ')}, or a function (shape, device) => Tensor`,
  );
}
