/**
 * Keras's Model API on top of a Layer: `compile({ optimizer, loss, metrics })`, `await fit(...)`
 * returning a History, `await evaluate(...)` and `await predict(...)`. Training runs in the
 * engine's shared fit loop (so progress and chart observers see every step); the Keras part is
 * the step itself — forward, loss as lossFn(yTrue, yPred), gradients from a GradientTape,
 * `optimizer.applyGradients` — and Keras's names and printing.
 */
import { noGrad, ops, ShapeError, Tensor } from '../../../../engine';
import {
  evaluateLoop,
  fitLoop,
  kerasTextObserver,
  writeOutput,
  type LoopMetric,
  type StepResult,
  type TrainingObserver,
  type TrainingTask,
} from '../../../../engine/training';
import {
  asInt,
  asNumber,
  bindArgs,
  boolArg,
  describe,
  isOptionsObject,
  optional,
  type BoundArgs,
} from '../../../args';
import { currentStrategy } from '../../../distribute/scope';
import { GradientTapeImpl } from '../../gradient-tape';
import { Callback, EarlyStopping, History } from '../callbacks';
import { Layer, toTensor, type CallOptions, type ShapeSpec } from '../layers/layer';
import { getLoss, type CompiledLoss } from '../losses';
import { getMetric, type Metric } from '../metrics';
import { getOptimizer, type KerasOptimizer } from '../optimizers';
import { splitTail, toBatches } from './data-adapter';
import { summaryLines, type SummaryOptions } from './summary';
import { compileOutputLosses, outputLabels, totalLoss, type OutputLosses } from './output-losses';
import { loadWeights, saveWeights } from './weights-file';

interface Compiled {
  optimizer: KerasOptimizer;
  loss: CompiledLoss;
  metrics: Metric[];
  /** For a model with several outputs: each output's loss and weight (output-losses.ts). */
  outputs: OutputLosses | null;
}

const FIT_PARAMS = [
  'x',
  'y',
  'batchSize',
  'epochs',
  'verbose',
  'callbacks',
  'validationSplit',
  'validationData',
  'shuffle',
  'classWeight',
  'sampleWeight',
  'initialEpoch',
  'stepsPerEpoch',
  'validationSteps',
  'validationBatchSize',
  'validationFreq',
  'maxQueueSize',
  'workers',
  'useMultiprocessing',
];

/** Features of a batch: one tensor, or a list (or dict by input name) for several inputs. */
type Features = Tensor | Tensor[] | Record<string, Tensor>;

const allTensors = (list: unknown[]): boolean =>
  list.length > 0 && list.every((t) => t instanceof Tensor);

const isFeatures = (v: unknown): v is Features =>
  v instanceof Tensor ||
  (Array.isArray(v) && allTensors(v)) ||
  (v !== null &&
    typeof v === 'object' &&
    Object.getPrototypeOf(v) === Object.prototype &&
    allTensors(Object.values(v)));

/** `[x, y]` (or `[x, y, sampleWeight]`) of a batch; x a list for a multi-input model, y a list or dict for a multi-output one. */
function splitBatch(batch: unknown, what: string): [Features, unknown, Tensor | null] {
  if (
    Array.isArray(batch) &&
    batch.length >= 2 &&
    isFeatures(batch[0]) &&
    batch[1] !== undefined &&
    batch[1] !== null
  ) {
    const w = batch[2];
    return [batch[0], batch[1], w instanceof Tensor ? w : null];
  }
  throw new TypeError(`${what}: each batch must be [features, labels], got ${describe(batch)}`);
}

function verbosity(value: unknown): number {
  if (value === undefined || value === null || value === 'auto') return 1;
  return asInt(value, 'verbose');
}

/** A Keras metric as the training core's loop metric (labels first in Keras, preds first there). */
function loopMetric(metric: Metric): LoopMetric {
  const m = metric.fresh();
  return {
    update: (preds, labels) => m.updateState(labels, preds),
    resultTensor: () => m.valueTensor(),
    reset: () => m.resetStates(),
    clone: () => loopMetric(m),
  };
}

