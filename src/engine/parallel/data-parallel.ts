/**
 * nn.DataParallel: one model trained on several logical GPUs as PyTorch's DataParallel does it.
 * Each forward splits the batch across the devices, runs the wrapped module on every device
 * (parameters broadcast to replicas that are stale), and gathers the outputs on the output device.
 * Forwards are only enqueued, so every device's queue works at the same time.
 *
 * The backward of `criterion(model(x), y)` reaches each replica's copies of the parameters, on
 * their own devices and concurrently; a post-accumulate-grad hook on each copy then copies its
 * gradient to the primary device and adds it into the primary parameter's `.grad` (reduce to one
 * device), so `optimizer.step()` on `model.parameters()` makes one update, and the next forward
 * broadcasts it. Gradient accumulation over several backwards works as on one device.
 */
import { noGrad } from '../autograd';
import type { Device } from '../devices/device';
import { gpuDevices, getDevice } from '../devices/registry';
import { add } from '../ops/elementwise';
import { copyInto } from '../ops/inplace';
import { scopedAll } from '../ops/support';
import { toDevice } from '../ops/transfer';
import { Module } from '../nn/module';
import { bind, intArg } from '../nn/layer-args';
import type { SummaryOptions } from '../nn/summary';
import type { Tensor } from '../tensor';
import { ReplicaSet } from './replicas';
import { gatherStructure, scatterStructure } from './scatter-gather';

/** Adds a replica's gradient into its primary's `.grad` (on the primary's device) and clears it. */
export function reduceGradientInto(primary: Tensor, copy: Tensor): void {
  const grad = copy.gradInternal;
  if (grad === null) return;
  copy.grad = null;
  noGrad(() => {
    const moved = toDevice(grad, primary.deviceObject);
    const existing = primary.gradInternal;
    if (existing !== null && !existing.isDisposed && existing.isContiguous()) {
      // In place, so a reference to `.grad` held by the user sees the sum, as after backward.
      scopedAll(() => {
        copyInto(existing, add(existing, moved));
        return [] as Tensor[];
      });
      moved.dispose();
    } else primary.setGradInternal(moved);
  });
  grad.dispose();
}

function isModule(value: object): boolean {
  return value instanceof Module;
}

export class DataParallel extends Module {
  declare module: Module;
  /** The logical GPU indices used, primary first (PyTorch's `device_ids`). */
  declare readonly deviceIds: number[];
  declare readonly outputDevice: number | null;
  declare readonly dim: number;
  declare private readonly replicas: ReplicaSet | null;

  /** `new nn.DataParallel(module)`, `…(module, [0, 1])` or `…(module, { deviceIds, outputDevice, dim })`. */
  constructor(
    module: Module,
    deviceIds?: readonly number[] | null,
    outputDevice?: number | null,
    dim?: number,
  );
  constructor(...args: unknown[]) {
    super();
    const a = bind(
      { name: 'DataParallel', params: ['module', 'deviceIds', 'outputDevice', 'dim'] },
      args,
    );
    if (!(a.module instanceof Module))
      throw new TypeError('DataParallel: module must be an nn.Module');
    const available = gpuDevices().map((d) => d.index);
    const ids =
      a.deviceIds === undefined || a.deviceIds === null
        ? available
        : (a.deviceIds as unknown[]).map((id, i) =>
            parseDeviceId(id, `DataParallel: deviceIds[${i}]`),
          );
    const devices = ids.map((id) => getDevice(`gpu:${id}`));
    const output =
      a.outputDevice === undefined || a.outputDevice === null
        ? (ids[0] ?? null)
        : parseDeviceId(a.outputDevice, 'DataParallel: outputDevice');
    const hidden = (value: unknown) => ({ value, enumerable: false, writable: false });
    Object.defineProperties(this, {
      deviceIds: hidden(ids),
      outputDevice: hidden(output),
      dim: hidden(intArg(a.dim, 'DataParallel: dim', 0)),
      replicas: hidden(
        devices.length > 1
          ? new ReplicaSet(devices, (primary, copy) => {
              copy.registerPostAccumulateGradHook(() => reduceGradientInto(primary, copy));
            })
          : null,
      ),
    });
    this.module = a.module;
    // PyTorch moves the module only for a single device and otherwise requires it on
    // device_ids[0]; moving it always spares learners that error.
    if (devices.length > 0) this.module.to(devices[0]);
  }

  private get devices(): readonly Device[] {
    return this.deviceIds.map((id) => getDevice(`gpu:${id}`));
  }

  /** The wrapped module's table, from one device: each layer once, not once per replica. */
  override summary(options: SummaryOptions): void {
    this.module.summary(options);
  }

  override forward(...inputs: unknown[]): unknown {
    const devices = this.devices;
    // Without GPUs, PyTorch's DataParallel simply calls the module.
    if (devices.length === 0) return this.module(...inputs);
    const primary = devices[0];
    const tensors = [...this.module.parameters(), ...this.module.buffers()];
    const misplaced = tensors.find((t) => t.deviceObject !== primary);
    if (misplaced) {
      throw new Error(
        `module must have its parameters and buffers on device ${primary.name} ` +
          `(device_ids[0]) but found one of them on device: ${misplaced.device}`,
      );
    }
    const parts = scatterStructure(inputs, devices, this.dim) as unknown[][];
    const replicas = this.replicas;
    const outputs = parts.map((part, k) =>
      k === 0 || !replicas
        ? this.module(...part)
        : replicas.withReplica(k, this.module, tensors, isModule, () => this.module(...part)),
    );
    const target = this.outputDevice === null ? primary : getDevice(`gpu:${this.outputDevice}`);
    return gatherStructure(outputs, target, this.dim);
  }
}

function parseDeviceId(value: unknown, what: string): number {
  if (typeof value === 'number') return intArg(value, what);
  const device = getDevice(value as string);
  if (device.kind !== 'gpu')
    throw new TypeError(`${what}: DataParallel runs on GPUs, got ${device.name}`);
  return device.index;
}
