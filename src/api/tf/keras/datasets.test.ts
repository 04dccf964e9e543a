import { beforeAll, describe, expect, it } from 'vitest';
import { builtDataReader } from '../../../engine/data/datasets/built-data.testing';
import { setAssetReader } from '../../../engine/data/datasets';
import { datasets } from './datasets';
import { padSequences } from './preprocessing';

beforeAll(() => setAssetReader(builtDataReader()));

describe('tf.keras.datasets and preprocessing', () => {
  it('mnist.loadData: [[xTrain, yTrain], [xTest, yTest]] with 0–255 int images and digit labels', async () => {
    const [[xTrain, yTrain], [xTest, yTest]] = await datasets.mnist.loadData({ limit: 100 });
    expect(xTrain.shape).toEqual([100, 28, 28]);
    expect(xTrain.dtype).toBe('int32');
    expect(yTrain.shape).toEqual([100]);
    expect(xTest.shape).toEqual([100, 28, 28]);
    expect(await yTrain.slice(0, 0, 1).item()).toBe(5);
    expect(await yTest.slice(0, 0, 1).item()).toBe(7);
    expect(await xTrain.max().item()).toBe(255);
    expect(await xTrain.min().item()).toBe(0);
    const scaled = xTrain.div(255);
    expect(scaled.dtype).toBe('float32');
  });

  it('fashionMnist.loadData: as mnist.loadData, from the Fashion-MNIST files', async () => {
    const [[xTrain, yTrain], [xTest, yTest]] = await datasets.fashionMnist.loadData({ limit: 30 });
    expect(xTrain.shape).toEqual([30, 28, 28]);
    expect(xTrain.dtype).toBe('int32');
    expect(yTrain.shape).toEqual([30]);
    expect(yTrain.dtype).toBe('int32');
    expect(xTest.shape).toEqual([30, 28, 28]);
    // The first training image is an ankle boot (9), the first test image too.
    expect(await yTrain.slice(0, 0, 1).item()).toBe(9);
    expect(await yTest.slice(0, 0, 1).item()).toBe(9);
    expect(await xTrain.max().item()).toBe(255);
    expect(await yTrain.max().item()).toBeLessThanOrEqual(9);
  });

  it("cifar10 and Keras's other datasets say gpubook does not bundle them", () => {
    const all = datasets as unknown as Record<string, Record<string, () => unknown>>;
    expect(() => all.cifar10.loadData()).toThrow(
      /^tf\.keras\.datasets\.cifar10: gpubook does not bundle this dataset, and nothing can be downloaded from the notebook.*The bundled datasets are mnist, fashion_mnist \(fashionMnist in TypeScript\) and reuters/,
    );
    expect(() => all.bostonHousing.loadData()).toThrow(/^tf\.keras\.datasets\.boston_housing:/);
    expect(() => all.imdb.getWordIndex()).toThrow(/does not bundle/);
    expect(Object.keys(datasets)).toEqual(['mnist', 'fashionMnist', 'reuters']);
  });

  it('reuters.loadData: sequences start with 1, words ≥ 3, numWords caps the ids; labels as a tensor', async () => {
    const [[xTrain, yTrain], [xTest, yTest]] = await datasets.reuters.loadData({ numWords: 1000 });
    expect(xTrain.length).toBe(yTrain.shape[0]);
    expect(xTest.length).toBe(yTest.shape[0]);
    expect(xTrain.length + xTest.length).toBe(12565);
    expect(xTrain.every((s) => s[0] === 1)).toBe(true);
    expect(xTrain.every((s) => s.every((w, i) => (i === 0 ? w === 1 : w >= 2 && w < 1000)))).toBe(
      true,
    );
    expect(yTrain.dtype).toBe('int32');
    expect(await yTrain.max().item()).toBe(42);
    const wordIndex = await datasets.reuters.getWordIndex();
    expect(wordIndex.get('the')).toBe(1);
  });

  it('padSequences gives an int32 tensor (pre-padding and pre-truncation, as Keras)', async () => {
    const x = padSequences([[1, 2, 3], [4], [5, 6, 7, 8, 9]], { maxlen: 4 });
    expect(x.shape).toEqual([3, 4]);
    expect(await x.tolist()).toEqual([
      [0, 1, 2, 3],
      [0, 0, 0, 4],
      [6, 7, 8, 9],
    ]);
    const post = padSequences([new Int32Array([1, 2, 3])], {
      maxlen: 5,
      padding: 'post',
      value: -1,
    });
    expect(await post.tolist()).toEqual([[1, 2, 3, -1, -1]]);
    expect(await padSequences([[1, 2, 3]], 2, { truncating: 'post' }).tolist()).toEqual([[1, 2]]);
    expect(
      (await padSequences([[1, 2], [3]])
        .max()
        .item()) + 1,
    ).toBe(4);
  });
});
