/**
 * `tf.keras.callbacks.ReduceLROnPlateau` and `LearningRateScheduler`, as TF 2.15's Keras has them:
 * they read and set `model.optimizer.learningRate` between epochs, print Keras's messages when
 * verbose, and add the epoch's rate to the logs as `lr` (TF 2.15's key; Keras 3 writes
 * `learning_rate`), so `history.history.lr` lists the rate each epoch trained with.
 */
import { writeOutput, type Logs, type TrainingObserver } from '../../../engine/training';
import { asInt, asNumber, bindArgs, describe, optional } from '../../args';
import { ValueError } from '../../tf-config';
import { Callback } from './callbacks';
import { pyFloat } from './py-float';
import type { KerasOptimizer } from './optimizers';

function optimizerOf(cb: Callback, what: string): KerasOptimizer {
  const optimizer = (cb.model as { optimizer?: KerasOptimizer | null } | null)?.optimizer;
  if (!optimizer) throw new ValueError(`${what}: the model has no optimizer (compile it first)`);
  return optimizer;
}

/**
 * Adds `lr` to the epoch's logs as TF 2.15 does: to the row later callbacks see and to the fit
 * history's row (the engine hands observers copies, so the row is found at the end of training).
 */
abstract class RateCallback extends Callback {
  private readonly rates: number[] = [];

  protected recordRate(epoch: number, logs: Logs | undefined): void {
    const lr = optimizerOf(this, this.constructor.name).learningRate;
    this.rates[epoch] = lr;
    if (logs) logs.lr = lr;
  }

  override asObserver(): TrainingObserver {
    const base = super.asObserver();
    return {
      ...base,
      onTrainBegin: (event) => {
        this.rates.length = 0;
        base.onTrainBegin?.(event);
      },
      onTrainEnd: (event) => {
        event.history.forEach((row, i) => {
          if (this.rates[i] !== undefined) row.lr = this.rates[i];
        });
        base.onTrainEnd?.(event);
      },
    };
  }
}

/** Multiplies the learning rate by `factor` when `monitor` stops improving for `patience` epochs. */
export class ReduceLROnPlateau extends RateCallback {
  readonly monitor: string;
  readonly factor: number;
  readonly patience: number;
  readonly verbose: number;
  readonly mode: 'auto' | 'min' | 'max';
  readonly minDelta: number;
  readonly cooldown: number;
  readonly minLr: number;
  best = Infinity;
  wait = 0;
  cooldownCounter = 0;
  private better: (current: number, best: number) => boolean = () => false;

  constructor(...args: unknown[]) {
    super();
    const what = 'ReduceLROnPlateau';
    const a = bindArgs(
      {
        name: what,
        params: [
          'monitor',
          'factor',
          'patience',
          'verbose',
          'mode',
          'minDelta',
          'cooldown',
          'minLr',
        ],
      },
      args,
    );
    this.monitor = a.monitor === undefined || a.monitor === null ? 'val_loss' : String(a.monitor);
    this.factor = optional(a.factor, asNumber, `${what}: factor`, 0.1);
    if (this.factor >= 1)
      throw new ValueError(
        `ReduceLROnPlateau does not support a factor >= 1.0. Got ${pyFloat(this.factor)}`,
      );
    this.patience = optional(a.patience, asInt, `${what}: patience`, 10);
    this.verbose = optional(a.verbose, asInt, `${what}: verbose`, 0);
    const mode = a.mode === undefined || a.mode === null ? 'auto' : String(a.mode);
    // Keras warns and falls back to 'auto' on an unknown mode.
    this.mode = mode === 'min' || mode === 'max' ? mode : 'auto';
    this.minDelta = optional(a.minDelta, asNumber, `${what}: minDelta`, 1e-4);
    this.cooldown = optional(a.cooldown, asInt, `${what}: cooldown`, 0);
    this.minLr = optional(a.minLr, asNumber, `${what}: minLr`, 0);
    this.reset();
  }

  private reset(): void {
    // TF 2.15: 'auto' means 'max' only when the monitor's name contains 'acc'.
    if (this.mode === 'min' || (this.mode === 'auto' && !this.monitor.includes('acc'))) {
      this.better = (current, best) => current < best - this.minDelta;
      this.best = Infinity;
    } else {
      this.better = (current, best) => current > best + this.minDelta;
      this.best = -Infinity;
    }
    this.cooldownCounter = 0;
    this.wait = 0;
  }

  inCooldown(): boolean {
    return this.cooldownCounter > 0;
  }

  override onTrainBegin(): void {
    this.reset();
  }

  override onEpochEnd(epoch: number, logs?: Logs): void {
    this.recordRate(epoch, logs);
    const current = logs?.[this.monitor];
    if (current === undefined) {
      writeOutput(
        `WARNING: Learning rate reduction is conditioned on metric \`${this.monitor}\` which is not available. Available metrics are: ${Object.keys(logs ?? {}).join(',')}`,
      );
      return;
    }
    if (this.inCooldown()) {
      this.cooldownCounter -= 1;
      this.wait = 0;
    }
    if (this.better(current, this.best)) {
      this.best = current;
      this.wait = 0;
    } else if (!this.inCooldown()) {
      this.wait += 1;
      if (this.wait >= this.patience) {
        const optimizer = optimizerOf(this, 'ReduceLROnPlateau');
        // Keras keeps the rate in a float32 variable and multiplies its value in float64.
        const oldLr = Math.fround(optimizer.learningRate);
        if (oldLr > Math.fround(this.minLr)) {
          const newLr = Math.max(oldLr * this.factor, this.minLr);
          optimizer.learningRate = newLr;
          if (this.verbose > 0)
            writeOutput(
              `\nEpoch ${epoch + 1}: ReduceLROnPlateau reducing learning rate to ${pyFloat(newLr)}.`,
            );
          this.cooldownCounter = this.cooldown;
          this.wait = 0;
        }
      }
    }
  }
}

type Schedule = (epoch: number, lr: number) => unknown;

/** Sets the learning rate at each epoch's start to `schedule(epoch, lr)` (epochs from 0). */
export class LearningRateScheduler extends RateCallback {
  readonly schedule: Schedule;
  readonly verbose: number;

  constructor(...args: unknown[]) {
    super();
    const a = bindArgs({ name: 'LearningRateScheduler', params: ['schedule', 'verbose'] }, args);
    if (typeof a.schedule !== 'function')
      throw new TypeError(
        `LearningRateScheduler: schedule must be a function (epoch, lr) => rate, got ${describe(a.schedule)}`,
      );
    this.schedule = a.schedule as Schedule;
    this.verbose = optional(a.verbose, asInt, 'LearningRateScheduler: verbose', 0);
  }

  override onEpochBegin(epoch: number): void {
    const optimizer = optimizerOf(this, 'LearningRateScheduler');
    const value = this.schedule(epoch, Math.fround(optimizer.learningRate));
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw new ValueError(
        `The output of the "schedule" function should be float. Got: ${describe(value)}`,
      );
    optimizer.learningRate = value;
    if (this.verbose > 0)
      writeOutput(
        `\nEpoch ${epoch + 1}: LearningRateScheduler setting learning rate to ${pyFloat(value)}.`,
      );
  }

  override onEpochEnd(epoch: number, logs?: Logs): void {
    this.recordRate(epoch, logs);
  }
}
