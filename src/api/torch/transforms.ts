/**
 * `torchvision.transforms`: ToTensor, Normalize and Compose. Each works on one image (called as a
 * function, as in PyTorch) and on a whole stack of images at once (`applyBatch`), which is how
 * the bundled datasets apply them when they load.
 */
import { ops, Tensor } from '../../engine';
import { Module } from '../../engine/nn';
import { callableClass } from './callable-class';

/** A transform the datasets can apply to [N, …] stacks in one go. */
export interface BatchTransform {
  applyBatch(images: Tensor): Tensor;
}

export function isBatchTransform(
  value: unknown,
): value is BatchTransform & ((x: Tensor) => Tensor) {
  return value instanceof Transform;
}

abstract class Transform extends Module implements BatchTransform {
  abstract applyBatch(images: Tensor): Tensor;

  override forward(image: Tensor): Tensor {
    if (!(image instanceof Tensor))
      throw new TypeError(`${this.constructor.name}: expected an image tensor`);
    return ops.squeeze(this.applyBatch(ops.unsqueeze(image, 0)), 0);
  }
}

/** Byte images [H, W] (or [H, W, C]) in 0–255 → float32 [C, H, W] in [0, 1]. */
class ToTensorTransform extends Transform {
  applyBatch(images: Tensor): Tensor {
    if (images.ndim !== 3 && images.ndim !== 4) {
      throw new TypeError(
        `ToTensor: expected images [H, W] or [H, W, C], got shape [${images.shape.slice(1).join(', ')}]`,
      );
    }
    if (images.dtype === 'float32') return images;
    const scaled = ops.div(ops.cast(images, 'float32'), 255);
    return images.ndim === 3 ? ops.unsqueeze(scaled, 1) : ops.permute(scaled, [0, 3, 1, 2]);
  }

  override toString(): string {
    return 'ToTensor()';
  }
}

/** (x − mean[c]) / std[c] per channel of [C, H, W] images. */
class NormalizeTransform extends Transform {
  declare readonly mean: number[];
  declare readonly std: number[];

  constructor(mean: number | number[], std: number | number[], options?: { inplace?: boolean }) {
    super();
    const list = (v: number | number[]): number[] => (Array.isArray(v) ? v : [v]);
    Object.defineProperties(this, {
      mean: { value: list(mean), enumerable: false },
      std: { value: list(std), enumerable: false },
    });
    if (this.std.some((s) => s === 0))
      throw new RangeError('Normalize: std evaluated to zero, leading to division by zero.');
    void options;
  }

  applyBatch(images: Tensor): Tensor {
    const channels = images.shape[1];
    const per = (v: number[]): Tensor =>
      ops.reshape(
        ops.fromData(v.length === 1 ? new Array<number>(channels).fill(v[0]) : v, {
          device: images.deviceObject,
        }),
        [1, channels, 1, 1],
      );
    return ops.div(ops.sub(images, per(this.mean)), per(this.std));
  }

  override toString(): string {
    return `Normalize(mean=${JSON.stringify(this.mean)}, std=${JSON.stringify(this.std)})`;
  }
}

class ComposeTransform extends Transform {
  declare readonly transforms: ((x: Tensor) => Tensor)[];

  constructor(transforms: ((x: Tensor) => Tensor)[]) {
    super();
    if (!Array.isArray(transforms)) throw new TypeError('Compose: expected a list of transforms');
    Object.defineProperty(this, 'transforms', { value: transforms, enumerable: false });
  }

  /** True when every step can run on a stack of images. */
  get batchable(): boolean {
    return this.transforms.every(
      (t) => isBatchTransform(t) && (!(t instanceof ComposeTransform) || t.batchable),
    );
  }

  applyBatch(images: Tensor): Tensor {
    let x = images;
    for (const t of this.transforms) {
      if (!isBatchTransform(t))
        throw new TypeError('Compose: a custom function transform cannot be applied to a stack');
      x = t.applyBatch(x);
    }
    return x;
  }

  override forward(image: Tensor): Tensor {
    let x = image;
    for (const t of this.transforms) x = t(x);
    return x;
  }

  override toString(): string {
    return `Compose(\n${this.transforms.map((t) => `    ${String(t)}`).join('\n')}\n)`;
  }
}

/** Whether a transform can be applied to the whole dataset at load time. */
export function canApplyToBatch(t: unknown): t is BatchTransform {
  if (t instanceof ComposeTransform) return t.batchable;
  return isBatchTransform(t);
}

/** The steps of a batchable transform with nested Composes flattened. */
export function batchSteps(t: BatchTransform): BatchTransform[] {
  return t instanceof ComposeTransform
    ? t.transforms.flatMap((s) => batchSteps(s as unknown as BatchTransform))
    : [t];
}

/** ToTensor's work, done while the bytes are still on the host: [N, H, W] bytes → [N, 1, H, W] floats. */
export function isToTensor(t: BatchTransform): boolean {
  return t instanceof ToTensorTransform;
}

export const transforms = {
  ToTensor: callableClass(ToTensorTransform),
  Normalize: callableClass(NormalizeTransform),
  Compose: callableClass(ComposeTransform),
};
