/**
 * Keras optimizers' gradient clipping (`clipnorm`, `globalClipnorm`, `clipvalue`), applied to the
 * gradients before the update as TF 2.15's optimizer does: each gradient scaled to at most
 * `clipnorm` in L2 norm (tf.clip_by_norm), or all of them together to `globalClipnorm`
 * (tf.clip_by_global_norm), or each element clipped to [−clipvalue, clipvalue]. On the device:
 * norms are never read back.
 */
import { noGrad, ops, type Tensor } from '../../../engine';
import { asNumber, type BoundArgs } from '../../args';
import { ValueError } from '../../tf-config';
import { pyFloat } from './py-float';

export const CLIPPING_ARGS = ['clipnorm', 'clipvalue', 'globalClipnorm'] as const;

export interface Clipping {
  clipnorm: number | null;
  globalClipnorm: number | null;
  clipvalue: number | null;
}

export function clippingArgs(a: BoundArgs, what: string): Clipping {
  const read = (key: (typeof CLIPPING_ARGS)[number]): number | null => {
    const v = a[key];
    if (v === undefined || v === null) return null;
    const n = asNumber(v, `${what}: ${key}`);
    if (!(n > 0)) throw new ValueError(`${what}: ${key} must be positive, got ${n}`);
    return n;
  };
  const c = {
    clipnorm: read('clipnorm'),
    globalClipnorm: read('globalClipnorm'),
    clipvalue: read('clipvalue'),
  };
  if (c.clipnorm !== null && c.globalClipnorm !== null)
    throw new ValueError(
      `At most one of \`clipnorm\` and \`global_clipnorm\` can be set. Received: clipnorm=${pyFloat(c.clipnorm)}, global_clipnorm=${pyFloat(c.globalClipnorm)}.`,
    );
  return c;
}

/** x · limit / max(norm, limit): x itself when its norm is within the limit. */
function scaleTo(x: Tensor, norm: Tensor, limit: number): Tensor {
  return ops.div(ops.mul(x, limit), ops.clamp(norm, limit, null));
}

const l2 = (g: Tensor): Tensor => ops.sqrt(ops.sum(ops.square(g)));

export function clipGradients(
  pairs: readonly (readonly [Tensor | null, Tensor])[],
  c: Clipping,
): (readonly [Tensor | null, Tensor])[] {
  if (c.clipnorm === null && c.globalClipnorm === null && c.clipvalue === null) return [...pairs];
  return noGrad(() => {
    let out = [...pairs];
    // TF 2.15 applies one of them: clipnorm, else global_clipnorm, else clipvalue.
    if (c.clipnorm !== null) {
      const limit = c.clipnorm;
      out = out.map(([g, v]) => [g && scaleTo(g, l2(g), limit), v] as const);
    } else if (c.globalClipnorm !== null) {
      const present = out.flatMap(([g]) => (g ? [ops.sum(ops.square(g))] : []));
      if (present.length > 0) {
        const global = ops.sqrt(present.reduce((s, t) => ops.add(s, t)));
        const limit = c.globalClipnorm;
        out = out.map(([g, v]) => [g && scaleTo(g, global, limit), v] as const);
      }
    } else if (c.clipvalue !== null) {
      const limit = c.clipvalue;
      out = out.map(([g, v]) => [g && ops.clamp(g, -limit, limit), v] as const);
    }
    return out;
  });
}