/**
 * `tf.keras.Model`: subclass it (`class Net extends tf.keras.Model { constructor() { super();
 * this.dense = new Dense(4); } call(x, training) { … } }`); sublayers are found in the fields in
 * the order they were assigned. Sequential is a Model whose layers are its stack.
 */
export class Model extends Layer {
  /** The class name shown in summaries; a user's subclass is shown under its own name. */
  static readonly kerasClassName: string = 'Model';

  optimizer: KerasOptimizer | null = null;
  /** The tf.distribute strategy whose scope made this model; its fit runs on every replica. */
  readonly distributeStrategy = currentStrategy();
  /** The History of the last fit. */
  history: History | null = null;
  /** A callback sets it to end fit after the current epoch (Keras's `model.stop_training`). */
  stopTraining = false;
  private compiled: Compiled | null = null;

  constructor(...args: unknown[]) {
    const a = bindArgs(
      { name: 'Model', params: ['inputs', 'outputs', 'name'], keywordOnly: ['trainable'] },
      args,
    );
    // Keras's Model.__new__: `Model(inputs, outputs)` is a functional model (functional.ts).
    const functional =
      a.inputs !== undefined || a.outputs !== undefined ? makeFunctional(new.target, a) : null;
    const cls = new.target as unknown as { kerasClassName: string; name: string };
    // Own static name for the library's models (class names may be minified); else the subclass's.
    const className = Object.prototype.hasOwnProperty.call(cls, 'kerasClassName')
      ? cls.kerasClassName
      : cls.name || 'Model';
    // The functional model's own name keeps this discarded shell from taking a counter.
    super(className, { name: functional ? functional.name : a.name, trainable: a.trainable });
    if (functional) return functional;
  }

  /** Models build themselves on their first call (Sequential overrides this). */
  override buildSymbolic(_inputShape: ShapeSpec): void {}

  /** The model's forward pass; subclasses define it (Keras's `call(inputs, training)`). */
  protected call(_x: Tensor, _training: boolean): Tensor {
    throw new Error(
      `${this.className}: define call(inputs, training) in your subclass of tf.keras.Model`,
    );
  }

  /** Output shapes of subclassed models are only known per call (Keras prints "multiple"). */
  computeOutputShape(_inputShape: ShapeSpec): ShapeSpec {
    throw new Error(
      `${this.className}: the output shape of a subclassed model is only known by calling it`,
    );
  }

  protected override invoke(inputs: unknown, options?: CallOptions): Tensor {
    const training = isOptionsObject(options) && options.training === true;
    let x = toTensor(inputs);
    const weight = this.weights[0];
    if (weight && x.deviceObject !== weight.deviceObject) x = x.to(weight.deviceObject);
    const y = this.call(x, training);
    this.built = true;
    return y;
  }

  /** The sublayers: for a subclassed model, the Layer fields (and lists of layers) in assignment order. */
  get layers(): Layer[] {
    const found: Layer[] = [];
    for (const value of Object.values(this as object)) {
      if (value instanceof Layer) found.push(value);
      else if (Array.isArray(value)) for (const v of value) if (v instanceof Layer) found.push(v);
    }
    return found;
  }

  override get weights(): Tensor[] {
    return this.layers.flatMap((l) => l.weights);
  }

  override get trainableWeights(): Tensor[] {
    return this.trainable ? this.layers.flatMap((l) => l.trainableWeights) : [];
  }

  override get nonTrainableWeights(): Tensor[] {
    return this.trainable ? this.layers.flatMap((l) => l.nonTrainableWeights) : this.weights;
  }

  override get namedWeights(): Layer['namedWeights'] {
    return this.layers.flatMap((l) => l.namedWeights);
  }

  override countParams(): number {
    if (!this.built) throw notBuilt();
    return this.layers.reduce((n, l) => n + l.countParams(), 0);
  }

  /** Prints Keras's table: layer (type), output shape, param #, and the totals. */
  summary(options: SummaryOptions = {}): void {
    if (!this.built) throw notBuilt();
    const print = options.printFn ?? writeOutput;
    for (const line of summaryLines(this.name, this.layers, options)) print(line);
  }

