/**
 * torchkeras.KerasModel in Python: fit's history equals a hand-written loop's numbers from the
 * same weights and data; early stopping by monitor/mode/patience restores the best weights; the
 * live chart gets one point per epoch.
 */
import { describe, expect, it } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { createIoGlobals } from '../../kernel/globals';
import { OutputSink } from '../../kernel/output-sink';
import { startPython } from './testing/pyodide';

await testDevices();
const sink = new OutputSink({ outputs: () => undefined, updateDisplay: () => undefined });
const python = await startPython(createIoGlobals({ current: () => sink }, {}));

const SETUP = `
import copy, torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics import Accuracy
import torchkeras
from torchkeras import KerasModel

torch.manual_seed(4)
x = torch.rand(48, 6) + 0.1
y = (x[:, 0] * 3).long() % 3
xv = torch.rand(16, 6) + 0.1
yv = (xv[:, 0] * 3).long() % 3
dl_train = DataLoader(TensorDataset(x, y), batch_size=16)
dl_val = DataLoader(TensorDataset(xv, yv), batch_size=8)
def make_net():
    torch.manual_seed(9)
    return nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
dev = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')

def by_hand(epochs):
    net = make_net().to(dev)
    opt = torch.optim.Adam(net.parameters(), lr=0.05)
    loss_fn = nn.CrossEntropyLoss()
    rows, weights = [], []
    for epoch in range(epochs):
        net.train()
        losses = []
        for a, b in dl_train:
            loss = loss_fn(net(a.to(dev)), b.to(dev))
            loss.backward()
            opt.step()
            opt.zero_grad()
            losses.append(loss.item())
        net.eval()
        correct, val_losses = 0, []
        with torch.no_grad():
            for a, b in dl_val:
                out = net(a.to(dev))
                val_losses.append(loss_fn(out, b.to(dev)).item())
                correct += (out.argmax(1) == b.to(dev)).sum().item()
        rows.append({'train_loss': sum(losses) / len(losses),
                     'val_loss': sum(val_losses) / len(val_losses), 'val_acc': correct / 16})
        weights.append(net[2].weight.tolist())
    return rows, weights
`;

describe('torchkeras.KerasModel in Python', () => {
  it('fit gives the numbers of the same loop written by hand', async () => {
    const r = (await python.run(`${SETUP}
net = make_net()
model = KerasModel(net, loss_fn=nn.CrossEntropyLoss(),
                   metrics_dict={'acc': Accuracy(task='multiclass', num_classes=3)},
                   optimizer=torch.optim.Adam(net.parameters(), lr=0.05))
history = model.fit(train_data=dl_train, val_data=dl_val, epochs=4, patience=10,
                    monitor='val_loss', mode='min', ckpt_path='keras.pt')
rows, weights = by_hand(4)
best = min(range(4), key=lambda i: rows[i]['val_loss'])
{'history': history.to_dict('records'), 'columns': history.columns, 'rows': rows,
 'restored': net[2].weight.tolist(), 'best_weights': weights[best],
 'version': torchkeras.__version__, 'repr': repr(history).splitlines()[0]}
`)) as {
      history: Record<string, number>[];
      columns: string[];
      rows: Record<string, number>[];
      restored: number[][];
      best_weights: number[][];
      repr: string;
    };
    expect(r.columns).toEqual(['epoch', 'train_loss', 'train_acc', 'lr', 'val_loss', 'val_acc']);
    expect(r.history.map((h) => h.epoch)).toEqual([1, 2, 3, 4]);
    r.history.forEach((h, i) => {
      expect(h.train_loss).toBeCloseTo(r.rows[i].train_loss, 5);
      expect(h.val_loss).toBeCloseTo(r.rows[i].val_loss, 5);
      expect(h.val_acc).toBeCloseTo(r.rows[i].val_acc, 6);
      expect(h.lr).toBe(0.05);
    });
    expect(r.rows[3].train_loss).toBeLessThan(r.rows[0].train_loss);
    r.restored.flat().forEach((v, i) => expect(v).toBeCloseTo(r.best_weights.flat()[i], 5));
    expect(r.repr.trim().split(/\s+/)).toEqual(r.columns);
  });

  it('stops after patience epochs without improvement and restores the best weights', async () => {
    const r = (await python.run(`${SETUP}
net = make_net()
model = KerasModel(net, nn.CrossEntropyLoss(), {}, torch.optim.Adam(net.parameters(), lr=0.05))
# The loss falls every epoch, so with mode='max' epoch 1 stays best and patience=2 stops at 3.
history = model.fit(dl_train, dl_val, epochs=10, patience=2, monitor='val_loss', mode='max',
                    ckpt_path='keras2.pt')
rows, weights = by_hand(3)
{'epochs': history['epoch'], 'losses': history['val_loss'], 'hand': [r['val_loss'] for r in rows],
 'restored': net[2].weight.tolist(), 'first': weights[0]}
`)) as {
      epochs: number[];
      losses: number[];
      hand: number[];
      restored: number[][];
      first: number[][];
    };
    expect(r.hand[2]).toBeLessThan(r.hand[0]);
    expect(r.epochs).toEqual([1, 2, 3]);
    r.losses.forEach((l, i) => expect(l).toBeCloseTo(r.hand[i], 5));
    r.restored.flat().forEach((v, i) => expect(v).toBeCloseTo(r.first.flat()[i], 5));
  });
});
