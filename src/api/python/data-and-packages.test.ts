/**
 * torch.utils.data (a Python Dataset subclass, TensorDataset, DataLoader), torchvision's bundled
 * MNIST and transforms, torchmetrics.Accuracy and tqdm as Python cells use them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAssetReader } from '../../engine/data/datasets';
import { builtDataReader } from '../../engine/data/datasets/built-data.testing';
import { testDevices } from '../../engine/testing/devices';
import { FASHION_MNIST } from '../../engine/data/datasets/mnist';
import { createIoGlobals } from '../../kernel/globals';
import { OutputSink } from '../../kernel/output-sink';
import { PROGRESS_MIME, type CellOutput, type MimeBundle } from '../../kernel/protocol';
import { torchvision } from '../torch/index';
import { startPython } from './testing/pyodide';

await testDevices();
const updates: MimeBundle[] = [];
const outputs: CellOutput[] = [];
const sink = new OutputSink({
  outputs: (o) => outputs.push(...o),
  updateDisplay: (_id, data) => updates.push(data),
});
const python = await startPython(createIoGlobals({ current: () => sink }, {}));

beforeAll(() => setAssetReader(builtDataReader()));
afterAll(() => setAssetReader(null));

describe('torch.utils.data', () => {
  it('a Dataset subclass feeds a DataLoader: batches, collation, shuffle, drop_last', async () => {
    const r = (await python.run(`
import torch
from torch.utils.data import Dataset, DataLoader, TensorDataset, random_split

class Squares(Dataset):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        return torch.tensor([float(i), float(i) ** 0.5]), i * i

ds = Squares(10)
dl = DataLoader(ds, batch_size=4, shuffle=False, num_workers=2)
batches = [(x.tolist(), y.tolist(), str(y.dtype)) for x, y in dl]
torch.manual_seed(5)
order1 = [y.tolist() for _, y in DataLoader(ds, batch_size=3, shuffle=True)]
torch.manual_seed(5)
order2 = [y.tolist() for _, y in DataLoader(ds, batch_size=3, shuffle=True)]
tds = TensorDataset(torch.arange(12).reshape(6, 2).float(), torch.arange(6))
tbatches = [(x.tolist(), y.tolist()) for x, y in DataLoader(tds, batch_size=4, drop_last=True)]
parts = random_split(ds, [7, 3])
{
  'len': len(dl), 'batches': batches, 'order1': order1, 'order2': order2,
  'tlen': len(DataLoader(tds, batch_size=4, drop_last=True)), 'tbatches': tbatches,
  'item': [v.tolist() if hasattr(v, 'tolist') else v for v in tds[2]],
  'split': sorted([p.indices for p in parts][0] + [p.indices for p in parts][1]),
  'split_lens': [len(p) for p in parts],
}
`)) as Record<string, unknown>;
    expect(r.len).toBe(3);
    const batches = r.batches as [number[][], number[], string][];
    expect(batches.map((b) => b[1])).toEqual([
      [0, 1, 4, 9],
      [16, 25, 36, 49],
      [64, 81],
    ]);
    expect(batches[0][2]).toBe('torch.int64');
    batches
      .flatMap((b) => b[0])
      .forEach(([i, root], k) => {
        expect(i).toBe(k);
        expect(root).toBeCloseTo(Math.sqrt(k), 6);
      });
    const order1 = (r.order1 as number[][]).flat();
    expect(order1).toEqual((r.order2 as number[][]).flat());
    expect([...order1].sort((a, b) => a - b)).toEqual([0, 1, 4, 9, 16, 25, 36, 49, 64, 81]);
    expect(order1).not.toEqual([0, 1, 4, 9, 16, 25, 36, 49, 64, 81]);
    expect(r.tlen).toBe(1);
    expect(r.tbatches).toEqual([
      [
        [
          [0, 1],
          [2, 3],
          [4, 5],
          [6, 7],
        ],
        [0, 1, 2, 3],
      ],
    ]);
    expect(r.item).toEqual([[4, 5], 2]);
    expect(r.split).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(r.split_lens).toEqual([7, 3]);
  });
});

describe('torchvision, torchmetrics, tqdm', () => {
  it('MNIST(root, train, download, transform) gives the bundled digits', async () => {
    const r = (await python.run(`
import torch, torchvision
from torchvision import transforms
transform = transforms.Compose([transforms.ToTensor()])
ds_val = torchvision.datasets.MNIST(root="mnist/", train=False, download=True, transform=transform)
img, label = ds_val[3]
dl = torch.utils.data.DataLoader(ds_val, batch_size=128, shuffle=False, num_workers=2)
x, y = next(iter(dl))
{
  'len': len(ds_val), 'shape': list(img.shape), 'label': label, 'label_type': type(label).__name__,
  'sum': img.sum().item(), 'max': img.max().item(), 'batch': [list(x.shape), list(y.shape)],
  'first_labels': y[:5].tolist(), 'batches': len(dl), 'version': torchvision.__version__,
}
`)) as Record<string, unknown>;
    const ts = await torchvision.datasets.MNIST({
      train: false,
      transform: torchvision.transforms.ToTensor(),
    });
    const [img, label] = ts.get(3);
    expect(r.len).toBe(10000);
    expect(r.shape).toEqual([1, 28, 28]);
    expect(r.label).toBe(await label.item());
    expect(r.label_type).toBe('int');
    expect(r.sum).toBeCloseTo(await img.sum().item(), 3);
    expect(r.max).toBeLessThanOrEqual(1);
    expect(r.batch).toEqual([[128, 1, 28, 28], [128]]);
    expect(r.first_labels).toEqual(await ts.targets.slice(0, 0, 5).tolist());
    expect(r.batches).toBe(79);
    expect(typeof r.version).toBe('string');
  });

  it('FashionMNIST(root, train, download, transform): the bundled clothes, a subclass of MNIST', async () => {
    const r = (await python.run(`
import torchvision
from torchvision import datasets, transforms
ds = datasets.FashionMNIST(root="data/", train=False, download=True, transform=transforms.ToTensor())
img, label = ds[0]
{
  'len': len(ds), 'shape': list(img.shape), 'dtype': str(img.dtype), 'label': label,
  'label_type': type(label).__name__, 'classes': ds.classes, 'name': ds.classes[label],
  'is_mnist': isinstance(ds, datasets.MNIST), 'repr': repr(ds).splitlines()[0],
  'targets': [str(ds.targets.dtype), list(ds.targets.shape)],
}
`)) as Record<string, unknown>;
    expect(r).toEqual({
      len: 10000,
      shape: [1, 28, 28],
      dtype: 'torch.float32',
      label: 9,
      label_type: 'int',
      classes: FASHION_MNIST.classes,
      name: 'Ankle boot',
      is_mnist: true,
      repr: 'Dataset FashionMNIST',
      targets: ['torch.int64', [10000]],
    });
  });

  it('CIFAR10 raises a RuntimeError that says gpubook does not bundle it', async () => {
    const r = (await python.run(`
from torchvision.datasets import CIFAR10
try:
    CIFAR10(root="data/", train=True, download=True)
    result = None
except RuntimeError as error:
    result = str(error)
result
`)) as string;
    expect(r).toMatch(
      /^torchvision\.datasets\.CIFAR10: gpubook does not bundle this dataset, and nothing can be downloaded from the notebook.*The bundled datasets are torchvision\.datasets\.MNIST and torchvision\.datasets\.FashionMNIST\.$/,
    );
  });

  it('torchmetrics.Accuracy: callable, compute, reset, deepcopy, to', async () => {
    const r = (await python.run(`
import copy, torch, torchmetrics
from torchmetrics import Accuracy
torch.manual_seed(2)
preds1, preds2 = torch.rand(20, 4), torch.rand(12, 4)
t1 = torch.tensor([i % 4 for i in range(20)])
t2 = torch.tensor([(i * 3) % 4 for i in range(12)])
acc = Accuracy(task='multiclass', num_classes=4)
copied = copy.deepcopy(acc)
batch1 = acc(preds1, t1).item()
acc.update(preds2, t2)
total = acc.compute()
copied.update(preds2, t2)
acc.reset()
acc(preds2, t2)
{
  'p1': preds1.tolist(), 'p2': preds2.tolist(), 't1': t1.tolist(), 't2': t2.tolist(),
  'batch1': batch1, 'total': total.item(), 'total_type': type(total).__name__,
  'after_reset': acc.compute().item(), 'copied': copied.compute().item(),
  'version': torchmetrics.__version__, 'moved': acc.to('cpu') is acc,
}
`)) as Record<string, unknown>;
    const argmax = (row: number[]) => row.indexOf(Math.max(...row));
    const hits = (p: number[][], t: number[]) => p.filter((row, i) => argmax(row) === t[i]).length;
    const p1 = r.p1 as number[][];
    const p2 = r.p2 as number[][];
    const h1 = hits(p1, r.t1 as number[]);
    const h2 = hits(p2, r.t2 as number[]);
    expect(r.batch1).toBeCloseTo(h1 / 20, 6);
    expect(r.total).toBeCloseTo((h1 + h2) / 32, 6);
    expect(r.total_type).toBe('Tensor');
    expect(r.after_reset).toBeCloseTo(h2 / 12, 6);
    expect(r.copied).toBeCloseTo(h2 / 12, 6);
    expect(r.moved).toBe(true);
  });

  it('tqdm drives the cell progress bar, with set_postfix', async () => {
    updates.length = 0;
    outputs.length = 0;
    const r = await python.run(`
import sys
from tqdm import tqdm
loop = tqdm(enumerate(range(5)), total=5, file=sys.stdout)
seen = 0
for i, v in loop:
    seen += v
    loop.set_postfix(loss=0.5 / (i + 1))
seen
`);
    expect(r).toBe(10);
    await sink.close();
    // The bar's last state (its postfix also feeds the cell's automatic loop chart).
    const bundles = [...outputs.flatMap((o) => ('data' in o ? [o.data] : [])), ...updates].filter(
      (b) => PROGRESS_MIME in b,
    );
    const last = bundles[bundles.length - 1] as unknown as Record<string, unknown>;
    expect(String(last['text/plain'])).toContain('5/5');
    expect(String(last['text/plain'])).toContain('loss=0.1');
  });
});