  /** The summary as text (for display or tests). */
  summaryText(options: Omit<SummaryOptions, 'printFn'> = {}): string {
    if (!this.built) throw notBuilt();
    return summaryLines(this.name, this.layers, options).join('\n');
  }

  /** `await model.saveWeights('w.h5')`: the weights, in order, into the kernel's file store. */
  async saveWeights(...args: unknown[]): Promise<void> {
    const a = bindArgs(
      { name: 'Model.saveWeights', params: ['filepath', 'overwrite', 'saveFormat', 'options'] },
      args,
    );
    await saveWeights(this, a.filepath as string, boolArg(a.overwrite, 'overwrite', true));
  }

  /** `await model.loadWeights('w.h5')`: a saveWeights file, loaded position by position. */
  async loadWeights(...args: unknown[]): Promise<void> {
    const a = bindArgs(
      { name: 'Model.loadWeights', params: ['filepath', 'skipMismatch', 'byName', 'options'] },
      args,
    );
    await loadWeights(this, a.filepath as string);
  }

  /** Finds a layer by name or index, as `model.get_layer`. */
  getLayer(...args: unknown[]): Layer {
    // Keras's get_layer(name=None, index=None), or one positional name or index.
    const a = bindArgs({ name: 'Model.getLayer', params: ['name', 'index'] }, args);
    const nameOrIndex = (a.index ?? a.name) as string | number;
    const layers = this.layers;
    const layer =
      typeof nameOrIndex === 'number'
        ? layers[nameOrIndex]
        : layers.find((l) => l.name === nameOrIndex);
    if (!layer) {
      throw new Error(
        `No such layer: ${nameOrIndex}. Existing layers are: ${layers.map((l) => l.name).join(', ')}.`,
      );
    }
    return layer;
  }

  /** compile({ optimizer, loss, metrics }): names as Keras accepts them ('adam', 'accuracy', …) or objects. */
  compile(...args: unknown[]): void {
    const a = bindArgs(
      {
        name: 'Model.compile',
        params: [
          'optimizer',
          'loss',
          'metrics',
          'lossWeights',
          'weightedMetrics',
          'runEagerly',
          'stepsPerExecution',
          'jitCompile',
        ],
      },
      args,
    );
    if (a.loss === undefined || a.loss === null)
      throw new TypeError('compile: a loss is required, e.g. "sparse_categorical_crossentropy"');
    if (a.weightedMetrics !== undefined && a.weightedMetrics !== null)
      throw new TypeError('compile: weightedMetrics is not supported');
    const names = this.outputNames;
    const outputs = names.length > 1 ? compileOutputLosses(a.loss, a.lossWeights, names) : null;
    if (!outputs && a.lossWeights !== undefined && a.lossWeights !== null)
      throw new TypeError('compile: lossWeights is for a model with several outputs');
    const single = Array.isArray(a.loss) && a.loss.length === 1 ? a.loss[0] : a.loss;
    // With several outputs the first output's loss stands for the compiled one (its name, sparse).
    const loss = outputs
      ? (outputs.terms.find((t) => t)?.loss ?? getLoss(single))
      : getLoss(single);
    const list =
      a.metrics === undefined || a.metrics === null
        ? []
        : Array.isArray(a.metrics)
          ? a.metrics
          : [a.metrics];
    if (outputs && list.length > 0)
      throw new TypeError(
        'compile: metrics for a model with several outputs are not supported here (the losses are)',
      );
    // Keras's default optimizer is rmsprop.
    this.optimizer = getOptimizer(a.optimizer ?? 'rmsprop');
    this.compiled = {
      optimizer: this.optimizer,
      loss,
      metrics: list.map((m) => getMetric(m, loss.sparse)),
      outputs,
    };
  }

  private requireCompiled(what: string): Compiled {
    if (!this.compiled)
      throw new Error(
        `You must compile your model before ${what}. Call \`model.compile(optimizer, loss)\`.`,
      );
    return this.compiled;
  }

