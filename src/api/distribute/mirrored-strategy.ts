/**
 * `tf.distribute.MirroredStrategy`: synchronous data parallelism over the logical GPUs. A Keras
 * model built and compiled in `await strategy.scope(async () => { … })` trains in `fit` like this,
 * each step:
 *  1. the batch is split into one slice per replica (`torch.chunk` sizes) and each slice copied
 *     to its device;
 *  2. every replica runs forward and backward on its slice with its mirror of the weights — all
 *     only enqueued, so the devices' queues work at the same time — its loss scaled by its share
 *     of the batch, so the summed gradient is the whole batch's;
 *  3. all-reduce as ReductionToOneDevice: the replicas' gradients are copied to the first device
 *     (through mapped staging buffers: WebGPU devices share no memory) and summed there;
 *  4. one optimizer update on the first device's weights, which the other replicas copy
 *     (broadcast) before their next forward. Every replica thus steps with identical weights.
 */
import {
  cpu,
  getDevice,
  gpuDevices,
  gather,
  noGrad,
  ops,
  ReplicaSet,
  scatterStructure,
  Tensor,
  withTfDevice,
  type Device,
} from '../../engine';
import { writeOutput, type StepResult } from '../../engine/training';
import { bindArgs, describe } from '../args';
import { GradientTapeImpl } from '../tf/gradient-tape';
import { Layer } from '../tf/keras/layers/layer';
import { TrackedLayers } from '../tf/keras/layers/python-layer';
import {
  withStrategy,
  type DistributeStrategy,
  type KerasReplicaHooks,
  type ReplicatedSteps,
} from './scope';

/** TensorFlow's cross-device reductions; all of them run as ReductionToOneDevice here. */
export class CrossDeviceOps {
  constructor(readonly name: string) {}
}
export class ReductionToOneDevice extends CrossDeviceOps {
  constructor() {
    super('ReductionToOneDevice');
  }
}
export class HierarchicalCopyAllReduce extends CrossDeviceOps {
  constructor() {
    super('HierarchicalCopyAllReduce');
  }
}
export class NcclAllReduce extends CrossDeviceOps {
  constructor() {
    super('NcclAllReduce');
  }
}

/** TensorFlow's fully qualified device name. */
export function tfDeviceName(device: Device): string {
  const kind = device.kind === 'gpu' ? 'GPU' : 'CPU';
  return `/job:localhost/replica:0/task:0/device:${kind}:${device.index}`;
}

function rowsOf(part: unknown): number {
  const first = Array.isArray(part) ? part.find((v) => v instanceof Tensor) : part;
  if (!(first instanceof Tensor) || first.ndim === 0) {
    throw new TypeError(
      `MirroredStrategy: each batch must be tensors with a batch dimension, got ${describe(part)}`,
    );
  }
  return first.shape[0];
}

/** Adds tensors on `device` (copying each there first); null when there is none. */
function sumOn(device: Device, tensors: readonly (Tensor | null)[]): Tensor | null {
  let total: Tensor | null = null;
  for (const t of tensors) {
    if (t === null) continue;
    const here = t.deviceObject === device ? t : ops.toDevice(t, device);
    total = total === null ? here : ops.add(total, here);
  }
  return total;
}

/** What a replica's weight swap descends into: layers, and the layers a Python model tracks. */
function isLayer(value: object): boolean {
  return value instanceof Layer || value instanceof TrackedLayers;
}

export class MirroredStrategy implements DistributeStrategy {
  /** The replicas' devices, TensorFlow's names. */
  readonly devices: readonly string[];
  readonly crossDeviceOps: CrossDeviceOps;
  private readonly deviceObjects: readonly Device[];
  private readonly replicas: ReplicaSet;

  /** `new tf.distribute.MirroredStrategy()` (every logical GPU), or `(['/gpu:0', '/gpu:1'])`. */
  constructor(...args: unknown[]) {
    const a = bindArgs({ name: 'MirroredStrategy', params: ['devices', 'crossDeviceOps'] }, args);
    let devices: Device[];
    if (a.devices === undefined || a.devices === null) {
      devices = gpuDevices().length > 0 ? [...gpuDevices()] : [cpu()];
    } else {
      if (!Array.isArray(a.devices) || a.devices.length === 0) {
        throw new TypeError(
          `MirroredStrategy: devices must be a non-empty list such as ['/gpu:0', '/gpu:1'], got ${describe(a.devices)}`,
        );
      }
      devices = a.devices.map((d) => getDevice(d as string));
      if (new Set(devices).size !== devices.length) {
        throw new Error('MirroredStrategy: the same device is listed twice');
      }
    }
    if (
      a.crossDeviceOps !== undefined &&
      a.crossDeviceOps !== null &&
      !(a.crossDeviceOps instanceof CrossDeviceOps)
    ) {
      throw new TypeError(
        `MirroredStrategy: crossDeviceOps must be a tf.distribute cross-device op, got ${describe(a.crossDeviceOps)}`,
      );
    }
    this.deviceObjects = devices;
    this.devices = devices.map(tfDeviceName);
    this.crossDeviceOps =
      (a.crossDeviceOps as CrossDeviceOps | undefined) ?? new ReductionToOneDevice();
    this.replicas = new ReplicaSet(devices);
    writeOutput(this.describe());
  }

