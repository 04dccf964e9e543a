import { afterEach, describe, expect, it } from 'vitest';
import { Tensor } from '../../engine';
import { setTrainingOutput } from '../../engine/training';
import { torch } from '../torch';
import { nn, optim, torchkeras, torchmetrics } from '../index';

afterEach(() => setTrainingOutput(null));

/** Two clusters around (±1, ±1); `flip` swaps the labels. */
function loader(
  n: number,
  flip: boolean,
  batchSize: number,
): InstanceType<typeof torch.utils.data.DataLoader> {
  const x: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const label = i % 2;
    const c = label ? 1 : -1;
    x.push([c + 0.3 * Math.sin(i), c + 0.3 * Math.cos(3 * i)]);
    y.push(flip ? 1 - label : label);
  }
  const ds = new torch.utils.data.TensorDataset(
    torch.tensor(x),
    torch.tensor(y, { dtype: 'int32' }),
  );
  return new torch.utils.data.DataLoader(ds, { batchSize });
}

describe('torchkeras.KerasModel', () => {
  it('early-stops on val_acc and ends with the best epoch’s weights', async () => {
    torch.manualSeed(4);
    const net = new nn.Linear(2, 2);
    const model = new torchkeras.KerasModel(net, {
      lossFn: new nn.CrossEntropyLoss(),
      metricsDict: { acc: new torchmetrics.Accuracy({ task: 'multiclass', numClasses: 2 }) },
      optimizer: new optim.SGD(net.parameters(), { lr: 0.5 }),
    });
    const lines: string[] = [];
    setTrainingOutput((t) => lines.push(t));
    // Learning the swapped labels makes validation worse every epoch: the best is epoch 1.
    const dlTrain = loader(64, true, 8);
    const dlVal = loader(32, false, 32);
    const history = await model.fit({
      trainData: dlTrain,
      valData: dlVal,
      epochs: 10,
      patience: 2,
      monitor: 'val_loss',
      mode: 'min',
      device: 'cpu',
    });
    expect(history.length).toBe(3);
    expect(Object.keys(history[0])).toEqual([
      'epoch',
      'train_loss',
      'train_acc',
      'lr',
      'val_loss',
      'val_acc',
    ]);
    const text = lines.join('');
    expect(text).toContain('<<<<<< ⚡️ cpu is used >>>>>>');
    expect(text).toContain('<<<<<< reach best val_loss : ');
    expect(text).toContain('<<<<<< val_loss without improvement in 2 epoch, early stopping >>>>>>');
    const after = await model.evaluate(dlVal);
    expect(after.val_loss).toBeCloseTo(history[0].val_loss, 5);
    expect(after.val_acc).toBeCloseTo(history[0].val_acc, 5);
    // The default checkpoint file holds the same weights.
    const saved = await torch.load('checkpoint.pt');
    expect(Array.from(await saved.weight.data())).toEqual(Array.from(await net.weight.data()));
    const preds = await model.predict(dlVal);
    expect(preds).toBeInstanceOf(Tensor);
    expect(preds.shape).toEqual([32, 2]);
  });

  it('needs a loss and a Module', () => {
    expect(() => new torchkeras.KerasModel(new nn.Linear(1, 1), {})).toThrow('give a lossFn');
    expect(() => new torchkeras.KerasModel({} as never, { lossFn: new nn.MSELoss() })).toThrow(
      'net must be an nn.Module',
    );
  });
});