  /** 'loss' followed by the compiled metrics' names (what evaluate returns, in order). */
  get metricsNames(): string[] {
    return ['loss', ...(this.compiled?.metrics.map((m) => m.name) ?? [])];
  }

  /** One batch: forward, Keras-order loss, tape gradients, applyGradients. */
  private task(compiled: Compiled): TrainingTask {
    const forward = (batch: unknown, training: boolean): StepResult => {
      const [x, y1, weight] = splitBatch(batch, 'fit');
      const out = this(x, { training }) as Tensor | Tensor[];
      // A functional model's outputs given as a list of one are one output.
      const one = Array.isArray(out) && out.length === 1 && !compiled.outputs;
      const preds = one ? (out as Tensor[])[0] : out;
      const y0 = one && Array.isArray(y1) && y1.length === 1 ? (y1[0] as unknown) : y1;
      if (Array.isArray(preds)) {
        if (!compiled.outputs)
          throw new TypeError(
            `fit/evaluate: model "${this.name}" has ${(preds as unknown[]).length} outputs; it was compiled for one`,
          );
        const labels = outputLabels(y0, compiled.outputs.names);
        const all = preds as Tensor[];
        const w =
          weight && weight.deviceObject !== all[0].deviceObject
            ? weight.to(all[0].deviceObject)
            : weight;
        // Metrics are refused for several outputs (compile), so the first output stands for the step.
        return {
          loss: totalLoss(compiled.outputs, labels, all, w),
          preds: all[0],
          labels: labels[0],
        };
      }
      if (!(y0 instanceof Tensor))
        throw new TypeError(
          `fit: each batch must be [features, labels], got labels ${describe(y0)}`,
        );
      const y = y0.deviceObject === preds.deviceObject ? y0 : y0.to(preds.deviceObject);
      const w =
        weight && weight.deviceObject !== preds.deviceObject
          ? weight.to(preds.deviceObject)
          : weight;
      return { loss: compiled.loss.fn(y, preds, w), preds, labels: y };
    };
    const named = (): Record<string, Tensor> =>
      Object.fromEntries(this.namedWeights.map((w) => [w.name, w.value]));
    const strategy = this.distributeStrategy;
    const replicated =
      strategy && strategy.numReplicasInSync > 1
        ? strategy.kerasSteps(this, {
            forward,
            weights: () => this.weights,
            trainableVariables: () => this.trainableVariables,
            applyGradients: (pairs) => compiled.optimizer.applyGradients(pairs),
          })
        : null;
    return {
      trainStep: (batch) => {
        if (replicated) return replicated.trainStep(batch);
        const tape = new GradientTapeImpl();
        const r = forward(batch, true);
        const variables = this.trainableVariables;
        const grads = tape.gradient(r.loss, variables) as (Tensor | null)[];
        compiled.optimizer.applyGradients(grads.map((g, i) => [g, variables[i]] as const));
        return { loss: r.loss.detach(), preds: r.preds.detach(), labels: r.labels };
      },
      evalStep: (batch) => (replicated ? replicated.evalStep(batch) : forward(batch, false)),
      // Keras passes `training` to each call instead of switching a mode.
      setTraining: () => {},
      stateDict: named,
      loadStateDict: (state) => {
        const current = named();
        noGrad(() => {
          for (const [name, value] of Object.entries(state)) current[name]?.copy_(value);
        });
      },
    };
  }

