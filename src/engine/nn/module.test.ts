import { afterEach, describe, expect, it } from 'vitest';
import { fromHost, randn, zeros } from '../ops/creation';
import { add, mul } from '../ops/elementwise';
import { matmul, t } from '../ops/matmul';
import { cpu } from '../devices/registry';
import { Tensor } from '../tensor';
import { testDevices } from '../testing/devices';
import { setTrainingOutput } from '../training/output';
import {
  AdaptiveMaxPool2d,
  Conv2d,
  Dropout2d,
  Flatten,
  Linear,
  MaxPool2d,
  Module,
  ModuleList,
  Parameter,
  ReLU,
  Sequential,
  summarize,
} from '.';

const devices = await testDevices();

/** The chapter's CnnModel: a ModuleList driven by a custom forward. */
class CnnModel extends Module {
  layers = new ModuleList([
    new Conv2d({ inChannels: 1, outChannels: 32, kernelSize: 3 }),
    new MaxPool2d({ kernelSize: 2, stride: 2 }),
    new Conv2d({ inChannels: 32, outChannels: 64, kernelSize: 5 }),
    new MaxPool2d({ kernelSize: 2, stride: 2 }),
    new Dropout2d({ p: 0.1 }),
    new AdaptiveMaxPool2d([1, 1]),
    new Flatten(),
    new Linear(64, 32),
    new ReLU(),
    new Linear(32, 10),
  ]);

  override forward(x: Tensor): Tensor {
    for (const layer of this.layers) x = layer(x);
    return x;
  }
}

/** The chapter's create_net(): a Sequential filled with addModule. */
function createNet(): Sequential {
  const net = new Sequential();
  net.addModule('conv1', new Conv2d({ inChannels: 1, outChannels: 32, kernelSize: 3 }));
  net.addModule('pool1', new MaxPool2d({ kernelSize: 2, stride: 2 }));
  net.addModule('conv2', new Conv2d({ inChannels: 32, outChannels: 64, kernelSize: 5 }));
  net.addModule('pool2', new MaxPool2d({ kernelSize: 2, stride: 2 }));
  net.addModule('dropout', new Dropout2d({ p: 0.1 }));
  net.addModule('adaptive_pool', new AdaptiveMaxPool2d([1, 1]));
  net.addModule('flatten', new Flatten());
  net.addModule('linear1', new Linear(64, 32));
  net.addModule('relu', new ReLU());
  net.addModule('linear2', new Linear(32, 10));
  return net;
}

/** The chapter's LinearRegression: parameters assigned as fields. */
class LinearRegression extends Module {
  w = new Parameter(randn([1, 2], { device: cpu() }));
  b = new Parameter(zeros([1, 1], { device: cpu() }));

  override forward(x: Tensor): Tensor {
    return add(matmul(x, t(this.w)), this.b);
  }
}

afterEach(() => setTrainingOutput(null));

