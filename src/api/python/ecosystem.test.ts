/**
 * The ecosystem packages beyond torch: torchmetrics' Precision, Recall, F1Score, MeanAbsoluteError
 * and MeanSquaredError against float64 formulas counted here (torchmetrics itself is not installed
 * on this machine, so it cannot be a peer), on each test device; torchvision's geometric transforms
 * (Resize against real PyTorch's F.interpolate, values and input gradients, since torchvision is
 * not installed either; flips and crops against the windows they must be).
 */
import { describe, expect, it } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { rng } from '../../engine/testing/harness';
import { expectNear } from './testing/peer-program';
import { realTorchMissing, runRealTorch } from './testing/real-torch';
import { startPython } from './testing/pyodide';

const devices = (await testDevices()).map((d) => (d.kind === 'gpu' ? 'cuda:0' : 'cpu'));
const python = await startPython();

const rand = rng(3636);
const C = 5;
// Two batches of scores over C classes; the last class never wins and never is a label, so
// 'macro' must leave it out.
const batch = (n: number) => {
  const scores = Array.from({ length: n }, () =>
    Array.from({ length: C }, (_, c) => (c === C - 1 ? -10 : rand() * 4 - 2)),
  );
  const labels = Array.from({ length: n }, () => Math.floor(rand() * (C - 1)));
  return { scores, labels };
};
const batches = [batch(12), batch(9)];
const binary = [0, 1].map(() => {
  const logits = Array.from({ length: 10 }, () => rand() * 6 - 3);
  return { logits, labels: logits.map(() => (rand() < 0.5 ? 1 : 0)) };
});
const regression = [0, 1].map(() => {
  const preds = Array.from({ length: 8 }, () => rand() * 4 - 2);
  return { preds, target: preds.map(() => rand() * 4 - 2) };
});

type Counts = { tp: number[]; fp: number[]; fn: number[] };
function counts(preds: number[], labels: number[], classes: number[]): Counts {
  const c: Counts = {
    tp: classes.map(() => 0),
    fp: classes.map(() => 0),
    fn: classes.map(() => 0),
  };
  preds.forEach((p, i) =>
    classes.forEach((k, j) => {
      if (p === k && labels[i] === k) c.tp[j]++;
      else if (p === k) c.fp[j]++;
      else if (labels[i] === k) c.fn[j]++;
    }),
  );
  return c;
}
const argmax = (row: number[]) => row.indexOf(Math.max(...row));
const safe = (a: number, b: number) => (b === 0 ? 0 : a / b);
const SCORES = {
  precision: (tp: number, fp: number, _fn: number) => safe(tp, tp + fp),
  recall: (tp: number, _fp: number, fn: number) => safe(tp, tp + fn),
  f1: (tp: number, fp: number, fn: number) => safe(2 * tp, 2 * tp + fp + fn),
};
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
function multiclass(score: keyof typeof SCORES, average: string, c: Counts): number | number[] {
  const f = SCORES[score];
  if (average === 'micro') return f(sum(c.tp), sum(c.fp), sum(c.fn));
  const per = c.tp.map((tp, k) => f(tp, c.fp[k], c.fn[k]));
  if (average === 'none') return per;
  const w = c.tp.map((tp, k) =>
    average === 'weighted' ? tp + c.fn[k] : tp + c.fp[k] + c.fn[k] > 0 ? 1 : 0,
  );
  return safe(sum(per.map((s, k) => s * w[k])), sum(w));
}

