/**
 * The torch flavour of a training task: `[features, labels]` batches moved to the model's device,
 * `net(features)`, `lossFn(preds, labels)`, backward, `optimizer.step()` and `zeroGrad()`, as
 * torchkeras's StepRunner does.
 */
import type { Device } from '../devices/device';
import type { Module } from '../nn/module';
import type { Optimizer } from '../optim/optimizer';
import { toDevice } from '../ops/transfer';
import { Tensor } from '../tensor';
import type { StepResult, TrainingTask } from './fit';

export type LossFn = (preds: Tensor, labels: Tensor) => Tensor;

/** Splits a batch into features and labels, on the device. */
export function featuresAndLabels(batch: unknown, device: Device | null): [Tensor, Tensor] {
  if (
    !Array.isArray(batch) ||
    batch.length < 2 ||
    !(batch[0] instanceof Tensor) ||
    !(batch[1] instanceof Tensor)
  ) {
    throw new TypeError(
      'fit: each batch must be [features, labels] (as a DataLoader over a TensorDataset gives)',
    );
  }
  const [x, y] = batch as [Tensor, Tensor];
  if (!device) return [x, y];
  return [
    x.deviceObject === device ? x : toDevice(x, device),
    y.deviceObject === device ? y : toDevice(y, device),
  ];
}

export function torchTask(
  net: Module,
  lossFn: LossFn,
  optimizer: Optimizer,
  device: Device | null,
): TrainingTask {
  const forward = (batch: unknown): StepResult => {
    const [x, y] = featuresAndLabels(batch, device);
    const preds = net(x);
    if (!(preds instanceof Tensor))
      throw new TypeError('fit: the model must return a Tensor of predictions');
    return { loss: lossFn(preds, y), preds, labels: y };
  };
  return {
    trainStep(batch) {
      const r = forward(batch);
      r.loss.backward();
      optimizer.step();
      optimizer.zeroGrad();
      return { loss: r.loss.detach(), preds: r.preds.detach(), labels: r.labels };
    },
    evalStep: forward,
    setTraining(training) {
      net.train(training);
    },
    stateDict: () => net.stateDict(),
    loadStateDict(state) {
      net.loadStateDict(state);
    },
    learningRate() {
      const lr = optimizer.paramGroups[0]?.lr;
      return typeof lr === 'number' ? lr : null;
    },
  };
}
