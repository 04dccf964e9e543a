/**
 * The PyTorch chapters' code, line for line in the cell API: linear regression with Adam, the
 * MNIST pipeline (torchvision, DataLoader, Sequential with addModule, torchmetrics, KerasModel),
 * summaries and saving. Each test states which chapter lines it mirrors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tensor } from '../../engine';
import { setAssetReader } from '../../engine/data/datasets';
import { builtDataReader } from '../../engine/data/datasets/built-data.testing';
import { setTrainingOutput } from '../../engine/training';
import { testDevices } from '../../engine/testing/devices';
import { torch } from '../torch';
import { nn, optim, torchkeras, torchmetrics, torchvision } from '../index';

const devices = await testDevices();
const { transforms } = torchvision;

beforeAll(() => setAssetReader(builtDataReader()));
afterAll(() => {
  setAssetReader(null);
  setTrainingOutput(null);
});

describe('6-3 linear regression (n = 2,000 here)', () => {
  it('Adam(lr 0.1) over 500 full-batch steps finds w ≈ [2, −3], b ≈ 10 and loss ≈ 4', async () => {
    torch.manualSeed(0);
    const n = 2000; // n = 1000000 in the chapter
    const X = torch.rand([n, 2]).mul(10).sub(5.0); // X = 10*torch.rand([n,2])-5.0
    const w0 = torch.tensor([[2.0, -3.0]]);
    const b0 = torch.tensor([[10.0]]);
    const Y = X.matmul(w0.t())
      .add(b0)
      .add(torch.normal(0.0, 2.0, { size: [n, 1] }));

    class LinearRegression extends nn.Module {
      w = new nn.Parameter(torch.randnLike(w0));
      b = new nn.Parameter(torch.zerosLike(b0));
      override forward(x: Tensor): Tensor {
        return x.matmul(this.w.t()).add(this.b);
      }
    }
    const linear = new LinearRegression();
    const optimizer = new torch.optim.Adam(linear.parameters(), { lr: 0.1 });
    const lossFn = new nn.MSELoss();
    const losses: number[] = [];
    for (let epoch = 0; epoch < 500; epoch++) {
      optimizer.zeroGrad();
      const yPred = linear(X);
      const loss = lossFn(yPred, Y);
      loss.backward();
      optimizer.step();
      if (epoch % 50 === 0) losses.push(await loss.item());
    }
    const w = Array.from(await linear.w.data());
    const b = (await linear.b.data())[0];
    expect(w[0]).toBeCloseTo(2, 1);
    expect(w[1]).toBeCloseTo(-3, 1);
    expect(Math.abs(b - 10)).toBeLessThan(0.25);
    expect(losses[0]).toBeGreaterThan(20);
    expect(losses[losses.length - 1]).toBeGreaterThan(3.5);
    expect(losses[losses.length - 1]).toBeLessThan(4.5);
  });
});

/** The chapter's create_net(). */
function createNet(): nn_Sequential {
  const net = new nn.Sequential();
  net.addModule('conv1', new nn.Conv2d({ inChannels: 1, outChannels: 32, kernelSize: 3 }));
  net.addModule('pool1', new nn.MaxPool2d({ kernelSize: 2, stride: 2 }));
  net.addModule('conv2', new nn.Conv2d({ inChannels: 32, outChannels: 64, kernelSize: 5 }));
  net.addModule('pool2', new nn.MaxPool2d({ kernelSize: 2, stride: 2 }));
  net.addModule('dropout', new nn.Dropout2d({ p: 0.1 }));
  net.addModule('adaptive_pool', new nn.AdaptiveMaxPool2d([1, 1]));
  net.addModule('flatten', new nn.Flatten());
  net.addModule('linear1', new nn.Linear(64, 32));
  net.addModule('relu', new nn.ReLU());
  net.addModule('linear2', new nn.Linear(32, 10));
  return net;
}
type nn_Sequential = InstanceType<typeof nn.Sequential>;