describe('torchmetrics classification and regression metrics', () => {
  it.each(devices)('agree with float64 formulas on %s', async (device) => {
    python.py.globals.set('DEVICE', device);
    python.py.globals.set('DATA', JSON.stringify({ batches, binary, regression }));
    const r = (await python.run(`
import copy, json
import torch
from torchmetrics import Precision, Recall, F1Score, MeanAbsoluteError, MeanSquaredError
from torchmetrics.classification import MulticlassF1Score
data = json.loads(DATA)
out = {"multi": {}, "multi_step": {}, "binary": {}, "binary_step": {}, "regression": {}, "reprs": []}
for name, cls in (("precision", Precision), ("recall", Recall), ("f1", F1Score)):
    for average in ("micro", "macro", "weighted", "none"):
        m = cls(task="multiclass", num_classes=${C}, average=average).to(DEVICE)
        steps = []
        for b in data["batches"]:
            value = m(torch.tensor(b["scores"], device=DEVICE), torch.tensor(b["labels"], device=DEVICE))
            steps.append(value.cpu().tolist())
        out["multi"][f"{name} {average}"] = m.compute().cpu().tolist()
        out["multi_step"][f"{name} {average}"] = steps
        out["reprs"].append(repr(m))
    m = cls(task="binary")
    steps = []
    for b in data["binary"]:
        steps.append(m(torch.tensor(b["logits"], device=DEVICE), torch.tensor(b["labels"], device=DEVICE)).item())
    out["binary"][name] = m.compute().item()
    out["binary_step"][name] = steps
    out["reprs"].append(repr(m))
# Labels as preds, update/compute/reset, deepcopy keeping its own state.
f1 = MulticlassF1Score(num_classes=${C}, average="macro")
b0, b1 = data["batches"]
labels0 = torch.tensor(b0["scores"]).argmax(1)
f1.update(labels0, torch.tensor(b0["labels"]))
twin = copy.deepcopy(f1)
twin.update(torch.tensor(b1["scores"]), torch.tensor(b1["labels"]))
out["labels_as_preds"] = f1.compute().item()
out["twin"] = twin.compute().item()
f1.reset()
try:
    f1.compute()
except RuntimeError as e:
    out["after_reset"] = str(e)
for name, cls in (("mae", MeanAbsoluteError), ("mse", MeanSquaredError), ("rmse", lambda: MeanSquaredError(squared=False))):
    m = cls()
    steps = [m(torch.tensor(b["preds"], device=DEVICE), torch.tensor(b["target"], device=DEVICE)).item() for b in data["regression"]]
    out["regression"][name] = [steps, m.compute().item()]
try:
    Precision(task="multiclass", num_classes=${C})(torch.rand(3, 4), torch.tensor([0, 1, 2]))
except ValueError as e:
    out["bad_shape"] = str(e)
out
`)) as Record<string, Record<string, unknown>> & { reprs: string[] };
    const all = batches.flatMap((b) => b.scores.map(argmax));
    const allLabels = batches.flatMap((b) => b.labels);
    const classes = Array.from({ length: C }, (_, k) => k);
    const asList = (v: number | number[]) => (Array.isArray(v) ? v : [v]);
    for (const score of ['precision', 'recall', 'f1'] as const) {
      for (const average of ['micro', 'macro', 'weighted', 'none']) {
        const key = `${score} ${average}`;
        const want = multiclass(score, average, counts(all, allLabels, classes));
        expectNear(asList(r.multi[key] as number | number[]), asList(want), 1e-6, key);
        const steps = r.multi_step[key] as (number | number[])[];
        batches.forEach((b, i) => {
          const step = multiclass(score, average, counts(b.scores.map(argmax), b.labels, classes));
          expectNear(asList(steps[i]), asList(step), 1e-6, `${key} batch ${i}`);
        });
      }
      const bin = (bs: typeof binary) =>
        counts(
          bs.flatMap((b) => b.logits.map((l) => (1 / (1 + Math.exp(-l)) > 0.5 ? 1 : 0))),
          bs.flatMap((b) => b.labels),
          [1],
        );
      const f = (c: Counts) => SCORES[score](c.tp[0], c.fp[0], c.fn[0]);
      expect(r.binary[score]).toBeCloseTo(f(bin(binary)), 6);
      (r.binary_step[score] as number[]).forEach((v, i) =>
        expect(v).toBeCloseTo(f(bin([binary[i]])), 6),
      );
    }
    expect(r.reprs).toEqual(
      ['Precision', 'Recall', 'F1Score'].flatMap((n) => [
        ...Array<string>(4).fill(`Multiclass${n}()`),
        `Binary${n}()`,
      ]),
    );
    const macroF1 = (preds: number[], labels: number[]) =>
      multiclass('f1', 'macro', counts(preds, labels, classes)) as number;
    expect(r.labels_as_preds).toBeCloseTo(
      macroF1(batches[0].scores.map(argmax), batches[0].labels),
      6,
    );
    expect(r.twin).toBeCloseTo(macroF1(all, allLabels), 6);
    expect(r.after_reset).toMatch(/compute\(\) was called before update\(\)/);
    expect(r.bad_shape).toMatch(/num_classes=5 scores in dim 1/);
    const errors = (bs: typeof regression) =>
      bs.flatMap((b) => b.preds.map((p, i) => Math.fround(p) - Math.fround(b.target[i])));
    const mean = (xs: number[]) => sum(xs) / xs.length;
    const want = {
      mae: (e: number[]) => mean(e.map(Math.abs)),
      mse: (e: number[]) => mean(e.map((v) => v * v)),
      rmse: (e: number[]) => Math.sqrt(mean(e.map((v) => v * v))),
    };
    for (const [name, f] of Object.entries(want)) {
      const [steps, total] = r.regression[name] as [number[], number];
      expectNear(
        steps,
        regression.map((b) => f(errors([b]))),
        1e-6,
        `${name} steps`,
      );
      expectNear([total], [f(errors(regression))], 1e-6, name);
    }
  });
});

