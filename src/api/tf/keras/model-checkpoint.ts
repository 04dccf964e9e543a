/**
 * `tf.keras.callbacks.ModelCheckpoint`: at the end of each epoch, the model's weights go to a file
 * in the kernel's file store (models/weights-file.ts, as `model.saveWeights` writes them), under
 * a name formatted from the epoch (1-based) and the epoch's logs as Python's `str.format` does
 * (`'ckpt-{epoch:02d}-{val_loss:.2f}.h5'`); with `saveBestOnly`, only when `monitor` improved.
 * gpubook has no whole-model format: the file holds the weights whatever `saveWeightsOnly` says
 * (load it with `loadWeights`).
 */
import { noGrad, type Tensor } from '../../../engine';
import type { Logs } from '../../../engine/training';
import { writeOutput } from '../../../engine/training';
import { asBool, asInt, bindArgs, optional } from '../../args';
import { Callback } from './callbacks';
import type { Layer } from './layers/layer';
import { saveWeightList } from './models/weights-file';

/** One `{name}` or `{name:spec}` field of Python's format mini-language (d, f, e, g; width, 0). */
function formatField(value: number, spec: string, field: string): string {
  const m = /^(0)?(\d+)?(?:\.(\d+))?([dfeg%])?$/.exec(spec);
  if (!m) throw new TypeError(`ModelCheckpoint: unsupported format spec '{${field}:${spec}}'`);
  const [, zero, width, precision, type] = m;
  let text: string;
  if (type === 'd') {
    if (!Number.isInteger(value))
      throw new TypeError(
        `ModelCheckpoint: '{${field}:${spec}}' needs an integer, and ${field} is ${value}`,
      );
    text = String(Math.abs(value));
  } else if (type === 'f' || type === '%') {
    text = Math.abs(type === '%' ? value * 100 : value).toFixed(Number(precision ?? 6));
    if (type === '%') text += '%';
  } else if (type === 'e') {
    text = Math.abs(value)
      .toExponential(Number(precision ?? 6))
      .replace(/e([+-])(\d)$/, 'e$10$2');
  } else if (type === 'g' || precision !== undefined) {
    text = String(Number(Math.abs(value).toPrecision(Number(precision ?? 6) || 1)));
  } else {
    // Python's str(float) keeps a '.0' on whole floats; epochs are ints.
    text = String(Math.abs(value));
  }
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const w = Number(width ?? 0);
  if (zero) return sign + text.padStart(Math.max(0, w - sign.length), '0');
  return (sign + text).padStart(w, ' ');
}

/** `filepath` with its `{…}` fields filled from `values` (Python's `str.format(**values)`). */
export function formatCheckpointPath(filepath: string, values: Record<string, number>): string {
  return filepath.replace(/\{([^{}:]*)(?::([^{}]*))?\}/g, (_all, name: string, spec?: string) => {
    if (!(name in values))
      throw new Error(
        `ModelCheckpoint: the filepath names '{${name}}', which is not among the epoch's values (${Object.keys(values).join(', ')})`,
      );
    return formatField(values[name], spec ?? '', name);
  });
}

export class ModelCheckpoint extends Callback {
  readonly filepath: string;
  readonly monitor: string;
  readonly verbose: number;
  readonly saveBestOnly: boolean;
  readonly saveWeightsOnly: boolean;
  readonly mode: 'min' | 'max';
  /** The best monitored value so far (Keras's `best`). */
  best: number;
  private pending: Promise<void> = Promise.resolve();
  private failure: unknown = null;

  constructor(...args: unknown[]) {
    super();
    const a = bindArgs(
      {
        name: 'ModelCheckpoint',
        params: [
          'filepath',
          'monitor',
          'verbose',
          'saveBestOnly',
          'saveWeightsOnly',
          'mode',
          'saveFreq',
          'options',
          'initialValueThreshold',
        ],
      },
      args,
    );
    if (typeof a.filepath !== 'string' || a.filepath === '')
      throw new TypeError('ModelCheckpoint: give a filepath, e.g. "ckpt-{epoch:02d}.h5"');
    this.filepath = a.filepath;
    this.monitor = a.monitor === undefined ? 'val_loss' : String(a.monitor);
    this.verbose = optional(a.verbose, asInt, 'ModelCheckpoint: verbose', 0);
    this.saveBestOnly = optional(a.saveBestOnly, asBool, 'ModelCheckpoint: saveBestOnly', false);
    this.saveWeightsOnly = optional(
      a.saveWeightsOnly,
      asBool,
      'ModelCheckpoint: saveWeightsOnly',
      false,
    );
    const mode =
      a.mode === undefined || a.mode === 'auto'
        ? /acc|^fmeasure/.test(this.monitor)
          ? 'max'
          : 'min'
        : a.mode;
    if (mode !== 'min' && mode !== 'max')
      throw new TypeError(
        `ModelCheckpoint: mode must be 'auto', 'min' or 'max', got ${String(a.mode)}`,
      );
    this.mode = mode;
    if (a.saveFreq !== undefined && a.saveFreq !== 'epoch')
      throw new TypeError("ModelCheckpoint: only saveFreq='epoch' is supported");
    this.best = mode === 'min' ? Infinity : -Infinity;
  }

  override onTrainBegin(): void {
    this.failure = null;
  }

  override onEpochEnd(epoch: number, logs: Logs = {}): void {
    const path = formatCheckpointPath(this.filepath, { ...logs, epoch: epoch + 1 });
    if (this.saveBestOnly) {
      const current = logs[this.monitor];
      if (current === undefined) {
        writeOutput(`WARNING: Can save best model only with ${this.monitor} available, skipping.`);
        return;
      }
      const improved = this.mode === 'min' ? current < this.best : current > this.best;
      if (!improved) {
        if (this.verbose > 0)
          writeOutput(
            `Epoch ${epoch + 1}: ${this.monitor} did not improve from ${this.fmt(this.best)}`,
          );
        return;
      }
      if (this.verbose > 0)
        writeOutput(
          `Epoch ${epoch + 1}: ${this.monitor} improved from ${this.fmt(this.best)} to ${this.fmt(current)}, saving model to ${path}`,
        );
      this.best = current;
    } else if (this.verbose > 0) {
      writeOutput(`Epoch ${epoch + 1}: saving model to ${path}`);
    }
    this.write(path);
  }

  /** Copies the weights now (training goes on) and writes them in the background of fit. */
  private write(path: string): void {
    const model = this.model as Layer;
    const copies: Tensor[] = noGrad(() => model.weights.map((w) => w.clone()));
    this.pending = this.pending
      .then(() => saveWeightList(model, copies, path))
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => copies.forEach((t) => t.dispose()));
  }

  private fmt(value: number): string {
    return Number.isFinite(value) ? value.toFixed(5) : value > 0 ? 'inf' : '-inf';
  }

  override async settle(): Promise<void> {
    await this.pending;
    const failure = this.failure;
    this.failure = null;
    if (failure !== null) throw failure;
  }
}
