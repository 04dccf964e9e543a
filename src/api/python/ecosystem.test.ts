/**
 * The ecosystem packages beyond torch: torchmetrics' Precision, Recall, F1Score, MeanAbsoluteError
 * and MeanSquaredError against float64 formulas counted here (torchmetrics itself is not installed
 * on this machine, so it cannot be a peer), on each test device.
 */
import { describe, expect, it } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { rng } from '../../engine/testing/harness';
import { expectNear } from './testing/peer-program';
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