const image = Array.from({ length: 2 }, () =>
  Array.from({ length: 5 }, () => Array.from({ length: 6 }, () => rand() * 2 - 1)),
);
const upstream = (h: number, w: number) =>
  Array.from({ length: 2 }, () =>
    Array.from({ length: h }, () => Array.from({ length: w }, () => rand() * 2 - 1)),
  );
// [name, Python transform, output size, real PyTorch's interpolate arguments]
const RESIZES: [string, string, [number, number], string][] = [
  ['shrink', 'Resize((3, 4))', [3, 4], "mode='bilinear', align_corners=False, antialias=True"],
  [
    'shrink, no antialias',
    'Resize([3, 4], antialias=False)',
    [3, 4],
    "mode='bilinear', align_corners=False",
  ],
  ['grow, short edge', 'Resize(8)', [8, 9], "mode='bilinear', align_corners=False, antialias=True"],
  [
    'grow, no antialias',
    'Resize(8, antialias=False)',
    [8, 9],
    "mode='bilinear', align_corners=False",
  ],
  ['nearest', "Resize((4, 3), interpolation='nearest')", [4, 3], "mode='nearest'"],
];
const weights = Object.fromEntries(RESIZES.map(([name, , [h, w]]) => [name, upstream(h, w)]));

const missing = realTorchMissing();
(missing === null ? describe : describe.skip)(
  'torchvision.transforms.Resize against real PyTorch',
  () => {
    const real = runRealTorch(
      `
import torch.nn.functional as F
out = {}
for name, size, args, w in INPUT["cases"]:
    x = torch.tensor(INPUT["image"], requires_grad=True)
    y = eval(f"F.interpolate(x[None], size={tuple(size)}, {args})")[0]
    (y * torch.tensor(w)).sum().backward()
    out[name] = {"y": y.detach().reshape(-1).tolist(), "grad": x.grad.reshape(-1).tolist()}
print(json.dumps(out))
`,
      { image, cases: RESIZES.map(([name, , size, args]) => [name, size, args, weights[name]]) },
    ) as Record<string, { y: number[]; grad: number[] }>;
    it.each(devices)('values and input gradients agree on %s', async (device) => {
      python.py.globals.set('DEVICE', device);
      python.py.globals.set(
        'DATA',
        JSON.stringify({ image, cases: RESIZES.map(([name, t]) => [name, t, weights[name]]) }),
      );
      const ours = (await python.run(`
import json
import torch
from torchvision import transforms
from torchvision.transforms import InterpolationMode, Resize
data = json.loads(DATA)
out = {}
for name, t, w in data["cases"]:
    x = torch.tensor(data["image"], device=DEVICE, requires_grad=True)
    y = eval(t)(x)
    (y * torch.tensor(w, device=DEVICE)).sum().backward()
    out[name] = {"y": y.detach().cpu().reshape(-1).tolist(), "grad": x.grad.cpu().reshape(-1).tolist(), "repr": repr(eval(t))}
out
`)) as Record<string, { y: number[]; grad: number[]; repr: string }>;
      for (const [name] of RESIZES) {
        expectNear(ours[name].y, real[name].y, 1e-5, `${name} values`);
        expectNear(ours[name].grad, real[name].grad, 1e-5, `${name} gradient`);
      }
      expect(ours.shrink.repr).toBe(
        'Resize(size=(3, 4), interpolation=bilinear, max_size=None, antialias=True)',
      );
    });
  },
);

