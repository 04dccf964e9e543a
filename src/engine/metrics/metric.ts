/**
 * The metric core shared by torchmetrics and tf.keras.metrics: state accumulated on the device of
 * the data (no readback per update), a result tensor that stays on the device, and an async
 * `compute()` that reads the one number. Metrics are modules, so they are callable
 * (`metric(preds, target)` updates and returns the batch's value) and move with `.to(device)`.
 */
import { noGrad } from '../autograd';
import type { Device } from '../devices/device';
import type { DeviceSpec } from '../devices/device-name';
import { getDevice } from '../devices/registry';
import { add } from '../ops/elementwise';
import { toDevice } from '../ops/transfer';
import { Tensor } from '../tensor';
import { Module } from '../nn/module';
import { notifyMetricRead, notifyMetricReset, type MetricReadEvent } from './reads';

/** Named state tensors, each kept across training steps; accumulating replaces and frees. */
export class MetricState {
  private readonly tensors = new Map<string, Tensor>();

  get(name: string): Tensor | undefined {
    return this.tensors.get(name);
  }

  /** state[name] = value (or state[name] + value when it exists). */
  accumulate(name: string, value: Tensor): void {
    const previous = this.tensors.get(name);
    this.set(name, previous ? add(previous, value) : value);
  }

  set(name: string, value: Tensor): void {
    const previous = this.tensors.get(name);
    value.keep();
    this.tensors.set(name, value);
    if (previous && previous !== value) previous.dispose();
  }

  clear(): void {
    for (const t of this.tensors.values()) t.dispose();
    this.tensors.clear();
  }

  moveTo(device: Device): void {
    for (const [name, t] of [...this.tensors])
      if (t.deviceObject !== device) this.set(name, toDevice(t, device));
  }
}

export abstract class Metric extends Module {
  protected readonly stateTensors = new MetricState();
  /** Whether the last update's predictions required grad (train step vs. validation). */
  private lastUpdateTraining: boolean | null = null;
  /** The default series name of its reads (`acc`, `mean`) when the metric has no name. */
  protected readonly readKind: string = 'metric';

  /** Adds a batch to the state (no readback). */
  abstract update(...args: unknown[]): void;
  /** The metric over everything seen since the last reset, as a 0-d tensor on the data's device. */
  abstract resultTensor(): Tensor;
  /** The metric of one batch alone, as a 0-d tensor (what calling the metric returns). */
  protected abstract batchValue(...args: unknown[]): Tensor;
  /** A fresh metric with the same settings (Python's deepcopy of an unused metric). */
  abstract clone(): Metric;

  /** Clears the state. */
  reset(): void {
    this.stateTensors.clear();
    this.resetHost();
    notifyMetricReset(this);
  }

  /** Subclasses call it from `update` with the predictions, to tell training from validation. */
  protected noteUpdate(preds: unknown): void {
    if (preds instanceof Tensor) this.lastUpdateTraining = preds.requiresGrad;
  }

  /** The read a user asked for, as an event (`name` is Keras's metric name, if any). */
  readEvent(name: string | null = null): MetricReadEvent {
    return {
      metric: this,
      name,
      kind: this.readKind,
      training: this.lastUpdateTraining,
      value: () => this.resultTensor().keep(),
    };
  }

  /** The result a user asked for (torchmetrics' `compute()`): reported to the read listener. */
  computeTensor(): Tensor {
    const t = this.resultTensor();
    notifyMetricRead(this.readEvent());
    return t;
  }

  /** Subclasses clear their host-side counters here. */
  protected resetHost(): void {}

  /** Reads the result: `await metric.compute()` is a number. */
  async compute(): Promise<number> {
    const t = this.computeTensor();
    return (await t.data())[0];
  }

  /** `metric(preds, target)`: updates the state and returns this batch's value. */
  override forward(...args: unknown[]): Tensor {
    return noGrad(() => {
      const value = this.batchValue(...args);
      this.update(...args);
      return value;
    });
  }

  override to(device: DeviceSpec | Device | { device?: DeviceSpec }): this {
    const spec =
      typeof device === 'object' && device !== null && 'device' in device && !('name' in device)
        ? device.device
        : device;
    if (spec !== undefined) this.stateTensors.moveTo(getDevice(spec as DeviceSpec | Device));
    return super.to(device);
  }
}
