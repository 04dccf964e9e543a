/**
 * `torchkeras`: KerasModel wraps a net, a loss, metrics and an optimizer, and trains with the
 * engine's fit loop — on gpu:0 when there is one, as torchkeras does through accelerate — with
 * early stopping and the best weights restored; plus `summary(net, { inputShape })`.
 */
import { cpu, gpuDevices, getDevice, noGrad, ops, Tensor, type Device } from '../../engine';
import type { Module, SummaryOptions } from '../../engine/nn';
import { Module as BaseModule } from '../../engine/nn';
import { Adam, type Optimizer } from '../../engine/optim';
import {
  evaluateLoop,
  fitLoop,
  torchkerasTextObserver,
  torchTask,
  writeOutput,
  type BatchSource,
  type LoopMetric,
  type LossFn,
  type TrainingObserver,
} from '../../engine/training';
import { asInt, asNumber, bindArgs, boolArg, describe, optional } from '../args';

export interface KerasModelOptions {
  lossFn?: LossFn;
  metricsDict?: Record<string, LoopMetric>;
  optimizer?: Optimizer;
  lrScheduler?: null;
}

export interface KerasFitOptions {
  trainData?: BatchSource;
  valData?: BatchSource | null;
  epochs?: number;
  ckptPath?: string | null;
  patience?: number;
  monitor?: string;
  mode?: 'min' | 'max';
  /** Observers of the training events (progress bars, charts); the text printer is always on unless quiet. */
  callbacks?: TrainingObserver[];
  quiet?: boolean;
  /** Steps between read-backs of the running values (ours; default about ten per epoch). */
  logInterval?: number;
  /** Where to train (ours; default gpu:0 when there is one). */
  device?: string | Device;
}

const FIT_PARAMS = [
  'trainData',
  'valData',
  'epochs',
  'ckptPath',
  'patience',
  'monitor',
  'mode',
  'mixedPrecision',
  'callbacks',
  'plot',
  'quiet',
];

class KerasModel extends BaseModule {
  declare net: Module;
  declare lossFn: LossFn;
  declare metricsDict: Record<string, LoopMetric>;
  declare optimizer: Optimizer;
  /** The device the last fit/evaluate used. */
  declare private device: Device;

  constructor(net: Module, options?: KerasModelOptions);
  constructor(
    net: Module,
    lossFn: LossFn,
    metricsDict?: Record<string, LoopMetric>,
    optimizer?: Optimizer,
  );
  constructor(...args: unknown[]) {
    super();
    const a = bindArgs(
      {
        name: 'KerasModel',
        params: ['net', 'lossFn', 'metricsDict', 'optimizer', 'lrScheduler'],
        objectParams: ['metricsDict'],
      },
      args,
    );
    if (!(a.net instanceof BaseModule))
      throw new TypeError(`KerasModel: net must be an nn.Module, got ${describe(a.net)}`);
    if (typeof a.lossFn !== 'function')
      throw new TypeError('KerasModel: give a lossFn, e.g. { lossFn: new nn.CrossEntropyLoss() }');
    if (a.lrScheduler !== undefined && a.lrScheduler !== null)
      throw new Error('KerasModel: lrScheduler is not supported yet');
    this.net = a.net;
    this.lossFn = a.lossFn as LossFn;
    Object.defineProperty(this, 'metricsDict', {
      value: (a.metricsDict ?? {}) as Record<string, LoopMetric>,
      writable: true,
      enumerable: false,
    });
    Object.defineProperty(this, 'optimizer', {
      value:
        (a.optimizer as Optimizer | undefined) ?? new Adam(this.net.parameters(), { lr: 1e-3 }),
      writable: true,
      enumerable: false,
    });
    Object.defineProperty(this, 'device', { value: cpu(), writable: true, enumerable: false });
  }

  override forward(x: Tensor): Tensor {
    return this.net(x);
  }