describe('torchvision.transforms flips and crops', () => {
  it.each(devices)(
    'flip, crop and pad as torchvision does, seeded by torch.manual_seed, on %s',
    async (device) => {
      python.py.globals.set('DEVICE', device);
      python.py.globals.set('DATA', JSON.stringify({ image }));
      const r = (await python.run(`
import json
import torch
from torchvision import transforms as T
import torchvision.transforms.functional as TF
x = torch.tensor(json.loads(DATA)["image"], device=DEVICE)
def flips(seed):
    torch.manual_seed(seed)
    flip = T.RandomHorizontalFlip()
    return [bool(torch.equal(flip(x), x.flip(-1))) for _ in range(40)]
def crops(seed):
    torch.manual_seed(seed)
    crop = T.RandomCrop(4, padding=1)
    return [crop(x).cpu().tolist() for _ in range(12)]
pipeline = T.Compose([T.RandomHorizontalFlip(p=1.0), T.RandomVerticalFlip(p=1.0), T.CenterCrop((3, 4))])
{
    "always": [T.RandomHorizontalFlip(p=1.0)(x).cpu().tolist(), T.RandomVerticalFlip(p=1.0)(x).cpu().tolist()],
    "never": T.RandomVerticalFlip(p=0.0)(x).cpu().tolist(),
    "flips": flips(3), "flips_again": flips(3), "crops": crops(4), "crops_again": crops(4),
    "center": T.CenterCrop((3, 4))(x).cpu().tolist(), "center_pad": T.CenterCrop(7)(x).cpu().tolist(),
    "pipeline": pipeline(x).cpu().tolist(),
    "functional": [TF.hflip(x).cpu().tolist(), TF.vflip(x).cpu().tolist(), TF.crop(x, 1, 2, 3, 2).cpu().tolist(),
                   TF.center_crop(x, [3, 4]).cpu().tolist(), TF.pad(x, [1, 0]).cpu().tolist(),
                   torch.equal(TF.resize(x, [3, 4]), T.Resize((3, 4))(x)),
                   torch.equal(TF.rotate(x, 30.0), T.RandomRotation((30, 30))(x))],
    "reprs": [repr(T.RandomHorizontalFlip()), repr(T.RandomVerticalFlip(0.3)), repr(T.RandomCrop(32, padding=4)),
              repr(T.CenterCrop(24))],
}
`)) as Record<string, unknown>;
      const f32 = image.map((c) => c.map((row) => row.map(Math.fround)));
      const hflip = (img: number[][][]) => img.map((c) => c.map((row) => [...row].reverse()));
      const vflip = (img: number[][][]) => img.map((c) => [...c].reverse());
      const window = (img: number[][][], top: number, left: number, h: number, w: number) =>
        img.map((c) => c.slice(top, top + h).map((row) => row.slice(left, left + w)));
      const pad = (img: number[][][], l: number, t: number, r: number, b: number) =>
        img.map((c) => {
          const width = c[0].length + l + r;
          const zeros = () => new Array<number>(width).fill(0);
          return [
            ...Array.from({ length: t }, zeros),
            ...c.map((row) => [
              ...new Array<number>(l).fill(0),
              ...row,
              ...new Array<number>(r).fill(0),
            ]),
            ...Array.from({ length: b }, zeros),
          ];
        });
      expect(r.always).toEqual([hflip(f32), vflip(f32)]);
      expect(r.never).toEqual(f32);
      const flips = r.flips as boolean[];
      expect(r.flips_again).toEqual(flips);
      const heads = flips.filter(Boolean).length;
      expect(heads).toBeGreaterThan(8);
      expect(heads).toBeLessThan(32);
      // Each crop is one of the 4 × 5 windows of the zero-padded image, and they vary.
      const padded = pad(f32, 1, 1, 1, 1);
      const windows = [0, 1, 2, 3].flatMap((i) =>
        [0, 1, 2, 3, 4].map((j) => window(padded, i, j, 4, 4)),
      );
      const crops = r.crops as number[][][][];
      expect(r.crops_again).toEqual(crops);
      const found = crops.map((c) =>
        windows.findIndex((w) => JSON.stringify(w) === JSON.stringify(c)),
      );
      expect(found.every((i) => i >= 0)).toBe(true);
      expect(new Set(found).size).toBeGreaterThan(3);
      expect(r.center).toEqual(window(f32, 1, 1, 3, 4));
      // 7 × 7 from 5 × 6: torchvision pads (left 0, top 1, right 1, bottom 1), then crops at 0, 0.
      expect(r.center_pad).toEqual(pad(f32, 0, 1, 1, 1));
      expect(r.pipeline).toEqual(window(vflip(hflip(f32)), 1, 1, 3, 4));
      expect(r.functional).toEqual([
        hflip(f32),
        vflip(f32),
        window(f32, 1, 2, 3, 2),
        window(f32, 1, 1, 3, 4),
        pad(f32, 1, 0, 1, 0),
        true,
        true,
      ]);
      expect(r.reprs).toEqual([
        'RandomHorizontalFlip(p=0.5)',
        'RandomVerticalFlip(p=0.3)',
        'RandomCrop(size=(32, 32), padding=4)',
        'CenterCrop(size=(24, 24))',
      ]);
    },
  );
});

