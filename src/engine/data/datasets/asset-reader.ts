/**
 * The one setter through which the host gives every bundled-dataset loader (torchvision's MNIST,
 * tf.keras.datasets) its file reader: the kernel installs a fetch reader for the served data
 * root, Node tests a file-system one.
 */
import type { ReadAsset } from './read-asset';

let reader: ReadAsset | null = null;

/** Installs the reader of the bundled data files (`null` removes it). */
export function setAssetReader(next: ReadAsset | null): void {
  reader = next;
}

/** The installed reader; loaders call this when they need data, never at import time. */
export function getAssetReader(): ReadAsset {
  if (reader === null) {
    throw new Error(
      'The bundled datasets are not available here: no asset reader was installed ' +
        '(the notebook kernel installs one with setAssetReader at start-up).',
    );
  }
  return reader;
}
