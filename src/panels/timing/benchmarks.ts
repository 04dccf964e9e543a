/**
 * The chapters' three CPU-vs-GPU comparisons as cells for the timing panel's kernel: a matrix
 * product, linear-regression training steps, and a slice of an MNIST epoch with the chapter's
 * CNN — each timed by `compareDevices` on the cpu and every GPU. Sizes are small on a CPU
 * emulation (SwiftShader) and larger on a real GPU, where tiny sizes would only time overheads.
 */

export interface BenchmarkSizes {
  /** Side of the square matrices. */
  matmul: number;
  /** Samples and Adam steps of the linear regression. */
  regressionSamples: number;
  regressionSteps: number;
  /** Batch size and number of batches of the MNIST slice. */
  mnistBatch: number;
  mnistSteps: number;
  repeat: number;
}

export const SMALL_SIZES: BenchmarkSizes = {
  matmul: 256,
  regressionSamples: 20_000,
  regressionSteps: 20,
  mnistBatch: 16,
  mnistSteps: 2,
  repeat: 3,
};

export const GPU_SIZES: BenchmarkSizes = {
  matmul: 1024,
  regressionSamples: 200_000,
  regressionSteps: 50,
  mnistBatch: 128,
  mnistSteps: 5,
  repeat: 5,
};

export interface Benchmark {
  id: 'matmul' | 'regression' | 'mnist';
  title: string;
  /** What the chapter did at full size, for the reader. */
  chapter: string;
  code: string;
}

export function benchmarks(sizes: BenchmarkSizes): Benchmark[] {
  const n = sizes.matmul;
  const matmul = `// Inputs live on each device before timing starts (the first, untimed run moves them).
torch.manualSeed(0);
const a = torch.rand([${n}, ${n}]);
const b = torch.rand([${n}, ${n}]);
const placed: Record<string, [any, any]> = {};
await compareDevices((device) => {
  const [x, y] = (placed[device] ??= [a.to(device), b.to(device)]);
  torch.matmul(x, y);
}, { repeat: ${sizes.repeat}, warmup: 1, title: 'Matrix product ${n}×${n} @ ${n}×${n}' });`;

  const regression = `torch.manualSeed(0);
const n = ${sizes.regressionSamples};
const X = torch.rand([n, 2]).mul(10).sub(5);
const w0 = torch.tensor([[2.0, -3.0]]);
const b0 = torch.tensor([[10.0]]);
const Y = X.matmul(w0.t()).add(b0).add(torch.normal(0.0, 2.0, { size: [n, 1] }));
const data: Record<string, [any, any]> = {};
await compareDevices((device) => {
  const [Xd, Yd] = (data[device] ??= [X.to(device), Y.to(device)]);
  const linear = new nn.Linear(2, 1).to(device);
  const optimizer = new optim.Adam(linear.parameters(), { lr: 0.1 });
  const lossFn = new nn.MSELoss();
  for (let step = 0; step < ${sizes.regressionSteps}; step++) {
    optimizer.zeroGrad();
    const loss = lossFn(linear(Xd), Yd);
    loss.backward();
    optimizer.step();
  }
}, { repeat: ${sizes.repeat}, warmup: 1, title: 'Linear regression: ${sizes.regressionSteps} Adam steps on ${sizes.regressionSamples.toLocaleString('en-US')} samples' });`;

  const images = sizes.mnistBatch * sizes.mnistSteps;
  const mnist = `torch.manualSeed(0);
const ds = await torchvision.datasets.MNIST({ train: false, transform: torchvision.transforms.ToTensor() });
const slice = new torch.utils.data.Subset(ds, Array.from({ length: ${images} }, (_, i) => i));
const loader = new torch.utils.data.DataLoader(slice, { batchSize: ${sizes.mnistBatch} });
const makeNet = () => new nn.Sequential(
  new nn.Conv2d(1, 32, 3), new nn.MaxPool2d(2, 2),
  new nn.Conv2d(32, 64, 5), new nn.MaxPool2d(2, 2),
  new nn.Dropout2d(0.1), new nn.AdaptiveMaxPool2d([1, 1]), new nn.Flatten(),
  new nn.Linear(64, 32), new nn.ReLU(), new nn.Linear(32, 10),
);
const lossFn = new nn.CrossEntropyLoss();
const models: Record<string, [any, any]> = {};
await compareDevices(async (device) => {
  const [net, optimizer] = (models[device] ??= (() => {
    const net = makeNet().to(device);
    return [net, new optim.Adam(net.parameters(), { lr: 0.01 })];
  })());
  for await (const [features, labels] of loader) {
    const loss = lossFn(net(features.to(device)), labels.to(device));
    loss.backward();
    optimizer.step();
    optimizer.zeroGrad();
  }
}, { repeat: ${Math.min(sizes.repeat, 3)}, warmup: 1, title: 'MNIST CNN: ${sizes.mnistSteps} batches of ${sizes.mnistBatch}' });`;

  return [
    {
      id: 'matmul',
      title: `Matrix product (${n}×${n})`,
      chapter:
        'The chapter multiplies 10000×200 by 200×10000: 0.65 s on its CPU, 0.015 s on its GPU.',
      code: matmul,
    },
    {
      id: 'regression',
      title: `Linear regression (${sizes.regressionSteps} steps)`,
      chapter:
        'The chapter trains 500 Adam steps on 1,000,000 samples: 5.4 s on CPU, 0.49 s on GPU.',
      code: regression,
    },
    {
      id: 'mnist',
      title: `MNIST epoch slice (${images} images)`,
      chapter: 'The chapter trains its CNN for whole MNIST epochs: about 40 s each on CPU.',
      code: mnist,
    },
  ];
}
