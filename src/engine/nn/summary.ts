/**
 * torchsummary's model table (as torchkeras prints it): each layer's output shape and parameter
 * count in call order, the totals, and the memory estimates, from one forward pass of a random
 * batch of two under noGrad.
 */
import { noGrad } from '../autograd';
import { random } from '../ops/creation';
import { Tensor } from '../tensor';
import type { Module } from './module';

export interface SummaryRow {
  /** `Conv2d-1`: class name and the order in which the layer finished its forward. */
  layer: string;
  /** With -1 for the batch dimension, as torchsummary prints it. */
  outputShape: number[];
  params: number;
  trainable: boolean;
}

export interface ModelSummary {
  rows: SummaryRow[];
  totalParams: number;
  trainableParams: number;
  nonTrainableParams: number;
  inputSizeMB: number;
  forwardBackwardSizeMB: number;
  paramsSizeMB: number;
  totalSizeMB: number;
}

export interface SummaryOptions {
  /** One sample's shape without the batch dimension, e.g. [1, 28, 28] (or a list of them). */
  inputShape?: readonly number[] | readonly (readonly number[])[];
  /** Inputs to use instead of random ones (e.g. int indices for an Embedding). */
  inputData?: Tensor | Tensor[];
}

const CONTAINERS = new Set(['Sequential', 'ModuleList', 'ModuleDict']);
const MB = 1024 * 1024;

function firstTensor(value: unknown): Tensor | null {
  if (value instanceof Tensor) return value;
  if (Array.isArray(value)) for (const v of value) if (v instanceof Tensor) return v;
  return null;
}

/** Runs the model once and collects the table's data. */
export function summarize(model: Module, options: SummaryOptions): ModelSummary {
  const params = model.parameters();
  const device = params[0]?.deviceObject;
  let inputs: Tensor[];
  let shapes: number[][];
  if (options.inputData !== undefined) {
    inputs = Array.isArray(options.inputData) ? options.inputData : [options.inputData];
    shapes = inputs.map((t) => t.shape.slice(1));
  } else {
    const given = options.inputShape;
    if (!given || given.length === 0)
      throw new TypeError('summary: give inputShape, e.g. { inputShape: [1, 28, 28] }');
    shapes = (Array.isArray(given[0]) ? given : [given]) as number[][];
    const on = device ?? noDevice();
    inputs = shapes.map((shape) => random('uniform', [2, ...shape], 0, 1, { device: on }));
  }
  const rows: SummaryRow[] = [];
  const hooks = model
    .modules()
    .filter((m) => m !== model && !CONTAINERS.has(m.constructor.name))
    .map((m) =>
      m.registerForwardHook((module, _inputs, output) => {
        const out = firstTensor(output);
        const own = module.ownParameters().map(([, p]) => p);
        rows.push({
          layer: `${module.constructor.name}-${rows.length + 1}`,
          outputShape: out ? [-1, ...out.shape.slice(1)] : [],
          params: own.reduce((n, p) => n + p.numel(), 0),
          trainable: own.some((p) => p.requiresGrad),
        });
      }),
    );
  try {
    const output = noGrad(() => model(...inputs));
    if (options.inputData === undefined)
      for (const t of [output, ...inputs]) if (t instanceof Tensor) t.dispose();
  } finally {
    for (const h of hooks) h.remove();
  }
  const totalParams = rows.reduce((n, r) => n + r.params, 0);
  const trainableParams = rows.reduce((n, r) => n + (r.trainable ? r.params : 0), 0);
  const outputs = rows.reduce((n, r) => n + Math.abs(r.outputShape.reduce((a, b) => a * b, 1)), 0);
  const inputSizeMB = Math.abs(shapes.flat().reduce((a, b) => a * b, 1) * 4) / MB;
  const forwardBackwardSizeMB = (2 * outputs * 4) / MB;
  const paramsSizeMB = (totalParams * 4) / MB;
  return {
    rows,
    totalParams,
    trainableParams,
    nonTrainableParams: totalParams - trainableParams,
    inputSizeMB,
    forwardBackwardSizeMB,
    paramsSizeMB,
    totalSizeMB: inputSizeMB + forwardBackwardSizeMB + paramsSizeMB,
  };
}

function noDevice(): never {
  throw new Error('summary: the model has no parameters to tell its device; pass inputData');
}

const thousands = (n: number): string => n.toLocaleString('en-US');
const right = (text: string, width: number): string => text.padStart(width);

/** The table as torchkeras prints it. */
export function formatSummary(s: ModelSummary): string {
  const rule = '-'.repeat(64);
  const lines = [
    rule,
    `${right('Layer (type)', 20)}  ${right('Output Shape', 25)} ${right('Param #', 15)}`,
    '='.repeat(64),
  ];
  for (const r of s.rows) {
    lines.push(
      `${right(r.layer, 20)}  ${right(`[${r.outputShape.join(', ')}]`, 25)} ${right(thousands(r.params), 15)}`,
    );
  }
  lines.push(
    '='.repeat(64),
    `Total params: ${thousands(s.totalParams)}`,
    `Trainable params: ${thousands(s.trainableParams)}`,
    `Non-trainable params: ${thousands(s.nonTrainableParams)}`,
    rule,
    `Input size (MB): ${s.inputSizeMB.toFixed(6)}`,
    `Forward/backward pass size (MB): ${s.forwardBackwardSizeMB.toFixed(6)}`,
    `Params size (MB): ${s.paramsSizeMB.toFixed(6)}`,
    `Estimated Total Size (MB): ${s.totalSizeMB.toFixed(6)}`,
    rule,
  );
  return lines.join('\n');
}
