/**
 * The fit loop shared by torchkeras.KerasModel and Keras's `model.fit`: epochs of a training
 * phase and an optional validation phase (under noGrad), running loss and metrics accumulated on
 * the device and read back once per logging interval, one history row per epoch, early stopping
 * on a monitored value, and the best weights kept (in memory, and with torch.save when a
 * checkpoint path is given) and restored at the end.
 */
import { noGrad } from '../autograd';
import { MeanCore } from '../metrics/mean';
import { clone } from '../ops/shape-ops';
import { stack } from '../ops/shape-ops';
import { save } from '../serialization/save-load';
import type { Tensor } from '../tensor';
import { defaultObservers } from './default-observers';
import { notify, type Logs, type Phase, type TrainingObserver } from './observer';

/** The detached results of one step. */
export interface StepResult {
  loss: Tensor;
  preds: Tensor;
  labels: Tensor;
}

/** What the loop trains: the model-specific parts, written once per flavour (torch, Keras). */
export interface TrainingTask {
  /** Forward, loss, backward and optimizer step on one batch. */
  trainStep(batch: unknown): StepResult;
  /** Forward and loss only (the loop runs it under noGrad). */
  evalStep(batch: unknown): StepResult;
  setTraining(training: boolean): void;
  /** The weights, for the best-epoch checkpoint. */
  stateDict(): Record<string, Tensor>;
  loadStateDict(state: Record<string, Tensor>): void;
  /** The learning rate shown in history rows (torchkeras's `lr` column), if any. */
  learningRate?(): number | null;
}

/** A metric as the loop uses it (the metrics core's classes fit). */
export interface LoopMetric {
  update(preds: Tensor, labels: Tensor): void;
  resultTensor(): Tensor;
  reset(): void;
  clone?(): LoopMetric;
}

export type BatchSource = AsyncIterable<unknown> & { readonly length?: number };

export interface FitOptions {
  trainData: BatchSource;
  valData?: BatchSource | null;
  epochs?: number;
  /** Metrics by name (`{ acc: accuracy }` gives train_acc and val_acc). */
  metrics?: Record<string, LoopMetric>;
  /** History key watched for improvement: 'val_loss' (default), 'val_acc', … */
  monitor?: string;
  mode?: 'min' | 'max';
  /** Epochs without improvement before stopping; null never stops early. */
  patience?: number | null;
  /** How much the monitored value must improve by to count as better (Keras's min_delta). */
  minDelta?: number;
  /** Keep the best epoch's weights and restore them at the end (default true). */
  restoreBest?: boolean;
  /** Also torch.save the best weights under this name. */
  ckptPath?: string | null;
  /** Steps between read-backs of the running logs (default: about ten per epoch). */
  logInterval?: number;
  observers?: readonly TrainingObserver[];
  /** Key prefixes: torchkeras writes train_loss / val_loss, Keras loss / val_loss. */
  prefixes?: { train: string; val: string };
  /** Asked after each epoch's observers: true ends training there (Keras's `model.stop_training`). */
  stopRequested?: () => boolean;
}

export interface FitResult {
  history: Logs[];
  stoppedEarly: boolean;
  bestEpoch: number | null;
}

