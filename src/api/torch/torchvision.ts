/**
 * `torchvision`: the bundled MNIST (`await torchvision.datasets.MNIST({ train, transform })`, no
 * download) and `transforms`. Images arrive as byte values; a ToTensor/Normalize transform is
 * applied to all of them at once when they load, so batches are one gather on the device.
 */
import { cpu, ops, tidy, Tensor } from '../../engine';
import { Dataset, TensorDataset, type TensorSource } from '../../engine/data';
import { getAssetReader, loadMnist } from '../../engine/data/datasets';
import { asInt, bindArgs, boolArg, optional } from '../args';
import { batchSteps, canApplyToBatch, isToTensor, transforms } from './transforms';

const CLASSES = [
  '0 - zero',
  '1 - one',
  '2 - two',
  '3 - three',
  '4 - four',
  '5 - five',
  '6 - six',
  '7 - seven',
  '8 - eight',
  '9 - nine',
];

type Transform = (x: Tensor) => Tensor;

/** MNIST as torchvision gives it: `get(i)` is `[image, label]`, `length` is 60,000 or 10,000. */
export class MNISTDataset extends Dataset<Tensor[]> {
  readonly classes = CLASSES;
  private readonly stacked: TensorDataset;

  constructor(
    readonly train: boolean,
    private readonly raw: Uint8Array,
    images: Tensor,
    labels: Tensor,
    /** A per-image transform that could not be applied to the stack (a custom function). */
    private readonly transform: Transform | null,
    private readonly targetTransform: ((y: Tensor) => unknown) | null,
  ) {
    super();
    this.stacked = new TensorDataset(images, labels);
  }

  get length(): number {
    return this.stacked.length;
  }

  get(index: number): Tensor[] {
    const [image, label] = this.stacked.get(index);
    const x = this.transform ? this.transform(image) : image;
    const y = this.targetTransform ? this.targetTransform(label) : label;
    return [x, y as Tensor];
  }

  /** Batches come straight from the stacked tensors unless a per-image function must run. */
  override tensorSource(): TensorSource | null {
    return this.transform || this.targetTransform ? null : this.stacked.tensorSource();
  }

  /** The labels, int32 [N] (torchvision's `targets`). */
  get targets(): Tensor {
    return this.stacked.tensors[1];
  }

  /** The raw digits, int32 [N, 28, 28] in 0–255 (torchvision's `data`), made when asked for. */
  get data(): Tensor {
    return ops.fromHost(Int32Array.from(this.raw), [this.length, 28, 28], { device: cpu() });
  }

  override toString(): string {
    return `Dataset MNIST\n    Number of datapoints: ${this.length}\n    Split: ${this.train ? 'Train' : 'Test'}`;
  }
}

/**
 * `await torchvision.datasets.MNIST({ train: true, transform })`. `root` and `download` are
 * accepted and ignored (the data is bundled); `limit` (ours) loads only the first N digits.
 */
async function MNIST(...args: unknown[]): Promise<MNISTDataset> {
  const a = bindArgs(
    {
      name: 'MNIST',
      params: ['root', 'train', 'transform', 'targetTransform', 'download'],
      keywordOnly: ['limit'],
    },
    args,
  );
  const train = boolArg(a.train, 'MNIST: train', true);
  const limit = optional(a.limit, asInt, 'MNIST: limit', undefined as unknown as number);
  for (const key of ['transform', 'targetTransform'] as const) {
    if (a[key] !== undefined && a[key] !== null && typeof a[key] !== 'function') {
      throw new TypeError(`MNIST: ${key} must be a transform such as transforms.ToTensor()`);
    }
  }
  const data = await loadMnist(getAssetReader(), { train, limit });
  const [n, h, w] = data.shape;
  const device = cpu();
  const labels = ops.fromHost(Int32Array.from(data.labels), [n], { device });
  const transform = (a.transform ?? null) as Transform | null;
  const steps = transform && canApplyToBatch(transform) ? batchSteps(transform) : [];
  let images: Tensor;
  if (steps.length > 0 && isToTensor(steps[0])) {
    // Scaling on the host spares a full-size integer copy of the dataset.
    const floats = new Float32Array(data.images.length);
    for (let i = 0; i < floats.length; i++) floats[i] = data.images[i] / 255;
    images = ops.fromHost(floats, [n, 1, h, w], { device });
    steps.shift();
  } else images = ops.fromHost(Int32Array.from(data.images), [n, h, w], { device });
  if (steps.length > 0) {
    const raw = images;
    images = tidy(() => steps.reduce((x, step) => step.applyBatch(x), raw));
    if (images !== raw) raw.dispose();
  }
  const perImage = transform && !canApplyToBatch(transform) ? transform : null;
  return new MNISTDataset(
    train,
    data.images,
    images,
    labels,
    perImage,
    (a.targetTransform ?? null) as ((y: Tensor) => unknown) | null,
  );
}

export const torchvision = {
  datasets: { MNIST },
  transforms,
};
