/**
 * Losses of a model with several outputs (a functional model's list of outputs), as Keras's
 * compile takes them: one loss for every output, a list (one per output) or a dict by output
 * name, each times its `lossWeights` entry (default 1); the training loss is their sum. Labels are
 * a list in output order or a dict by output name.
 */
import { ops, Tensor } from '../../../../engine';
import { describe } from '../../../args';
import { KerasValueError } from '../engine/errors';
import { getLoss, type CompiledLoss } from '../losses';

export interface OutputLosses {
  names: string[];
  /** Per output: its loss and weight, or null when the dict gives that output none. */
  terms: ({ loss: CompiledLoss; weight: number } | null)[];
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

function perOutput(value: unknown, names: string[], what: string): unknown[] {
  if (Array.isArray(value)) {
    if (value.length !== names.length) {
      throw new KerasValueError(
        `When passing a list as ${what}, it should have one entry per model outputs. The model has ${names.length} outputs, but you passed ${what}=${describe(value)}`,
      );
    }
    return value;
  }
  if (isRecord(value)) {
    const unknown = Object.keys(value).filter((k) => !names.includes(k));
    if (unknown.length > 0) {
      throw new KerasValueError(
        `Unknown entries in ${what} dictionary: [${unknown.map((k) => `'${k}'`).join(', ')}]. Only expected following keys: [${names.map((k) => `'${k}'`).join(', ')}]`,
      );
    }
    return names.map((n) => value[n]);
  }
  return names.map(() => value);
}

export function compileOutputLosses(
  loss: unknown,
  lossWeights: unknown,
  names: string[],
): OutputLosses {
  const losses = perOutput(loss, names, 'loss');
  const weights =
    lossWeights === undefined || lossWeights === null
      ? names.map(() => 1)
      : perOutput(lossWeights, names, 'loss_weights');
  return {
    names,
    terms: losses.map((l, i) =>
      l === undefined || l === null ? null : { loss: getLoss(l), weight: Number(weights[i] ?? 1) },
    ),
  };
}

/** The labels in output order, from a list or a dict by output name. */
export function outputLabels(y: unknown, names: string[]): Tensor[] {
  const list = isRecord(y) ? names.map((n) => y[n]) : y;
  if (
    !Array.isArray(list) ||
    list.length !== names.length ||
    !list.every((t) => t instanceof Tensor)
  ) {
    throw new KerasValueError(
      `The model has ${names.length} outputs (${names.join(', ')}): give y as a list of ${names.length} label tensors or a dict by output name, got ${describe(y)}`,
    );
  }
  return list as Tensor[];
}

/** Σ weight · loss(y, pred) over the outputs that have a loss. */
export function totalLoss(
  spec: OutputLosses,
  labels: Tensor[],
  preds: Tensor[],
  sampleWeight: Tensor | null,
): Tensor {
  let total: Tensor | null = null;
  spec.terms.forEach((term, i) => {
    if (!term) return;
    const pred = preds[i];
    const y =
      labels[i].deviceObject === pred.deviceObject ? labels[i] : labels[i].to(pred.deviceObject);
    const value = ops.mul(term.loss.fn(y, pred, sampleWeight), term.weight);
    total = total ? ops.add(total, value) : value;
  });
  if (!total) throw new KerasValueError('compile: no output of the model has a loss');
  return total;
}