function dataLength(data: BatchSource): number | null {
  const n = data.length;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** Fresh metric state for a phase (torchkeras deep-copies the metrics for train and for val). */
function phaseMetrics(metrics: Record<string, LoopMetric>): [string, LoopMetric][] {
  return Object.entries(metrics).map(([name, m]) => {
    const copy = m.clone ? m.clone() : m;
    copy.reset();
    return [name, copy];
  });
}

/** One read-back of the running loss and metrics (stacked when they share a device). */
async function readLogs(
  prefix: string,
  loss: MeanCore,
  metrics: [string, LoopMetric][],
): Promise<Logs> {
  const names = [`${prefix}loss`, ...metrics.map(([n]) => `${prefix}${n}`)];
  const tensors = noGrad(() => [loss.resultTensor(), ...metrics.map(([, m]) => m.resultTensor())]);
  const sameDevice = tensors.every((t) => t.deviceObject === tensors[0].deviceObject);
  let values: number[];
  if (sameDevice) {
    const joined = noGrad(() => stack(tensors.map((t) => t.reshape([]))));
    values = Array.from(await joined.data());
    joined.dispose();
  } else {
    values = await Promise.all(tensors.map(async (t) => (await t.data())[0]));
  }
  for (const t of tensors) t.dispose();
  const logs: Logs = {};
  names.forEach((n, i) => (logs[n] = values[i]));
  return logs;
}

async function runPhase(
  phase: Phase,
  epoch: number,
  task: TrainingTask,
  data: BatchSource,
  options: FitOptions,
  observers: readonly TrainingObserver[],
): Promise<Logs> {
  const prefix = (options.prefixes ?? { train: 'train_', val: 'val_' })[phase];
  const steps = dataLength(data);
  const interval = options.logInterval ?? (steps ? Math.max(1, Math.ceil(steps / 10)) : 10);
  const loss = new MeanCore();
  const metrics = phaseMetrics(options.metrics ?? {});
  task.setTraining(phase === 'train');
  let step = 0;
  let logs: Logs = {};
  let freshAt = -1;
  for await (const batch of data) {
    const r = phase === 'train' ? task.trainStep(batch) : noGrad(() => task.evalStep(batch));
    loss.update(r.loss);
    for (const [, m] of metrics) m.update(r.preds, r.labels);
    step++;
    const fresh = step % interval === 0 || step === steps;
    if (fresh) {
      logs = await readLogs(prefix, loss, metrics);
      freshAt = step;
    }
    notify(observers, 'onStep', { phase, epoch, step, steps, logs, fresh });
  }
  if (step === 0)
    throw new Error(
      `fit: the ${phase === 'train' ? 'training' : 'validation'} data gave no batches`,
    );
  if (freshAt !== step) logs = await readLogs(prefix, loss, metrics);
  loss.reset();
  for (const [, m] of metrics) m.reset();
  notify(observers, 'onPhaseEnd', { phase, epoch, steps: step, logs });
  return logs;
}

/** One validation pass over `data` (under noGrad, eval mode): `{ val_loss, val_acc, … }`. */
export async function evaluateLoop(
  task: TrainingTask,
  data: BatchSource,
  options: {
    metrics?: Record<string, LoopMetric>;
    prefix?: string;
    observers?: readonly TrainingObserver[];
  } = {},
): Promise<Logs> {
  const prefix = options.prefix ?? 'val_';
  try {
    return await runPhase(
      'val',
      1,
      task,
      data,
      { trainData: data, metrics: options.metrics, prefixes: { train: prefix, val: prefix } },
      options.observers ?? [],
    );
  } finally {
    task.setTraining(true);
  }
}

/** Copies the weights (on their devices, kept across steps). */
function snapshot(task: TrainingTask): Record<string, Tensor> {
  const out: Record<string, Tensor> = {};
  noGrad(() => {
    for (const [k, v] of Object.entries(task.stateDict())) out[k] = clone(v).keep();
  });
  return out;
}

function release(state: Record<string, Tensor> | null): void {
  if (state) for (const t of Object.values(state)) t.dispose();
}

export async function fitLoop(task: TrainingTask, options: FitOptions): Promise<FitResult> {
  const epochs = options.epochs ?? 1;
  if (!Number.isInteger(epochs) || epochs < 1)
    throw new RangeError(`fit: epochs must be a positive integer, got ${epochs}`);
  const observers = [...(options.observers ?? []), ...defaultObservers()];
  const prefixes = options.prefixes ?? { train: 'train_', val: 'val_' };
  const monitor = options.monitor ?? `${options.valData ? prefixes.val : prefixes.train}loss`;
  const mode = options.mode ?? (monitor.endsWith('loss') ? 'min' : 'max');
  if (mode !== 'min' && mode !== 'max')
    throw new TypeError(`fit: mode must be 'min' or 'max', got ${String(mode)}`);
  const patience = options.patience ?? null;
  const restoreBest = options.restoreBest ?? true;
  const history: Logs[] = [];
  let best: Record<string, Tensor> | null = null;
  let bestEpoch: number | null = null;
  let stoppedEarly = false;
  notify(observers, 'onTrainBegin', { epochs, steps: dataLength(options.trainData) });
  try {
    for (let epoch = 1; epoch <= epochs; epoch++) {
      notify(observers, 'onEpochBegin', { epoch, epochs });
      const row: Logs = { epoch };
      Object.assign(
        row,
        await runPhase('train', epoch, task, options.trainData, options, observers),
      );
      const lr = task.learningRate?.();
      if (typeof lr === 'number') row.lr = lr;
      if (options.valData)
        Object.assign(row, await runPhase('val', epoch, task, options.valData, options, observers));
      history.push(row);
      notify(observers, 'onEpochEnd', { epoch, epochs, logs: { ...row } });

      if (!(monitor in row)) {
        throw new Error(
          `fit: monitor '${monitor}' is not among the logged values (${Object.keys(row).join(', ')})`,
        );
      }
      const scores = history.map((r) => r[monitor]);
      const delta = Math.abs(options.minDelta ?? 0);
      let bestIndex = 0;
      scores.forEach((s, i) => {
        const best = scores[bestIndex];
        if (mode === 'max' ? s - delta > best : s + delta < best) bestIndex = i;
      });
      if (bestIndex === history.length - 1) {
        if (restoreBest) {
          release(best);
          best = snapshot(task);
        }
        bestEpoch = epoch;
        if (options.ckptPath) await save(task.stateDict(), options.ckptPath);
        notify(observers, 'onBest', { monitor, value: scores[bestIndex], epoch });
      }
      if (patience !== null && history.length - 1 - bestIndex >= patience) {
        stoppedEarly = epoch < epochs;
        if (stoppedEarly) {
          notify(observers, 'onEarlyStop', { monitor, patience, epoch, bestEpoch: bestIndex + 1 });
          break;
        }
      }
      if (epoch < epochs && options.stopRequested?.()) {
        stoppedEarly = true;
        break;
      }
    }
    if (restoreBest && best) task.loadStateDict(best);
  } finally {
    release(best);
    task.setTraining(true);
  }
  const result: FitResult = {
    history,
    stoppedEarly,
    bestEpoch: restoreBest ? bestEpoch : history.length,
  };
  notify(observers, 'onTrainEnd', { history, stoppedEarly, bestEpoch: result.bestEpoch });
  return result;
}