describe('Module', () => {
  it('is callable, finds fields in definition order and names parameters as PyTorch does', () => {
    const net = new LinearRegression();
    expect(typeof net).toBe('function');
    expect(net).toBeInstanceOf(Module);
    expect(net.namedParameters().map(([n]) => n)).toEqual(['w', 'b']);
    const x = fromHost(Float32Array.from([1, 2, 3, 4]), [2, 2], { device: cpu() });
    expect(net(x).shape).toEqual([2, 1]);
    expect(net.forward(x).shape).toEqual([2, 1]);
    const cnn = new CnnModel();
    expect(cnn.namedParameters().map(([n]) => n)).toEqual([
      'layers.0.weight',
      'layers.0.bias',
      'layers.2.weight',
      'layers.2.bias',
      'layers.7.weight',
      'layers.7.bias',
      'layers.9.weight',
      'layers.9.bias',
    ]);
    expect(
      createNet()
        .namedParameters()
        .map(([n]) => n),
    ).toEqual([
      'conv1.weight',
      'conv1.bias',
      'conv2.weight',
      'conv2.bias',
      'linear1.weight',
      'linear1.bias',
      'linear2.weight',
      'linear2.bias',
    ]);
    expect(
      new Sequential(new Linear(2, 3), new ReLU(), new Linear(3, 1))
        .namedParameters()
        .map(([n]) => n),
    ).toEqual(['0.weight', '0.bias', '2.weight', '2.bias']);
  });

  it("prints the chapter's CNN summary with 53,994 parameters", () => {
    const lines: string[] = [];
    setTrainingOutput((text) => lines.push(text));
    const net = new CnnModel();
    net.summary({ inputShape: [1, 32, 32] });
    const text = lines.join('');
    expect(text).toContain('Total params: 53,994');
    expect(text).toContain('Trainable params: 53,994');
    expect(text).toContain('Non-trainable params: 0');
    expect(text).toContain('        Layer (type)               Output Shape         Param #\n');
    expect(text).toContain('\n            Conv2d-1           [-1, 32, 30, 30]             320\n');
    expect(text).toContain('\n            Conv2d-3           [-1, 64, 11, 11]          51,264\n');
    expect(text).toContain('Input size (MB): 0.003906');
    expect(text).toContain('Forward/backward pass size (MB): 0.359695');
    expect(text).toContain('Params size (MB): 0.205971');
    expect(text).toContain('Estimated Total Size (MB): 0.569572');
    const s = summarize(createNet(), { inputShape: [1, 28, 28] });
    expect(s.totalParams).toBe(53994);
    expect(s.rows.map((r) => `${r.layer} ${r.outputShape.join('x')} ${r.params}`)).toEqual([
      'Conv2d-1 -1x32x26x26 320',
      'MaxPool2d-2 -1x32x13x13 0',
      'Conv2d-3 -1x64x9x9 51264',
      'MaxPool2d-4 -1x64x4x4 0',
      'Dropout2d-5 -1x64x4x4 0',
      'AdaptiveMaxPool2d-6 -1x64x1x1 0',
      'Flatten-7 -1x64 0',
      'Linear-8 -1x32 2080',
      'ReLU-9 -1x32 0',
      'Linear-10 -1x10 330',
    ]);
  });

  it("prints PyTorch's repr", () => {
    expect(createNet().toString()).toBe(
      [
        'Sequential(',
        '  (conv1): Conv2d(1, 32, kernel_size=(3, 3), stride=(1, 1))',
        '  (pool1): MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)',
        '  (conv2): Conv2d(32, 64, kernel_size=(5, 5), stride=(1, 1))',
        '  (pool2): MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)',
        '  (dropout): Dropout2d(p=0.1, inplace=False)',
        '  (adaptive_pool): AdaptiveMaxPool2d(output_size=(1, 1))',
        '  (flatten): Flatten(start_dim=1, end_dim=-1)',
        '  (linear1): Linear(in_features=64, out_features=32, bias=True)',
        '  (relu): ReLU()',
        '  (linear2): Linear(in_features=32, out_features=10, bias=True)',
        ')',
      ].join('\n'),
    );
    expect(new CnnModel().toString().split('\n').slice(0, 3)).toEqual([
      'CnnModel(',
      '  (layers): ModuleList(',
      '    (0): Conv2d(1, 32, kernel_size=(3, 3), stride=(1, 1))',
    ]);
  });

  it('train() and eval() set the flag on every submodule', () => {
    const net = new CnnModel();
    expect(net.training).toBe(true);
    net.eval();
    expect(net.modules().every((m) => m.training === false)).toBe(true);
    net.train();
    expect(net.layers.get(4).training).toBe(true);
  });

  it('says a forward is missing', () => {
    class Empty extends Module {}
    expect(() => new Empty()(1)).toThrow(
      'Module [Empty] is missing the required "forward" function',
    );
  });

  it('state dicts round-trip and report missing, unexpected and mismatched keys as PyTorch does', async () => {
    const a = createNet();
    const b = createNet();
    const sd = a.stateDict();
    expect(Object.keys(sd)).toEqual(a.namedParameters().map(([n]) => n));
    const result = b.loadStateDict(sd);
    expect(String(result)).toBe('<All keys matched successfully>');
    for (const [name, p] of b.namedParameters()) {
      expect(Array.from(await p.data())).toEqual(Array.from(await sd[name].data()));
    }
    const partial = { ...sd, extra: sd['conv1.bias'] };
    delete (partial as Record<string, Tensor>)['linear2.bias'];
    expect(() => b.loadStateDict(partial)).toThrow(
      'Error(s) in loading state_dict for Sequential:\n\tMissing key(s) in state_dict: "linear2.bias". \n\t' +
        'Unexpected key(s) in state_dict: "extra". ',
    );
    const loose = b.loadStateDict(partial, { strict: false });
    expect(loose.missingKeys).toEqual(['linear2.bias']);
    expect(loose.unexpectedKeys).toEqual(['extra']);
    const wrong = { ...sd, 'linear1.weight': zeros([32, 65], { device: cpu() }) };
    expect(() => b.loadStateDict(wrong, { strict: false })).toThrow(
      'size mismatch for linear1.weight: copying a param with shape torch.Size([32, 65]) from checkpoint, ' +
        'the shape in current model is torch.Size([32, 64]).',
    );
  });

  it('registers buffers that move and save with the module but are not trained', () => {
    class WithBuffer extends Module {
      fc = new Linear(2, 2);
      constructor() {
        super();
        this.registerBuffer('runningMean', zeros([2], { device: cpu() }));
      }
      override forward(x: Tensor): Tensor {
        return mul(this.fc(x), 1);
      }
    }
    const m = new WithBuffer();
    expect(Object.keys(m.stateDict())).toEqual(['runningMean', 'fc.weight', 'fc.bias']);
    expect(m.parameters().length).toBe(2);
  });
});

describe.skipIf(devices.length < 2)('Module on a GPU', () => {
  const gpu = devices[1];

  it('to(device) moves parameters in place (the optimizer and the user keep the same objects)', async () => {
    const net = new Linear(2, 1);
    const weight = net.weight;
    const before = Array.from(await weight.data());
    expect(net.parameters()[0].isCuda).toBe(false);
    expect(net.to(gpu.name)).toBe(net);
    expect(net.weight).toBe(weight);
    expect(weight.isCuda).toBe(true);
    expect(weight.device).toBe(gpu.name);
    expect(Array.from(await weight.data())).toEqual(before);
    net.cpu();
    expect(weight.device).toBe('cpu');
  });

  it('says which tensor is where when a GPU model is fed CPU data', () => {
    const net = new Linear(2, 1).to(gpu.name);
    const x = fromHost(new Float32Array(4), [2, 2], { device: cpu() });
    expect(() => net(x)).toThrow(
      /Linear: the input \[2, 2\] is on cpu, but the layer's weight is on gpu:0/,
    );
    const custom = new LinearRegression().to(gpu.name);
    expect(() => custom(x)).toThrow(
      /LinearRegression: input 0 \[2, 2\] is on cpu, but its parameters are on gpu:0/,
    );
  });
});

describe('Parameter', () => {
  it('copies a view so that it owns its memory, requires grad and survives step sweeps', () => {
    const base = randn([4, 4], { device: cpu() });
    const p = new Parameter(t(base));
    expect(p.isContiguous()).toBe(true);
    expect(p.requiresGrad).toBe(true);
    expect(p).toBeInstanceOf(Tensor);
    expect(new Parameter(base, { requiresGrad: false }).requiresGrad).toBe(false);
  });
});