describe('6-3 MNIST pipeline', () => {
  it('loads MNIST through torchvision with ToTensor, batches it, and sums up the chapter net', async () => {
    const transform = transforms.Compose([transforms.ToTensor()]);
    const dsVal = await torchvision.datasets.MNIST({
      root: 'mnist/',
      train: false,
      download: true,
      transform,
    });
    expect(dsVal.length).toBe(10000);
    const [img, label] = dsVal.get(0);
    expect(img.shape).toEqual([1, 28, 28]);
    expect(img.dtype).toBe('float32');
    expect(await label.item()).toBe(7);
    const pixels = Array.from(await img.data());
    expect(Math.max(...pixels)).toBe(1);
    expect(Math.min(...pixels)).toBe(0);
    const dlVal = new torch.utils.data.DataLoader(dsVal, {
      batchSize: 128,
      shuffle: false,
      numWorkers: 2,
    });
    expect(dlVal.length).toBe(79);
    const lines: string[] = [];
    setTrainingOutput((t) => lines.push(t));
    torchkeras.summary(createNet(), { inputShape: [1, 28, 28] });
    expect(lines.join('')).toContain('Total params: 53,994');
    expect(String(createNet()).split('\n')[1]).toBe(
      '  (conv1): Conv2d(1, 32, kernel_size=(3, 3), stride=(1, 1))',
    );
  });

  it('Normalize with the famous constants gives mean ≈ 0 and std ≈ 1', async () => {
    const transform = transforms.Compose([
      transforms.ToTensor(),
      transforms.Normalize([0.1307], [0.3081]),
    ]);
    const ds = await torchvision.datasets.MNIST({ train: true, transform, limit: 3000 });
    const [x] = ds.get(5);
    expect(x.shape).toEqual([1, 28, 28]);
    const images = ds.tensorSource()?.tensors[0] as Tensor;
    const mean = await images.mean().item();
    const std = Math.sqrt(await images.sub(mean).square().mean().item());
    expect(Math.abs(mean)).toBeLessThan(0.05);
    expect(Math.abs(std - 1)).toBeLessThan(0.05);
  });

  it('torchmetrics.Accuracy is callable per batch and computes over all', async () => {
    const acc = new torchmetrics.Accuracy({ task: 'multiclass', numClasses: 3 });
    const preds = torch.tensor([
      [0.1, 0.8, 0.1],
      [0.9, 0.05, 0.05],
      [0.2, 0.3, 0.5],
      [0.6, 0.3, 0.1],
    ]);
    const step = acc(preds, torch.tensor([1, 0, 0, 0], { dtype: 'int32' }));
    expect(await step.item()).toBeCloseTo(0.75, 6);
    acc.update(preds, torch.tensor([2, 2, 2, 0], { dtype: 'int32' }));
    expect(await acc.compute()).toBeCloseTo(5 / 8, 6);
  });

  it('saves a state dict and loads it into a fresh net (<All keys matched successfully>)', async () => {
    const net = createNet();
    await torch.save(net.stateDict(), 'model_parameter.pt');
    const clone = createNet();
    const result = clone.loadStateDict(
      (await torch.load('model_parameter.pt')) as Record<string, Tensor>,
    );
    expect(String(result)).toBe('<All keys matched successfully>');
    expect(Array.from(await clone.parameters()[2].data())).toEqual(
      Array.from(await net.parameters()[2].data()),
    );
  });
});

describe.skipIf(devices.length < 2)('6-3 torchkeras.KerasModel on WebGPU', () => {
  // SwiftShader runs these convolutions at a few hundred ms per batch: the sizes stay small.
  it(
    'a small CNN learns MNIST (1,000 train / 300 held out, 2 epochs)',
    { timeout: 240_000 },
    async () => {
      torch.manualSeed(1);
      const transform = transforms.Compose([transforms.ToTensor()]);
      const dsTrain = await torchvision.datasets.MNIST({ train: true, transform, limit: 1000 });
      const dsVal = await torchvision.datasets.MNIST({ train: false, transform, limit: 300 });
      const dlTrain = new torch.utils.data.DataLoader(dsTrain, { batchSize: 50, shuffle: true });
      const dlVal = new torch.utils.data.DataLoader(dsVal, { batchSize: 100, shuffle: false });
      const net = new nn.Sequential(
        new nn.Conv2d(1, 8, 3),
        new nn.MaxPool2d(2),
        new nn.Conv2d(8, 16, 3),
        new nn.MaxPool2d(2),
        new nn.Dropout2d(0.1),
        new nn.Flatten(),
        new nn.Linear(16 * 5 * 5, 10),
      );
      const model = new torchkeras.KerasModel(net, {
        lossFn: new nn.CrossEntropyLoss(),
        metricsDict: { acc: new torchmetrics.Accuracy({ task: 'multiclass', numClasses: 10 }) },
        optimizer: new optim.Adam(net.parameters(), { lr: 0.01 }),
      });
      const lines: string[] = [];
      setTrainingOutput((t) => lines.push(t));
      const history = await model.fit({
        trainData: dlTrain,
        valData: dlVal,
        epochs: 2,
        patience: 3,
        monitor: 'val_acc',
        mode: 'max',
        ckptPath: null,
      });
      expect(net.parameters()[0].device).toBe('gpu:0');
      expect(lines[0]).toContain('<<<<<< ⚡️ gpu:0 is used >>>>>>');
      expect(history.length).toBe(2);
      expect(history[1].val_acc).toBeGreaterThan(0.6);
      const evaluated = await model.evaluate(dlVal);
      expect(Object.keys(evaluated)).toEqual(['val_loss', 'val_acc']);
      expect(evaluated.val_acc).toBeCloseTo(Math.max(history[0].val_acc, history[1].val_acc), 5);
      const preds = await model.predict(dlVal);
      expect(preds.shape).toEqual([300, 10]);
      expect(preds.device).toBe('gpu:0');
    },
  );
});