  /** Puts the net, the loss and the metrics on the training device. */
  private place(device: string | Device | undefined): Device {
    const target = device !== undefined ? getDevice(device) : (gpuDevices()[0] ?? cpu());
    this.net.to(target);
    if (this.lossFn instanceof BaseModule) this.lossFn.to(target);
    for (const m of Object.values(this.metricsDict)) if (m instanceof BaseModule) m.to(target);
    this.device = target;
    return target;
  }

  /** torchkeras's fit: returns the history rows (epoch, train_loss, train_acc, lr, val_loss, val_acc). */
  async fit(options: KerasFitOptions): Promise<Record<string, number>[]>;
  async fit(...args: unknown[]): Promise<Record<string, number>[]> {
    const a = bindArgs(
      { name: 'KerasModel.fit', params: FIT_PARAMS, keywordOnly: ['logInterval', 'device'] },
      args,
    );
    if (a.trainData === undefined)
      throw new TypeError('KerasModel.fit: give trainData (a DataLoader)');
    if (a.mixedPrecision !== undefined && a.mixedPrecision !== 'no')
      throw new Error('KerasModel.fit: mixedPrecision is not supported');
    const device = this.place(a.device as string | Device | undefined);
    const quiet = boolArg(a.quiet, 'quiet', false);
    if (!quiet) writeOutput(`<<<<<< ⚡️ ${device.name} is used >>>>>>`);
    const observers = [
      ...(quiet ? [] : [torchkerasTextObserver()]),
      ...((a.callbacks as TrainingObserver[] | undefined) ?? []),
    ];
    const result = await fitLoop(torchTask(this.net, this.lossFn, this.optimizer, device), {
      trainData: a.trainData as BatchSource,
      valData: (a.valData as BatchSource | null | undefined) ?? null,
      epochs: optional(a.epochs, asInt, 'epochs', 10),
      ckptPath: a.ckptPath === undefined ? 'checkpoint.pt' : (a.ckptPath as string | null),
      patience: optional(a.patience, asNumber, 'patience', 5),
      monitor: (a.monitor as string | undefined) ?? (a.valData ? 'val_loss' : 'train_loss'),
      mode: (a.mode as 'min' | 'max' | undefined) ?? 'min',
      metrics: this.metricsDict,
      logInterval: a.logInterval as number | undefined,
      observers,
    });
    return result.history;
  }

  /** One pass over validation data: `{ val_loss, val_acc, … }`. */
  async evaluate(
    valData: BatchSource,
    options: { quiet?: boolean } = {},
  ): Promise<Record<string, number>> {
    const device = this.place(undefined);
    void options;
    return evaluateLoop(torchTask(this.net, this.lossFn, this.optimizer, device), valData, {
      metrics: this.metricsDict,
    });
  }

  /** Predictions for every batch (or for one tensor), concatenated. */
  async predict(data: BatchSource | Tensor): Promise<Tensor> {
    const device = this.place(undefined);
    this.net.eval();
    try {
      if (data instanceof Tensor)
        return noGrad(() => this.net(data.deviceObject === device ? data : data.to(device)));
      const parts: Tensor[] = [];
      for await (const batch of data) {
        const first: unknown = Array.isArray(batch) ? batch[0] : batch;
        if (!(first instanceof Tensor))
          throw new TypeError('predict: batches must be tensors or [features, labels]');
        const x = first.deviceObject === device ? first : first.to(device);
        parts.push(noGrad(() => this.net(x)).keep());
      }
      const out = ops.cat(parts, 0);
      for (const p of parts) p.dispose();
      return out;
    } finally {
      this.net.train();
    }
  }

  /** torchsummary's table of the net. */
  override summary(options: SummaryOptions): void {
    this.net.summary(options);
  }
}

/** `torchkeras.summary(net, { inputShape })`. */
function summary(net: Module, options: SummaryOptions): void {
  if (!(net instanceof BaseModule)) throw new TypeError('summary: expected an nn.Module');
  net.summary(options);
}

export const torchkeras = { KerasModel, summary };
