/**
 * torch.nn.utils over the engine: gradient clipping by total norm or by value, and parameters
 * flattened to one vector and back. Clipping stays on the device: the total norm is a 0-d tensor
 * and the gradients are scaled by a device scalar, so nothing is read back per parameter (only
 * `errorIfNonfinite` reads the one total, as PyTorch does).
 */
import { noGrad } from '../autograd';
import { cpu } from '../devices/registry';
import { abs, add, clamp, mul, pow, reciprocal, sqrt } from '../ops/elementwise';
import { copyInto } from '../ops/inplace';
import { amax, sum } from '../ops/reduce';
import { cat, narrow, reshape, stack } from '../ops/shape-ops';
import { scoped } from '../ops/support';
import { toDevice } from '../ops/transfer';
import { full } from '../ops/creation';
import { Tensor } from '../tensor';

export type GradParameters = Tensor | Iterable<Tensor>;

function tensorsOf(parameters: GradParameters, op: string): Tensor[] {
  const list = parameters instanceof Tensor ? [parameters] : [...parameters];
  list.forEach((p, i) => {
    if (!(p instanceof Tensor))
      throw new TypeError(`${op}: parameters must be tensors, but item ${i} is not one`);
  });
  return list;
}

function withGrads(parameters: GradParameters, op: string): Tensor[] {
  return tensorsOf(parameters, op)
    .map((p) => p.gradInternal)
    .filter((g): g is Tensor => g !== null);
}

/** A float as Python prints it (PyTorch's message formats float(norm_type)): 2.0, inf. */
function pythonFloat(x: number): string {
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return Number.isInteger(x) ? x.toFixed(1) : String(x);
}

/** The p-norm of all of a tensor's elements as a 0-d tensor (p = Infinity: the largest |x|). */
function norm(x: Tensor, p: number): Tensor {
  if (p === Infinity) return amax(abs(x));
  if (p === 2) return sqrt(sum(mul(x, x)));
  if (p === 1) return sum(abs(x));
  return pow(sum(pow(abs(x), p)), 1 / p);
}

/**
 * Scales every gradient in place so that their joint p-norm is at most `maxNorm`; returns that
 * norm as it was before scaling (a 0-d tensor on the first gradient's device).
 */
export function clipGradNorm_(
  parameters: GradParameters,
  maxNorm: number,
  normType = 2,
  errorIfNonfinite = false,
): Tensor {
  const grads = withGrads(parameters, 'clip_grad_norm_');
  if (grads.length === 0) return full([], 0, { device: cpu() }); // torch.tensor(0.)
  const device = grads[0].deviceObject;
  const p = Number(normType);
  const total = noGrad(() =>
    scoped(() => {
      const norms = grads.map((g) => toDevice(norm(g, p), device));
      if (norms.length === 1) return add(norms[0], 0);
      return p === Infinity ? amax(stack(norms)) : norm(stack(norms), p);
    }),
  );
  if (errorIfNonfinite && !Number.isFinite(total.item())) {
    throw new Error(
      `The total norm of order ${pythonFloat(p)} for gradients from \`parameters\` is non-finite, so it cannot ` +
        'be clipped. To disable this error and scale the gradients by the non-finite norm anyway, ' +
        'set `error_if_nonfinite=False`',
    );
  }
  noGrad(() =>
    scoped(() => {
      // coef = min(maxNorm / (total + 1e-6), 1), PyTorch's guard against a zero norm.
      const coef = clamp(mul(reciprocal(add(total, 1e-6)), maxNorm), null, 1);
      for (const g of grads) copyInto(g, mul(g, toDevice(coef, g.deviceObject)));
      return coef;
    }),
  );
  return total;
}

/** Clamps every gradient in place to [-clipValue, clipValue]. */
export function clipGradValue_(parameters: GradParameters, clipValue: number): void {
  const v = Number(clipValue);
  for (const g of withGrads(parameters, 'clip_grad_value_')) {
    noGrad(() => scoped(() => (copyInto(g, clamp(g, -v, v)), g)));
  }
}

/** The parameters flattened and joined into one vector (differentiable, as PyTorch's). */
export function parametersToVector(parameters: GradParameters): Tensor {
  const list = tensorsOf(parameters, 'parameters_to_vector');
  const device = list[0]?.deviceObject;
  list.forEach((p) => {
    if (p.deviceObject !== device) {
      throw new Error(
        `parameters_to_vector: found two parameters on different devices (${String(device?.name)} and ${p.device})`,
      );
    }
  });
  return cat(list.map((p) => reshape(p, [-1])));
}

/** Writes consecutive slices of `vec` into the parameters (their values, in place). */
export function vectorToParameters(vec: Tensor, parameters: GradParameters): void {
  if (!(vec instanceof Tensor))
    throw new TypeError(`expected torch.Tensor, but got: ${typeof vec}`);
  const list = tensorsOf(parameters, 'vector_to_parameters');
  const total = list.reduce((n, p) => n + p.numel(), 0);
  if (vec.ndim !== 1 || vec.numel() !== total) {
    throw new Error(
      `vector_to_parameters: the vector has shape [${vec.shape.join(', ')}] but the parameters have ${total} elements`,
    );
  }
  let offset = 0;
  noGrad(() => {
    for (const p of list) {
      const n = p.numel();
      scoped(() => {
        copyInto(p, reshape(narrow(vec, 0, offset, n), p.shape));
        return p;
      });
      offset += n;
    }
  });
}
