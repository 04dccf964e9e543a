/**
 * `tf.keras.datasets`: the bundled MNIST and the State of the Union corpus that stands in for
 * Reuters (docs/datasets.md), loaded through the shared asset reader. As Keras returns NumPy
 * arrays, arrays of numbers here are cpu tensors (int32: images hold 0–255, labels class ids);
 * Reuters' ragged sequences stay host arrays for padSequences.
 */
import { cpu, ops, type Tensor } from '../../../engine';
import { getAssetReader, loadMnist, loadTextCorpus } from '../../../engine/data/datasets';
import { asInt, asNumber, bindArgs, optional } from '../../args';

export type Split<X> = [X, Tensor];

function intTensor(values: ArrayLike<number>, shape: number[]): Tensor {
  return ops.fromHost(Int32Array.from(values), shape, { device: cpu(), dtype: 'int32' });
}

/**
 * `await mnist.loadData()` → [[xTrain [60000, 28, 28], yTrain [60000]], [xTest, yTest]].
 * `{ limit }` (not in Keras) keeps only the first digits of each split.
 */
async function loadMnistData(...args: unknown[]): Promise<[Split<Tensor>, Split<Tensor>]> {
  const a = bindArgs({ name: 'mnist.loadData', params: ['path'], keywordOnly: ['limit'] }, args);
  const limit = optional<number | undefined>(a.limit, asInt, 'mnist.loadData: limit', undefined);
  const reader = getAssetReader();
  const [train, test] = await Promise.all([
    loadMnist(reader, { train: true, limit }),
    loadMnist(reader, { train: false, limit }),
  ]);
  const split = (d: typeof train): Split<Tensor> => [
    intTensor(d.images, [...d.shape]),
    intTensor(d.labels, [d.count]),
  ];
  return [split(train), split(test)];
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

export const datasets = {
  mnist: { loadData: loadMnistData },
  reuters: { loadData: loadReutersData, getWordIndex, getLabelNames },
};