  /**
   * `await model.fit(ds, { validationData, epochs })` or `fit(x, y, { batchSize, epochs,
   * validationSplit })`: one Keras line per epoch; returns the History.
   */
  async fit(...args: unknown[]): Promise<History> {
    const a = bindArgs({ name: 'Model.fit', params: FIT_PARAMS, keywordOnly: ['observers'] }, args);
    const compiled = this.requireCompiled('training');
    for (const k of ['classWeight', 'sampleWeight'] as const) {
      if (a[k] !== undefined && a[k] !== null)
        throw new TypeError(`fit: ${k} is not supported (give [x, y, weight] batches instead)`);
    }
    if (optional(a.initialEpoch, asInt, 'initialEpoch', 0) !== 0)
      throw new TypeError('fit: initialEpoch is not supported');
    const epochs = optional(a.epochs, asInt, 'epochs', 1);
    const verbose = verbosity(a.verbose);
    const batchSize = optional(a.batchSize, asInt, 'batchSize', 32);
    const shuffle = boolArg(a.shuffle, 'shuffle', true);
    let x = a.x;
    let y = a.y;
    let validation = a.validationData;
    const split = optional(a.validationSplit, asNumber, 'validationSplit', 0);
    if (split > 0) {
      if (validation !== undefined && validation !== null)
        throw new TypeError('fit: give validationData or validationSplit, not both');
      const [train, val] = splitTail(x, y, split);
      [x, y] = train;
      validation = val;
    }
    const trainData = toBatches(x, y, {
      batchSize,
      shuffle,
      steps: optional(a.stepsPerEpoch, asInt, 'stepsPerEpoch', null),
      what: 'fit',
    });
    let valData = null;
    if (validation !== undefined && validation !== null) {
      const [vx, vy] = Array.isArray(validation) ? validation : [validation, undefined];
      valData = toBatches(vx, vy, {
        batchSize: optional(a.validationBatchSize, asInt, 'validationBatchSize', batchSize),
        steps: optional(a.validationSteps, asInt, 'validationSteps', null),
        what: 'fit (validationData)',
      });
    }
    const callbackList =
      a.callbacks === undefined || a.callbacks === null ? [] : (a.callbacks as unknown[]);
    const stopper =
      callbackList.find((c): c is EarlyStopping => c instanceof EarlyStopping) ?? null;
    const observers: TrainingObserver[] = [];
    if (verbose > 0) observers.push(kerasTextObserver());
    for (const cb of callbackList) {
      if (!(cb instanceof Callback))
        throw new TypeError(
          `fit: callbacks must be tf.keras.callbacks objects, got ${describe(cb)}`,
        );
      cb.model = this;
      cb.params = { epochs, steps: trainData.length ?? null, verbose };
      observers.push(cb.asObserver());
    }
    observers.push(...((a.observers as TrainingObserver[] | undefined) ?? []));
    const metrics = Object.fromEntries(compiled.metrics.map((m) => [m.name, loopMetric(m)]));
    this.stopTraining = false;
    const result = await fitLoop(this.task(compiled), {
      trainData,
      valData,
      epochs,
      metrics,
      prefixes: { train: '', val: 'val_' },
      monitor: stopper?.monitor ?? (valData ? 'val_loss' : 'loss'),
      mode: stopper?.mode,
      patience: stopper ? stopper.patience : null,
      restoreBest: stopper?.restoreBestWeights ?? false,
      minDelta: stopper?.minDelta ?? 0,
      observers,
      stopRequested: () => this.stopTraining,
    });
    for (const cb of callbackList as Callback[]) await cb.settle();
    this.history = new History(
      { epochs, steps: trainData.length ?? null, verbose },
      result.history,
      this,
    );
    return this.history;
  }

  /** `await model.evaluate(ds)` → [loss, ...metrics] (the loss alone without metrics), or a record. */
  async evaluate(...args: unknown[]): Promise<number | number[] | Record<string, number>> {
    const a = bindArgs(
      {
        name: 'Model.evaluate',
        params: [
          'x',
          'y',
          'batchSize',
          'verbose',
          'sampleWeight',
          'steps',
          'callbacks',
          'maxQueueSize',
          'workers',
          'useMultiprocessing',
          'returnDict',
        ],
        keywordOnly: ['observers'],
      },
      args,
    );
    const compiled = this.requireCompiled('evaluating');
    const data = toBatches(a.x, a.y, {
      batchSize: optional(a.batchSize, asInt, 'batchSize', 32),
      steps: optional(a.steps, asInt, 'steps', null),
      what: 'evaluate',
    });
    const metrics = Object.fromEntries(compiled.metrics.map((m) => [m.name, loopMetric(m)]));
    let steps = 0;
    const counter: TrainingObserver = { onPhaseEnd: (e) => (steps = e.steps) };
    const observers = [counter, ...((a.observers as TrainingObserver[] | undefined) ?? [])];
    const logs = await evaluateLoop(this.task(compiled), data, { metrics, prefix: '', observers });
    if (verbosity(a.verbose) > 0) {
      const values = Object.entries(logs)
        .map(([k, v]) => `${k}: ${v.toFixed(4)}`)
        .join(' - ');
      writeOutput(`${steps}/${steps} [${'='.repeat(30)}] - ${values}`);
    }
    if (a.returnDict === true) return logs;
    const list = Object.values(logs);
    return list.length === 1 ? list[0] : list;
  }

