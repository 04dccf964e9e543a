/**
 * Issue 36's sequence-model training steps, written as a TypeScript cell writes them through the
 * `torch` face (src/api/torch): a 2-layer LSTM classifier with Adam and a 2-layer
 * nn.TransformerEncoder classifier with AdamW. Each step is forward, cross-entropy, backward, the
 * optimizer's step and the loss read back. ./python_steps.py has the same steps in Python and
 * ./tfjs-sequence.ts the LSTM in TF.js.
 */
import { torch } from '../../../src/api/torch';
import type { Tensor } from '../../../src/engine';

/** Sizes shared with the Python and TF.js programs. */
export const LSTM_STEP = { features: 64, hidden: 128, layers: 2, length: 32, classes: 10 } as const;
export const TRANSFORMER_STEP = {
  dModel: 128,
  heads: 4,
  feedForward: 256,
  layers: 2,
  length: 64,
  classes: 10,
} as const;

type Step = () => Promise<number>;

/** Labels in [0, classes) on `device`. */
function labelsOf(batch: number, classes: number, device: string): Tensor {
  return torch
    .rand([batch], { device })
    .mul(classes - 0.01)
    .int();
}

/** LSTM over [batch, length, features], a linear head on the last time step's output, Adam. */
export function lstmStep(device: string, batch: number): Step {
  const { features, hidden, layers, length, classes } = LSTM_STEP;
  torch.manualSeed(0);
  const lstm = new torch.nn.LSTM(features, hidden, { numLayers: layers, batchFirst: true });
  const head = new torch.nn.Linear(hidden, classes);
  lstm.to(device);
  head.to(device);
  const params = [...lstm.parameters(), ...head.parameters()];
  const optimizer = new torch.optim.Adam(params, { lr: 1e-3 });
  const lossFn = new torch.nn.CrossEntropyLoss();
  const x = torch.randn([batch, length, features], { device });
  const y = labelsOf(batch, classes, device);
  return async () => {
    optimizer.zeroGrad();
    // forward(): its [output, [h, c]] tuple typed (a module's call is typed as one tensor).
    const [out] = lstm.forward(x);
    const last = out.select(1, length - 1);
    const loss = lossFn(head(last), y);
    loss.backward();
    optimizer.step();
    return loss.item();
  };
}

/** TransformerEncoder over [batch, length, dModel] (batch first), mean over time, a linear head, AdamW. */
export function transformerStep(device: string, batch: number): Step {
  const { dModel, heads, feedForward, layers, length, classes } = TRANSFORMER_STEP;
  torch.manualSeed(0);
  const layer = new torch.nn.TransformerEncoderLayer(dModel, heads, {
    dimFeedforward: feedForward,
    batchFirst: true,
  });
  const encoder = new torch.nn.TransformerEncoder(layer, layers);
  const head = new torch.nn.Linear(dModel, classes);
  encoder.to(device);
  head.to(device);
  encoder.train();
  const params = [...encoder.parameters(), ...head.parameters()];
  const optimizer = new torch.optim.AdamW(params, { lr: 1e-3 });
  const lossFn = new torch.nn.CrossEntropyLoss();
  const x = torch.randn([batch, length, dModel], { device });
  const y = labelsOf(batch, classes, device);
  return async () => {
    optimizer.zeroGrad();
    const pooled = encoder(x).mean(1);
    const loss = lossFn(head(pooled), y);
    loss.backward();
    optimizer.step();
    return loss.item();
  };
}