const ROTATIONS: [string, string, number, string, number, number[] | null][] = [
  // [name, transform, angle, mode, fill, center]
  ['nearest 30', 'RandomRotation((30, 30))', 30, 'nearest', 0, null],
  [
    'bilinear -50, fill',
    "RandomRotation([-50, -50], interpolation='bilinear', fill=0.5)",
    -50,
    'bilinear',
    0.5,
    null,
  ],
  [
    'nearest 125, center',
    'RandomRotation((125, 125), center=[1, 2], fill=2)',
    125,
    'nearest',
    2,
    [1, 2],
  ],
];

(missing === null ? describe : describe.skip)(
  'torchvision.transforms.RandomRotation against real PyTorch',
  () => {
    // torchvision's tensor rotate (its inverse affine matrix, affine grid and grid_sample with a fill
    // mask), written here over real PyTorch: torchvision itself is not installed.
    const real = runRealTorch(
      `
import math
import torch.nn.functional as F
def rotate(img, angle, mode, fill, center):
    h, w = img.shape[-2:]
    c = [0.0, 0.0] if center is None else [cc - s * 0.5 for cc, s in zip(center, [w, h])]
    rot = math.radians(-angle)
    a, b, cc, d = math.cos(rot), -math.sin(rot), math.sin(rot), math.cos(rot)
    m = [d, -b, 0.0, -cc, a, 0.0]
    m[2] += m[0] * -c[0] + m[1] * -c[1] + c[0]
    m[5] += m[3] * -c[0] + m[4] * -c[1] + c[1]
    theta = torch.tensor(m, dtype=torch.float32).reshape(1, 2, 3)
    base = torch.empty(1, h, w, 3)
    base[..., 0].copy_(torch.linspace(-w * 0.5 + 0.5, w * 0.5 + 0.5 - 1, steps=w))
    base[..., 1].copy_(torch.linspace(-h * 0.5 + 0.5, h * 0.5 + 0.5 - 1, steps=h).unsqueeze_(-1))
    base[..., 2].fill_(1)
    grid = base.view(1, h * w, 3).bmm(theta.transpose(1, 2) / torch.tensor([0.5 * w, 0.5 * h])).view(1, h, w, 2)
    x = torch.cat([img[None], torch.ones(1, 1, h, w)], 1)
    y = F.grid_sample(x, grid, mode=mode, padding_mode="zeros", align_corners=False)[0]
    mask, y = y[-1:].expand_as(y[:-1]), y[:-1]
    if mode == "nearest":
        return torch.where(mask < 0.5, torch.full_like(y, fill), y)
    return y * mask + (1.0 - mask) * fill
print(json.dumps({name: rotate(torch.tensor(INPUT["image"]), angle, mode, fill, center).reshape(-1).tolist()
                  for name, angle, mode, fill, center in INPUT["cases"]}))
`,
      {
        image,
        cases: ROTATIONS.map(([name, , angle, mode, fill, center]) => [
          name,
          angle,
          mode,
          fill,
          center,
        ]),
      },
    ) as Record<string, number[]>;
    it.each(devices)('rotated images agree on %s', async (device) => {
      python.py.globals.set('DEVICE', device);
      python.py.globals.set(
        'DATA',
        JSON.stringify({ image, cases: ROTATIONS.map(([name, t]) => [name, t]) }),
      );
      const ours = (await python.run(`
import json
import torch
from torchvision.transforms import RandomRotation
data = json.loads(DATA)
x = torch.tensor(data["image"], device=DEVICE)
out = {name: eval(t)(x).cpu().reshape(-1).tolist() for name, t in data["cases"]}
out["repr"] = repr(RandomRotation(30, fill=1))
out
`)) as Record<string, number[]> & { repr: string };
      for (const [name] of ROTATIONS) expectNear(ours[name], real[name], 1e-5, name);
      expect(ours.repr).toBe(
        'RandomRotation(degrees=[-30.0, 30.0], interpolation=nearest, expand=False, fill=1)',
      );
    });
  },
);