  get numReplicasInSync(): number {
    return this.deviceObjects.length;
  }

  /** What TensorFlow logs on creation, and how the reduction works here. */
  private describe(): string {
    const names = this.devices.map((d) => `'${d}'`);
    const lines = [
      `INFO:tensorflow:Using MirroredStrategy with devices (${names.join(', ')}${names.length === 1 ? ',' : ''})`,
    ];
    if (this.numReplicasInSync > 1) {
      const primary = this.devices[0];
      const asked = this.crossDeviceOps.name;
      if (asked !== 'ReductionToOneDevice') {
        lines.push(
          `WARNING:tensorflow:${asked} is not available between WebGPU devices, falling back to ReductionToOneDevice`,
        );
      }
      lines.push(
        `INFO:tensorflow:All-reduce: ReductionToOneDevice onto ${primary}. Each batch is split into ` +
          `${this.numReplicasInSync} slices; every replica runs forward and backward on its slice at ` +
          `the same time; their gradients are copied to ${primary} through mapped staging buffers ` +
          `and summed; one update is applied there and the new weights are broadcast to the other ` +
          `replicas before their next step.`,
      );
    }
    return lines.join('\n');
  }

  /**
   * `await strategy.scope(async () => { model = createModel(); model.compile(…) })`: models made
   * inside train on every replica, and their weights are created on the first replica's device.
   */
  scope<T>(fn: () => T): T {
    if (typeof fn !== 'function') {
      throw new TypeError(
        'strategy.scope takes a function: await strategy.scope(async () => { … })',
      );
    }
    return withStrategy(this, () => withTfDevice(this.deviceObjects[0], fn));
  }

  kerasSteps(model: object, hooks: KerasReplicaHooks): ReplicatedSteps {
    return {
      trainStep: (batch) =>
        withTfDevice(this.deviceObjects[0], () => this.trainStep(model, hooks, batch)),
      evalStep: (batch) =>
        withTfDevice(this.deviceObjects[0], () => this.evalStep(model, hooks, batch)),
    };
  }

  /** Runs fn with replica k's weights on replica k's device (k = 0: the primary weights). */
  private onReplica<T>(k: number, model: object, hooks: KerasReplicaHooks, fn: () => T): T {
    const device = this.deviceObjects[k];
    if (k === 0) return withTfDevice(device, fn);
    return this.replicas.withReplica(k, model, hooks.weights(), isLayer, () =>
      withTfDevice(device, fn),
    );
  }

  private trainStep(model: object, hooks: KerasReplicaHooks, batch: unknown): StepResult {
    const parts = scatterStructure(batch, this.deviceObjects);
    const total = rowsOf(batch);
    const primary = this.deviceObjects[0];
    const results = parts.map((part, k) => {
      const r = this.onReplica(k, model, hooks, () => hooks.forward(part, true));
      // Each replica's loss is its slice's mean times its share: the sum is the batch's mean.
      const loss = ops.mul(r.loss, rowsOf(part) / total);
      const variables = hooks.trainableVariables().map((v) => this.replicas.copyOf(v, k));
      const grads = new GradientTapeImpl().gradient(loss, variables) as (Tensor | null)[];
      return { loss, preds: r.preds, labels: r.labels, grads };
    });
    const variables = hooks.trainableVariables();
    const reduced = noGrad(() =>
      variables.map((_, j) =>
        sumOn(
          primary,
          results.map((r) => r.grads[j] ?? null),
        ),
      ),
    );
    const step = this.joined(results);
    hooks.applyGradients(reduced.map((g, j): [Tensor | null, Tensor] => [g, variables[j]]));
    return step;
  }

  private evalStep(model: object, hooks: KerasReplicaHooks, batch: unknown): StepResult {
    const parts = scatterStructure(batch, this.deviceObjects);
    const total = rowsOf(batch);
    const results = parts.map((part, k) => {
      const r = this.onReplica(k, model, hooks, () => hooks.forward(part, false));
      return { loss: ops.mul(r.loss, rowsOf(part) / total), preds: r.preds, labels: r.labels };
    });
    return this.joined(results);
  }

  /** The whole batch's loss, predictions and labels on the first device (for metrics and logs). */
  private joined(results: readonly { loss: Tensor; preds: Tensor; labels: Tensor }[]): StepResult {
    const primary = this.deviceObjects[0];
    return noGrad(() => ({
      loss: sumOn(
        primary,
        results.map((r) => r.loss.detach()),
      ) as Tensor,
      preds: gather(
        results.map((r) => r.preds.detach()),
        primary,
      ),
      labels: gather(
        results.map((r) => r.labels),
        primary,
      ),
    }));
  }

  toString(): string {
    return `MirroredStrategy(devices=[${this.devices.map((d) => `'${d}'`).join(', ')}])`;
  }
}
