/**
 * Keras's `model.saveWeights(path)` / `model.loadWeights(path)` over the engine's serialization
 * (torch.save's safetensors file in the kernel's file store). The weights are stored as a list in
 * the model's `weights` order and loaded back by position, as Keras's own weight files load
 * (layer by layer in order, not by name: a model rebuilt elsewhere has other layer names).
 */
import { Tensor } from '../../../../engine';
import { getTensorStore, load, save } from '../../../../engine/serialization';
import type { Layer } from '../layers/layer';

const FORMAT = 'gpubook.keras.weights';

interface WeightsFile {
  format: string;
  names: string[];
  weights: Tensor[];
}

function isWeightsFile(value: unknown): value is WeightsFile {
  const v = value as Partial<WeightsFile> | null;
  return (
    v !== null &&
    typeof v === 'object' &&
    v.format === FORMAT &&
    Array.isArray(v.weights) &&
    Array.isArray(v.names)
  );
}

const shapeText = (shape: readonly number[]): string =>
  shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;

/** Writes `layer.weights` (read back from their devices) to `filepath`. */
export async function saveWeights(layer: Layer, filepath: string, overwrite = true): Promise<void> {
  if (typeof filepath !== 'string' || filepath === '')
    throw new TypeError('save_weights: give a file path, e.g. "weights.h5"');
  if (!overwrite && (await getTensorStore().get(filepath)) !== undefined)
    throw new Error(`save_weights: ${filepath} exists and overwrite is False`);
  await saveWeightList(layer, layer.weights, filepath);
}

/**
 * Writes `weights` (the values of `layer.weights`, or copies of them taken earlier: a checkpoint
 * written while training goes on) to `filepath`.
 */
export async function saveWeightList(
  layer: Layer,
  weights: readonly Tensor[],
  filepath: string,
): Promise<void> {
  const nameOf = new Map(layer.namedWeights.map((w) => [w.value, w.name]));
  const current = layer.weights;
  const file: WeightsFile = {
    format: FORMAT,
    names: current.map((w) => nameOf.get(w) ?? ''),
    weights: [...weights],
  };
  await save(file, filepath);
}

/** Loads a file written by saveWeights into `layer`'s weights, position by position. */
export async function loadWeights(layer: Layer, filepath: string): Promise<void> {
  const file = await load<unknown>(filepath);
  if (!isWeightsFile(file))
    throw new Error(
      `load_weights: ${filepath} is not a weights file written by save_weights (use torch.load for other files)`,
    );
  const weights = layer.weights;
  if (file.weights.length !== weights.length)
    throw new Error(
      `Layer count mismatch when loading weights from file. Model expected ${weights.length} weights, but the file holds ${file.weights.length}.`,
    );
  weights.forEach((w, i) => {
    const given = file.weights[i].shape;
    if (given.length !== w.shape.length || given.some((d, k) => d !== w.shape[k]))
      throw new Error(
        `Shape mismatch in weight ${i} (${file.names[i] || 'unnamed'}): the model's weight has shape ${shapeText(w.shape)}, the file's ${shapeText(given)}.`,
      );
  });
  // Host values: setWeights uploads them to each weight's own device.
  const values = await Promise.all(file.weights.map((t) => t.data()));
  file.weights.forEach((t) => t.dispose());
  layer.setWeights(values);
}