describe('torchkeras.metrics', () => {
  it('Accuracy counts sigmoid(logits) > 0.5 against the targets, alone and in KerasModel.fit', async () => {
    const logits = [0, 1].map(() => Array.from({ length: 10 }, () => [rand() * 6 - 3]));
    const targets = logits.map((b) => b.map(() => [rand() < 0.5 ? 1 : 0]));
    python.py.globals.set('DATA', JSON.stringify({ logits, targets }));
    const r = (await python.run(`
import copy, json
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
import torchkeras
from torchkeras import KerasModel
from torchkeras.metrics import Accuracy
data = json.loads(DATA)
acc = Accuracy()
steps = [acc(torch.tensor(p), torch.tensor(t, dtype=torch.float32)).item() for p, t in zip(data["logits"], data["targets"])]
total = acc.compute().item()
acc.reset()

torch.manual_seed(2)
x = torch.rand(32, 3) - 0.5
y = (x.sum(1, keepdim=True) > 0).float()
torch.manual_seed(3)
net = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
model = KerasModel(net, loss_fn=nn.BCEWithLogitsLoss(), metrics_dict={"acc": Accuracy()},
                   optimizer=torch.optim.SGD(net.parameters(), lr=0.5))
history = model.fit(DataLoader(TensorDataset(x, y), batch_size=8), DataLoader(TensorDataset(x, y), batch_size=16),
                    epochs=2, patience=5, monitor="val_acc", mode="max", ckpt_path="acc.pt", quiet=True, plot=False)
best = max(history.to_dict("records"), key=lambda row: row["val_acc"])
with torch.no_grad():
    restored = ((net(x.to(model._device())).sigmoid() > 0.5).float().cpu() == y).float().mean().item()
{"steps": steps, "total": total, "best_val_acc": best["val_acc"], "restored": restored}
`)) as { steps: number[]; total: number; best_val_acc: number; restored: number };
    const right = (i: number) =>
      logits[i].filter((l, k) => (1 / (1 + Math.exp(-l[0])) > 0.5 ? 1 : 0) === targets[i][k][0])
        .length;
    expect(r.steps).toEqual([right(0) / 10, right(1) / 10].map(Math.fround));
    expect(r.total).toBeCloseTo((right(0) + right(1)) / 20, 6);
    // fit kept the best epoch's weights by val_acc and restored them from ckpt_path.
    expect(r.restored).toBeCloseTo(r.best_val_acc, 6);
  });
});
