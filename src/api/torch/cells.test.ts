/**
 * The PyTorch chapters as notebook cells type-check against the generated cell API declarations,
 * with the editor's compiler options: what a reader types line by line is accepted.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCellApiDts } from '../../../scripts/cell-api-dts';
import { checkCells } from '../../notebook/editor/testing/checkCells';

const root = path.resolve(__dirname, '../../..');

const CELLS = [
  // 6-3 〇: moving a model, saving and loading its parameters.
  `const net = new nn.Linear(2, 1);
print(net.parameters()[0].isCuda);
net.to('cuda:0');
print(net.parameters()[0].device);
await torch.save(net.stateDict(), 'model_parameter.pt');
const linear = new nn.Linear(2, 1);
print(linear.loadStateDict(await torch.load('model_parameter.pt')));
torch.cuda.emptyCache();`,
  // 6-3 二: linear regression.
  `const n = 1000000;
const X = torch.rand([n, 2]).mul(10).sub(5.0);
const w0 = torch.tensor([[2.0, -3.0]]);
const b0 = torch.tensor([[10.0]]);
const Y = X.matmul(w0.t()).add(b0).add(torch.normal(0.0, 2.0, { size: [n, 1] }));
class LinearRegression extends nn.Module {
  w = new nn.Parameter(torch.randnLike(w0));
  b = new nn.Parameter(torch.zerosLike(b0));
  forward(x) {
    return x.matmul(this.w.t()).add(this.b);
  }
}
const linear = new LinearRegression();
const device = torch.device(torch.cuda.isAvailable() ? 'cuda:0' : 'cpu');
linear.to(device);
print('if on cuda:', linear.parameters()[0].isCuda);
const optimizer = new torch.optim.Adam(linear.parameters(), { lr: 0.1 });
const lossFn = new nn.MSELoss();
async function train(epoches) {
  for (let epoch = 0; epoch < epoches; epoch++) {
    optimizer.zeroGrad();
    const yPred = linear(X);
    const loss = lossFn(yPred, Y);
    loss.backward();
    optimizer.step();
    if (epoch % 50 == 0) print({ epoch, loss: await loss.item() });
  }
}
await train(500);`,
  // 6-3 三: the MNIST loop by hand, with torchmetrics and early stopping.
  `const transform = torchvision.transforms.Compose([torchvision.transforms.ToTensor()]);
const dsTrain = await torchvision.datasets.MNIST({ root: 'mnist/', train: true, download: true, transform });
const dsVal = await torchvision.datasets.MNIST({ root: 'mnist/', train: false, download: true, transform });
const dlTrain = new torch.utils.data.DataLoader(dsTrain, { batchSize: 128, shuffle: true, numWorkers: 2 });
const dlVal = new torch.utils.data.DataLoader(dsVal, { batchSize: 128, shuffle: false, numWorkers: 2 });
print(dsTrain.length);
function createNet() {
  const net = new nn.Sequential();
  net.addModule('conv1', new nn.Conv2d({ inChannels: 1, outChannels: 32, kernelSize: 3 }));
  net.addModule('pool1', new nn.MaxPool2d({ kernelSize: 2, stride: 2 }));
  net.addModule('dropout', new nn.Dropout2d({ p: 0.1 }));
  net.addModule('adaptive_pool', new nn.AdaptiveMaxPool2d([1, 1]));
  net.addModule('flatten', new nn.Flatten());
  net.addModule('linear1', new nn.Linear(64, 32));
  net.addModule('relu', new nn.ReLU());
  return net;
}
const net = createNet();
print(net);
const lossFn = new nn.CrossEntropyLoss();
const optimizer = new torch.optim.Adam(net.parameters(), { lr: 0.01 });
const metricsDict = { acc: new torchmetrics.Accuracy({ task: 'multiclass', numClasses: 10 }) };
const device = torch.device(torch.cuda.isAvailable() ? 'cuda:0' : 'cpu');
net.to(device);
lossFn.to(device);
for (const [name, fn] of Object.entries(metricsDict)) fn.to(device);
const history = {};
net.train();
let totalLoss = 0;
const trainMetricsDict = Object.fromEntries(Object.entries(metricsDict).map(([k, m]) => [k, m.clone()]));
for await (let [features, labels] of dlTrain) {
  features = features.to(device);
  labels = labels.to(device);
  const preds = net(features);
  const loss = lossFn(preds, labels);
  loss.backward();
  optimizer.step();
  optimizer.zeroGrad();
  const stepAcc = await trainMetricsDict.acc(preds, labels).item();
  totalLoss += await loss.item();
}
const epochAcc = await trainMetricsDict.acc.compute();
net.eval();
await torch.noGrad(async () => {
  for await (const [features, labels] of dlVal) {
    const preds = net(features.to(device));
    metricsDict.acc.update(preds, labels.to(device));
  }
});
metricsDict.acc.reset();
await torch.save(net.stateDict(), 'checkpoint.pt');
net.loadStateDict(await torch.load('checkpoint.pt'));
net.summary({ inputShape: [1, 28, 28] });`,
  // 6-3 四: torchkeras.KerasModel.
  `const net = new nn.Sequential(new nn.Conv2d(1, 8, 3), new nn.Flatten(), new nn.Linear(8 * 26 * 26, 10));
const ds = new torch.utils.data.TensorDataset(torch.rand([8, 1, 28, 28]), torch.zeros([8], { dtype: 'int32' }));
const dl = new torch.utils.data.DataLoader(ds, { batchSize: 4 });
const model = new torchkeras.KerasModel(net, {
  lossFn: new nn.CrossEntropyLoss(),
  metricsDict: { acc: new torchmetrics.Accuracy({ task: 'multiclass', numClasses: 10 }) },
  optimizer: new torch.optim.Adam(net.parameters(), { lr: 0.01 }),
});
const dfhistory = await model.fit({ trainData: dl, valData: dl, epochs: 10, patience: 3, monitor: 'val_acc', mode: 'max' });
display(dfhistory);
print(await model.evaluate(dl));
print((await model.predict(dl)).slice(0, 0, 10));
torchkeras.summary(net, { inputShape: [1, 28, 28] });
const sub = new torch.utils.data.Subset(ds, [0, 1, 2]);
const [img, label] = sub.get(0);
print(await label.item(), img.shape);`,
];

describe('the PyTorch chapters as cells', () => {
  it('type-check against the cell API declarations', () => {
    const dts = generateCellApiDts({ root });
    expect(dts.problems).toEqual([]);
    expect(checkCells([dts.text], CELLS)).toEqual([]);
  });
});