  /** `await model.predict(x or ds)`: the outputs of every batch, concatenated (no gradients). */
  async predict(...args: unknown[]): Promise<Tensor> {
    const a = bindArgs(
      {
        name: 'Model.predict',
        params: [
          'x',
          'batchSize',
          'verbose',
          'steps',
          'callbacks',
          'maxQueueSize',
          'workers',
          'useMultiprocessing',
        ],
      },
      args,
    );
    const data = toBatches(a.x, undefined, {
      batchSize: optional(a.batchSize, asInt, 'batchSize', 32),
      steps: optional(a.steps, asInt, 'steps', null),
      what: 'predict',
    });
    // A list batch is [features, labels] — unless the model takes several inputs and the list's
    // first element is a tensor: then the list is the features (Keras's x as a list).
    const several = this.inputCount > 1;
    const batches: Tensor[][] = [];
    let many = false;
    for await (const batch of data) {
      const x = Array.isArray(batch) && !(several && batch[0] instanceof Tensor) ? batch[0] : batch;
      if (!isFeatures(x))
        throw new TypeError(
          `predict: each batch must be features (or [features, labels]), got ${describe(batch)}`,
        );
      const y = noGrad(() => this(x, { training: false })) as Tensor | Tensor[];
      many = Array.isArray(y);
      // Held across the loop's step boundaries until they are joined.
      batches.push((Array.isArray(y) ? y : [y]).map((t) => t.keep()));
    }
    if (batches.length === 0) throw new Error('predict: the data gave no batches');
    const joined = batches[0].map((_, i) => {
      const parts = batches.map((b) => b[i]);
      return parts.length === 1 ? ops.clone(parts[0]) : ops.cat(parts, 0);
    });
    for (const t of batches.flat()) t.dispose();
    // A model with several outputs predicts a list of arrays, as Keras.
    return (many ? joined : joined[0]) as Tensor;
  }

  /** The names of the model's outputs (a functional model's output layers); [] if not known. */
  get outputNames(): string[] {
    return [];
  }

  /** How many inputs the model takes (a functional model may take several). */
  get inputCount(): number {
    return 1;
  }

  /** One optimization step on one batch (Keras's `train_on_batch`); returns the batch loss. */
  async trainOnBatch(x: unknown, y: unknown): Promise<number> {
    const compiled = this.requireCompiled('training');
    const [batch] = await toArray(
      toBatches(x, y, { batchSize: Number.MAX_SAFE_INTEGER, shuffle: false, what: 'trainOnBatch' }),
    );
    return (await this.task(compiled).trainStep(batch).loss.data())[0];
  }
}

/** Set by functional.ts (which extends Model, so model.ts cannot import it). */
let functionalFactory: ((args: BoundArgs) => Model) | null = null;

export function registerFunctional(factory: (args: BoundArgs) => Model): void {
  functionalFactory = factory;
}

function makeFunctional(target: unknown, args: BoundArgs): Model {
  if (target !== Model || !functionalFactory) {
    throw new TypeError(
      'tf.keras.Model(inputs, outputs): a subclass of Model defines call() instead of passing inputs and outputs',
    );
  }
  return functionalFactory(args);
}

async function toArray(data: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const b of data) out.push(b);
  return out;
}

function notBuilt(): Error {
  return new ShapeError(
    'This model has not yet been built. Build the model first by calling `build()` or by calling ' +
      'the model on a batch of data (or give the first layer an `inputShape` / `inputLength`).',
  );
}
