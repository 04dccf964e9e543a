/**
 * `tf.keras.datasets`: the bundled MNIST, Fashion-MNIST and the State of the Union corpus that
 * stands in for Reuters (docs/datasets.md), loaded through the shared asset reader; Keras's other
 * datasets say they are not bundled (src/api/not-bundled.ts). As Keras returns NumPy
 * arrays, arrays of numbers here are cpu tensors (int32: images hold 0–255, labels class ids);
 * Reuters' ragged sequences stay host arrays for padSequences.
 */
import { cpu, ops, type Tensor } from '../../../engine';
import {
  FASHION_MNIST,
  getAssetReader,
  loadImageDataset,
  loadTextCorpus,
  MNIST,
  type ImageDataset,
} from '../../../engine/data/datasets';
import { asInt, asNumber, bindArgs, optional } from '../../args';
import { notBundled, withNotBundled } from '../../not-bundled';

export type Split<X> = [X, Tensor];

function intTensor(values: ArrayLike<number>, shape: number[]): Tensor {
  return ops.fromHost(Int32Array.from(values), shape, { device: cpu(), dtype: 'int32' });
}

/**
 * `await mnist.loadData()` → [[xTrain [60000, 28, 28], yTrain [60000]], [xTest, yTest]];
 * `fashionMnist.loadData()` alike. `{ limit }` (not in Keras) keeps only the first images of each
 * split.
 */
function imageLoadData(
  dataset: ImageDataset,
  name: string,
): (...args: unknown[]) => Promise<[Split<Tensor>, Split<Tensor>]> {
  return async (...args: unknown[]) => {
    const a = bindArgs({ name, params: ['path'], keywordOnly: ['limit'] }, args);
    const limit = optional<number | undefined>(a.limit, asInt, `${name}: limit`, undefined);
    const reader = getAssetReader();
    const [train, test] = await Promise.all([
      loadImageDataset(reader, dataset, { train: true, limit }),
      loadImageDataset(reader, dataset, { train: false, limit }),
    ]);
    const split = (d: typeof train): Split<Tensor> => [
      intTensor(d.images, [...d.shape]),
      intTensor(d.labels, [d.count]),
    ];
    return [split(train), split(test)];
  };
}

const REUTERS_PARAMS = [
  'path',
  'numWords',
  'skipTop',
  'maxlen',
  'testSplit',
  'seed',
  'startChar',
  'oovChar',
  'indexFrom',
];

/**
 * `await reuters.loadData({ numWords })` → [[xTrain, yTrain], [xTest, yTest]]: sequences of word
 * ids (Int32Arrays; 1 = start, 2 = out of vocabulary, word rank + 3), labels as an int32 tensor.
 */
async function loadReutersData(
  ...args: unknown[]
): Promise<[Split<Int32Array[]>, Split<Int32Array[]>]> {
  const a = bindArgs({ name: 'reuters.loadData', params: REUTERS_PARAMS }, args);
  const int = (k: string): number | undefined =>
    optional<number | undefined>(a[k], asInt, `reuters.loadData: ${k}`, undefined);
  const nullableInt = (k: string): number | null | undefined => (a[k] === null ? null : int(k));
  const corpus = await loadTextCorpus(getAssetReader(), {
    numWords: int('numWords'),
    skipTop: int('skipTop'),
    maxlen: int('maxlen'),
    testSplit: optional<number | undefined>(
      a.testSplit,
      asNumber,
      'reuters.loadData: testSplit',
      undefined,
    ),
    seed: int('seed'),
    startChar: nullableInt('startChar'),
    oovChar: nullableInt('oovChar'),
    indexFrom: int('indexFrom'),
  });
  const split = (s: typeof corpus.train): Split<Int32Array[]> => [
    s.sequences,
    intTensor(s.labels, [s.labels.length]),
  ];
  return [split(corpus.train), split(corpus.test)];
}

/** `await reuters.getWordIndex()`: word → frequency rank (1 = most frequent), before the +3 shift. */
async function getWordIndex(): Promise<Map<string, number>> {
  const corpus = await loadTextCorpus(getAssetReader(), { testSplit: 0 });
  return corpus.wordIndex;
}

/** The class names (presidents) of the Reuters stand-in, by label. */
async function getLabelNames(): Promise<string[]> {
  return (await loadTextCorpus(getAssetReader(), { testSplit: 0 })).labelNames;
}

/**
 * Keras's datasets that gpubook does not bundle, camelCased as the TS face names them (Python's
 * `boston_housing` reaches `bostonHousing`, as for every name).
 */
const NOT_BUNDLED = ['cifar10', 'cifar100', 'imdb', 'bostonHousing', 'californiaHousing'];

const BUNDLED =
  'mnist, fashion_mnist (fashionMnist in TypeScript) and reuters (a State of the Union stand-in, ' +
  'see docs/datasets.md)';

/** The module of a dataset we do not bundle; its message uses Keras's name (`boston_housing`). */
function notBundledModule(key: string): Record<string, () => never> {
  const kerasName = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const fail = notBundled(`tf.keras.datasets.${kerasName}`, BUNDLED);
  return key === 'imdb' ? { loadData: fail, getWordIndex: fail } : { loadData: fail };
}

export const datasets = withNotBundled(
  {
    mnist: { loadData: imageLoadData(MNIST, 'mnist.loadData') },
    fashionMnist: { loadData: imageLoadData(FASHION_MNIST, 'fashionMnist.loadData') },
    reuters: { loadData: loadReutersData, getWordIndex, getLabelNames },
  },
  NOT_BUNDLED,
  notBundledModule,
);
