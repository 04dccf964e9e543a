/**
 * `tf.keras.callbacks`: `EarlyStopping` (handed to the training core's early stopping and best
 * weights) and a `Callback` base whose Keras hooks (`onEpochEnd(epoch, logs)`, …) are fed from the
 * training core's observer events; `History` is what `fit` returns.
 */
import type { Logs, TrainingObserver } from '../../../engine/training';
import { asInt, asNumber, asBool, bindArgs, optional } from '../../args';

/** Subclass and override the hooks you need; epochs are 0-based as in Keras. */
export class Callback {
  /** Set by fit before training starts. */
  model: unknown = null;
  params: Record<string, unknown> = {};

  onTrainBegin(_logs?: Logs): void {}
  onTrainEnd(_logs?: Logs): void {}
  onEpochBegin(_epoch: number, _logs?: Logs): void {}
  onEpochEnd(_epoch: number, _logs?: Logs): void {}
  onTrainBatchEnd(_batch: number, _logs?: Logs): void {}
  onTestBatchEnd(_batch: number, _logs?: Logs): void {}
  /** @internal Work a hook started (a checkpoint write), awaited by fit before it returns. */
  async settle(): Promise<void> {}

  /** @internal The training core's events, turned into this callback's hooks. */
  asObserver(): TrainingObserver {
    return {
      onTrainBegin: () => this.onTrainBegin({}),
      onEpochBegin: ({ epoch }) => this.onEpochBegin(epoch - 1, {}),
      onStep: ({ phase, step, logs }) =>
        phase === 'train'
          ? this.onTrainBatchEnd(step - 1, logs)
          : this.onTestBatchEnd(step - 1, logs),
      onEpochEnd: ({ epoch, logs }) => {
        const { epoch: _ignored, ...rest } = logs;
        this.onEpochEnd(epoch - 1, rest);
      },
      onTrainEnd: ({ history }) => {
        const last = history[history.length - 1] ?? {};
        const { epoch: _ignored, ...rest } = last;
        this.onTrainEnd(rest);
      },
    };
  }
}

/** Stops when `monitor` has not improved for `patience` epochs; optionally restores the best weights. */
export class EarlyStopping extends Callback {
  readonly monitor: string;
  readonly patience: number;
  readonly mode: 'min' | 'max';
  readonly restoreBestWeights: boolean;
  readonly minDelta: number;

  constructor(...args: unknown[]) {
    super();
    const a = bindArgs(
      {
        name: 'EarlyStopping',
        params: [
          'monitor',
          'minDelta',
          'patience',
          'verbose',
          'mode',
          'baseline',
          'restoreBestWeights',
          'startFromEpoch',
        ],
      },
      args,
    );
    this.monitor = a.monitor === undefined ? 'val_loss' : String(a.monitor);
    this.patience = optional(a.patience, asInt, 'EarlyStopping: patience', 0);
    const mode =
      a.mode === undefined || a.mode === 'auto'
        ? /acc|auc/.test(this.monitor)
          ? 'max'
          : 'min'
        : a.mode;
    if (mode !== 'min' && mode !== 'max')
      throw new TypeError(
        `EarlyStopping: mode must be 'auto', 'min' or 'max', got ${String(a.mode)}`,
      );
    this.mode = mode;
    this.restoreBestWeights = optional(
      a.restoreBestWeights,
      asBool,
      'EarlyStopping: restoreBestWeights',
      false,
    );
    this.minDelta = Math.abs(optional(a.minDelta, asNumber, 'EarlyStopping: minDelta', 0));
    if (a.baseline !== undefined && a.baseline !== null)
      throw new TypeError('EarlyStopping: baseline is not supported');
  }
}

/** What fit returns: `history.history.loss`, `history.history.val_loss`, …, and `history.epoch`. */
export class History {
  readonly history: Record<string, number[]> = {};
  readonly epoch: number[] = [];

  constructor(
    readonly params: { epochs: number; steps: number | null; verbose: number },
    rows: readonly Logs[],
    readonly model: unknown,
  ) {
    rows.forEach((row, i) => {
      this.epoch.push(i);
      for (const [key, value] of Object.entries(row)) {
        if (key === 'epoch') continue;
        (this.history[key] ??= []).push(value);
      }
    });
  }

  /** The history as table rows (one per epoch), for `display(history.toRows())`. */
  toRows(): Record<string, number>[] {
    return this.epoch.map((e) => ({
      epoch: e + 1,
      ...Object.fromEntries(Object.entries(this.history).map(([k, v]) => [k, v[e]])),
    }));
  }
}

export const callbacks = { Callback, EarlyStopping, History };
