/**
 * The TS twins of Python-subclassed Keras objects (PythonLayer, PythonModel) driven by plain JS
 * hooks standing in for the Python methods: attribute tracking in assignment order, build once
 * with the input's full shape, add_weight names, "multiple" summaries, Keras's errors, and a
 * Python-style layer inside Sequential (its output shape found by one call on zeros).
 * The Python side is tested in src/api/python/keras-subclassing.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { cpu, ops, type Tensor } from '../../../../engine';
import { Dense } from '../layers';
import { PythonLayer, type PythonHooks } from '../layers/python-layer';
import { resetNames } from '../naming';
import { PythonModel } from './python-model';
import { Sequential } from './sequential';

const device = cpu();

/** Hooks of a Linear layer (`x @ w + b`, units wide) that count their builds. */
function linearHooks(units: number, layer: () => PythonLayer, builds: number[][]): PythonHooks {
  let w: Tensor | null = null;
  let b: Tensor | null = null;
  return {
    build: (shape) => {
      builds.push(shape.map((d) => d ?? -1));
      w = layer().addPythonWeight({ shape: [shape[shape.length - 1], units] });
      b = layer().addPythonWeight({ shape: [units], initializer: 'zeros' });
    },
    call: (x) => ops.add(ops.matmul(x, w as Tensor), b as Tensor),
  };
}

function linear(units: number, builds: number[][] = []): PythonLayer {
  const layer: PythonLayer = new PythonLayer(
    'Linear',
    linearHooks(units, () => layer, builds),
  );
  return layer;
}

beforeEach(() => resetNames());

describe('PythonLayer', () => {
  it('builds once with the full input shape and names its weights per layer', () => {
    const builds: number[][] = [];
    const layer = linear(3, builds);
    expect(layer.name).toBe('linear');
    expect(() => layer.countParams()).toThrow(
      "You tried to call `count_params` on layer linear, but the layer isn't built. You can build it manually via: `linear.build(batch_input_shape)`.",
    );
    const y = layer(ops.ones([5, 4], { device }));
    layer(ops.ones([2, 4], { device }));
    expect(y.shape).toEqual([5, 3]);
    expect(builds).toEqual([[5, 4]]);
    expect(layer.namedWeights.map((w) => w.name)).toEqual([
      'linear/Variable:0',
      'linear/Variable_1:0',
    ]);
    expect(layer.countParams()).toBe(15);
    expect(layer.outputShape).toEqual([null, 3]);
  });

  it('inside Sequential with a declared input: built and shaped before any data', () => {
    const model = new Sequential([new Dense(4, { inputShape: [6] }), linear(2)]);
    expect(model.built).toBe(true);
    expect(model.layers[1].outputShape).toEqual([null, 2]);
    expect(model.summaryText()).toContain(
      'linear (Linear)              (None, 2)                 10',
    );
  });
});

describe('PythonModel', () => {
  it('tracks layers and variables in assignment order and prints "multiple" shapes', () => {
    let model: PythonModel | null = null;
    const first = linear(5);
    const second = new Dense(3);
    model = new PythonModel('MyModel', {
      build: () => {},
      call: (x) => second(first(x)),
    });
    model.tracked.set('first', first);
    model.tracked.set('second', second);
    const scale = ops.ones([3], { device });
    scale.requiresGrad = true;
    model.tracked.set('scale', scale);
    expect(() => model.summaryText()).toThrow('This model has not yet been built.');
    model(ops.ones([2, 4], { device }));
    expect(model.layers).toEqual([first, second]);
    expect(model.trainableWeights.length).toBe(5);
    expect(model.namedWeights[0].name).toBe('my_model/scale:0');
    expect(model.summaryText()).toBe(`Model: "my_model"
_________________________________________________________________
Layer (type)                 Output Shape              Param #   
=================================================================
linear (Linear)              multiple                  25        
_________________________________________________________________
dense (Dense)                multiple                  18        
=================================================================
Total params: 43
Trainable params: 43
Non-trainable params: 0
_________________________________________________________________`);
    model.tracked.set('second', null);
    expect(model.layers).toEqual([first]);
    model.trainable = false;
    expect(model.trainableWeights).toEqual([]);
    expect(model.nonTrainableWeights.length).toBe(3);
  });
});
