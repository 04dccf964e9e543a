/**
 * Keras's `Orthogonal` initializer (recurrent kernels' default): the Q of a QR factorisation of a
 * standard normal matrix, its columns' signs fixed so R's diagonal is positive, transposed when
 * the weight has more columns than rows, so rows (or columns) of the result are orthonormal.
 * The normal draw is the engine's seeded generator, as the other initializers', so
 * `tf.random.set_seed` reproduces it. The QR is Gram–Schmidt with re-orthogonalisation on the
 * weight's own device (run once per weight at build time): its Q with positive diag(R) is the
 * unique one, so no sign fix is left to do.
 */
import { noGrad, ops, type Device, type Tensor } from '../../../../engine';
import { getInitializer, type InitializerFn } from '../initializers';

export function orthogonal(gain = 1): InitializerFn {
  return (shape: readonly number[], device: Device): Tensor =>
    noGrad(() =>
      ops.scoped(() => {
        if (shape.length < 2)
          throw new RangeError(
            `The tensor to initialize must be at least two-dimensional. Received: shape=${JSON.stringify(shape)} of rank ${shape.length}.`,
          );
        const cols = shape[shape.length - 1];
        const rows = shape.slice(0, -1).reduce((a, b) => a * b, 1);
        const [n, k] = [Math.max(rows, cols), Math.min(rows, cols)];
        const a = ops.random('normal', [n, k], 0, 1, { device });
        const q: Tensor[] = [];
        for (let j = 0; j < k; j++) {
          let v = ops.narrow(a, 1, j, 1);
          if (j > 0) {
            const basis = ops.cat(q, 1);
            // Twice: one classical pass loses orthogonality in float32.
            for (let pass = 0; pass < 2; pass++)
              v = ops.sub(v, ops.matmul(basis, ops.matmul(ops.t(basis), v)));
          }
          q.push(ops.div(v, ops.sqrt(ops.sum(ops.mul(v, v)))));
        }
        let result = ops.cat(q, 1);
        if (rows < cols) result = ops.t(result);
        if (gain !== 1) result = ops.mul(result, gain);
        return ops.contiguous(ops.reshape(ops.contiguous(result), shape));
      }),
    );
}

/** An initializer by Keras name, with 'orthogonal' (which initializers.ts does not know) added. */
export function recurrentInitializer(spec: unknown, what: string): InitializerFn {
  if (spec === 'orthogonal' || spec === 'Orthogonal') return orthogonal();
  return getInitializer(spec, what);
}
