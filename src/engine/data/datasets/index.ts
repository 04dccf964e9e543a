/** The bundled datasets and their helpers, free of DOM and Node APIs (the Node reader is apart). */
export { fetchAssetReader, type ReadAsset } from './read-asset';
export { DataFileError, describeDataFile, type DataFileFailure } from './data-file-error';
export { gunzip, gunzipIfNeeded, isGzip } from './gunzip';
export {
  FASHION_MNIST,
  MNIST,
  loadFashionMnist,
  loadImageDataset,
  loadMnist,
  type ImageDataset,
  type MnistData,
  type MnistOptions,
} from './mnist';
export {
  loadTextCorpus,
  type TextCorpus,
  type TextCorpusOptions,
  type TextSplit,
} from './text-corpus';
export { loadPlainText, PLAIN_TEXTS, plainTextPath } from './plain-text';
export { padSequences, type PadSequencesOptions, type PaddedSequences } from './pad-sequences';
export { getAssetReader, setAssetReader } from './asset-reader';
