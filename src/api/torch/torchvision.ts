/**
 * `torchvision`: the bundled MNIST and Fashion-MNIST (`await torchvision.datasets.MNIST({ train,
 * transform })`, `FashionMNIST` alike; no download) and `transforms`. Images arrive as byte
 * values; a ToTensor/Normalize transform is applied to all of them at once when they load, so
 * batches are one gather on the device.
 */
import { cpu, ops, tidy, Tensor } from '../../engine';
import { Dataset, TensorDataset, type TensorSource } from '../../engine/data';
import {
  FASHION_MNIST,
  getAssetReader,
  loadImageDataset,
  MNIST as MNIST_DATA,
  type ImageDataset,
} from '../../engine/data/datasets';
import { asInt, bindArgs, boolArg, optional } from '../args';
import { notBundled, withNotBundled } from '../not-bundled';
import { batchSteps, canApplyToBatch, isToTensor, transforms } from './transforms';

type Transform = (x: Tensor) => Tensor;

/**
 * MNIST or FashionMNIST as torchvision gives them: `get(i)` is `[image, label]`, `length` is
 * 60,000 or 10,000, `classes` the label names.
 */
export class MNISTDataset extends Dataset<Tensor[]> {
  readonly classes: string[];
  private readonly stacked: TensorDataset;

  constructor(
    /** Which bundled dataset (engine/data/datasets: MNIST or FASHION_MNIST). */
    readonly dataset: ImageDataset,
    readonly train: boolean,
    private readonly raw: Uint8Array,
    images: Tensor,
    labels: Tensor,
    /** A per-image transform that could not be applied to the stack (a custom function). */
    private readonly transform: Transform | null,
    private readonly targetTransform: ((y: Tensor) => unknown) | null,
  ) {
    super();
    this.classes = [...dataset.classes];
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

  /** The raw images, int32 [N, 28, 28] in 0–255 (torchvision's `data`), made when asked for. */
  get data(): Tensor {
    return ops.fromHost(Int32Array.from(this.raw), [this.length, 28, 28], { device: cpu() });
  }

  override toString(): string {
    return `Dataset ${this.dataset.name}\n    Number of datapoints: ${this.length}\n    Split: ${this.train ? 'Train' : 'Test'}`;
  }
}

/**
 * The loader of one bundled dataset: `await torchvision.datasets.MNIST({ train: true, transform })`.
 * `root` and `download` are accepted and ignored (the data is bundled); `limit` (ours) loads only
 * the first N images.
 */
function imageDataset(dataset: ImageDataset): (...args: unknown[]) => Promise<MNISTDataset> {
  const name = dataset.name;
  const load = async (...args: unknown[]): Promise<MNISTDataset> => {
    const a = bindArgs(
      {
        name,
        params: ['root', 'train', 'transform', 'targetTransform', 'download'],
        keywordOnly: ['limit'],
      },
      args,
    );
    const train = boolArg(a.train, `${name}: train`, true);
    const limit = optional(a.limit, asInt, `${name}: limit`, undefined as unknown as number);
    for (const key of ['transform', 'targetTransform'] as const) {
      if (a[key] !== undefined && a[key] !== null && typeof a[key] !== 'function') {
        throw new TypeError(`${name}: ${key} must be a transform such as transforms.ToTensor()`);
      }
    }
    const data = await loadImageDataset(getAssetReader(), dataset, { train, limit });
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
      dataset,
      train,
      data.images,
      images,
      labels,
      perImage,
      (a.targetTransform ?? null) as ((y: Tensor) => unknown) | null,
    );
  };
  return Object.defineProperty(load, 'name', { value: name });
}

/**
 * torchvision's datasets that download their files, which gpubook does not bundle: calling one
 * says so (src/api/not-bundled.ts). Folder readers (ImageFolder) and FakeData are not here.
 */
const NOT_BUNDLED = [
  'CIFAR10',
  'CIFAR100',
  'EMNIST',
  'KMNIST',
  'QMNIST',
  'MovingMNIST',
  'SVHN',
  'STL10',
  'USPS',
  'SEMEION',
  'Omniglot',
  'ImageNet',
  'Imagenette',
  'CelebA',
  'Caltech101',
  'Caltech256',
  'Flowers102',
  'Food101',
  'OxfordIIITPet',
  'StanfordCars',
  'FGVCAircraft',
  'DTD',
  'EuroSAT',
  'GTSRB',
  'FER2013',
  'PCAM',
  'Country211',
  'RenderedSST2',
  'SUN397',
  'Places365',
  'INaturalist',
  'LFWPeople',
  'LFWPairs',
  'CLEVRClassification',
  'CocoCaptions',
  'CocoDetection',
  'VOCSegmentation',
  'VOCDetection',
  'SBDataset',
  'Cityscapes',
  'Kitti',
  'WIDERFace',
  'PhotoTour',
  'SBU',
  'Flickr8k',
  'Flickr30k',
  'Kinetics',
  'HMDB51',
  'UCF101',
];

const BUNDLED = 'torchvision.datasets.MNIST and torchvision.datasets.FashionMNIST';

export const torchvision = {
  datasets: withNotBundled(
    { MNIST: imageDataset(MNIST_DATA), FashionMNIST: imageDataset(FASHION_MNIST) },
    NOT_BUNDLED,
    (name) => notBundled(`torchvision.datasets.${name}`, BUNDLED),
  ),
  transforms,
};
