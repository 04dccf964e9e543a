/** torchvision.datasets in TypeScript: the bundled FashionMNIST, and a dataset we do not bundle. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAssetReader } from '../../engine/data/datasets';
import { builtDataReader } from '../../engine/data/datasets/built-data.testing';
import { FASHION_MNIST } from '../../engine/data/datasets/mnist';
import { MNISTDataset, torchvision } from './torchvision';

beforeAll(() => setAssetReader(builtDataReader()));
afterAll(() => setAssetReader(null));

describe('torchvision.datasets', () => {
  it('FashionMNIST(root, train, transform, targetTransform, download) as MNIST, with its classes', async () => {
    const ds = await torchvision.datasets.FashionMNIST('data/', false, undefined, undefined, true);
    expect(ds).toBeInstanceOf(MNISTDataset);
    expect(ds.length).toBe(10000);
    // The descriptor's names, which are torchvision's (its first and last checked here).
    expect(ds.classes).toEqual(FASHION_MNIST.classes);
    expect([ds.classes.length, ds.classes[0], ds.classes[9]]).toEqual([
      10,
      'T-shirt/top',
      'Ankle boot',
    ]);
    expect(String(ds)).toMatch(/^Dataset FashionMNIST\n {4}Number of datapoints: 10000/);
    const [image, label] = ds.get(0);
    expect(image.shape).toEqual([28, 28]);
    expect(image.dtype).toBe('int32');
    expect(label.dtype).toBe('int32');
    expect(await label.item()).toBe(9); // the first test image is an ankle boot

    const scaled = await torchvision.datasets.FashionMNIST({
      train: true,
      transform: torchvision.transforms.ToTensor(),
      limit: 20,
    });
    const [x, y] = scaled.get(1);
    expect(x.shape).toEqual([1, 28, 28]);
    expect(x.dtype).toBe('float32');
    expect(await x.max().item()).toBeLessThanOrEqual(1);
    expect(await y.item()).toBe(0); // a T-shirt/top
    expect(scaled.targets.shape).toEqual([20]);
    expect(scaled.data.shape).toEqual([20, 28, 28]);

    const mnist = await torchvision.datasets.MNIST({ train: false, limit: 1 });
    expect(mnist.classes[7]).toBe('7 - seven');
  });

  it('CIFAR10 says gpubook does not bundle it, what it bundles, and that nothing downloads', () => {
    const datasets = torchvision.datasets as unknown as Record<
      string,
      (...a: unknown[]) => unknown
    >;
    const message =
      /^torchvision\.datasets\.CIFAR10: gpubook does not bundle this dataset, and nothing can be downloaded from the notebook.*The bundled datasets are torchvision\.datasets\.MNIST and torchvision\.datasets\.FashionMNIST\.$/;
    expect(() => datasets.CIFAR10({ root: 'data/', download: true })).toThrow(message);
    expect(() => datasets.CIFAR10()).toThrow(
      expect.objectContaining({ name: 'DatasetNotBundledError' }),
    );
    expect(Object.keys(torchvision.datasets)).toEqual(['MNIST', 'FashionMNIST']);
  });
});
