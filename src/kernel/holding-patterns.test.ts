/**
 * Issue 16: no tensor a program holds is ever lost. Each pattern below holds a random tensor the
 * way real programs do — most of them where the engine's walk over the notebook's names cannot see
 * it (locals across awaits, closures, `#private` fields, generator state, WeakMaps, …) — then runs
 * three optimizer steps and a torchkeras `fit` (each batch a step boundary), and reads the tensor
 * back. Cells run through the real kernel session: the REPL rewrite, the notebook's roots and the
 * torch-shaped globals, on the CPU backend and on WebGPU. The values must be exactly those it was
 * made with, and a tensor the walk cannot see must have come back from host memory (so the test
 * really crosses a spill), while one it can see never left its device. Sweeps spill at once here
 * (parking off: setParkingLimit 0), so that every hidden tensor does cross a spill.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../api';
import { setParkingLimit, setRootProvider, spillTraffic } from '../engine';
import type { Device } from '../engine/devices/device';
import { testDevices } from '../engine/testing/devices';
import { setTrainingOutput } from '../engine/training';
import type { CellOutput } from './protocol';
import { startTestSession } from './testing/session-harness';

const devices = await testDevices();

afterAll(() => {
  setRootProvider(null);
  setTrainingOutput(null);
});

/** Helpers every pattern cell uses: `fresh()` makes a tensor and records its values by id. */
const PRELUDE = `
const expectedValues = new Map();
let nextId = 0;
async function fresh() {
  const t = torch.randn([5, 3], { device: dev });
  t.heldId = nextId++;
  expectedValues.set(t.heldId, Array.from(await t.data()));
  return t;
}
const lin = new nn.Linear(4, 2).to(dev);
const sgd = new optim.SGD(lin.parameters(), { lr: 0.1 });
const xs = torch.randn([24, 4]);
const ys = torch.tensor(Array.from({ length: 24 }, (_, i) => i % 2), { dtype: 'int32' });
const loader = new torch.utils.data.DataLoader(new torch.utils.data.TensorDataset(xs, ys), { batchSize: 6 });
const keras = new torchkeras.KerasModel(lin, {
  lossFn: new nn.CrossEntropyLoss(),
  metricsDict: {},
  optimizer: sgd,
});
/** Three optimizer steps and a fit of four batches: at least seven step boundaries. */
async function train() {
  for (let i = 0; i < 3; i++) {
    const loss = lin(torch.randn([8, 4], { device: dev })).sum();
    sgd.zeroGrad();
    loss.backward();
    sgd.step();
    await loss.item();
  }
  await keras.fit({ trainData: loader, epochs: 1, quiet: true, device: dev });
}
/** Prints whether t still holds its values, and whether reading it brought it back from the host. */
async function report(t, id = t.heldId) {
  const before = restoredBytes();
  const values = Array.from(await t.data());
  const same = JSON.stringify(values) === JSON.stringify(expectedValues.get(id));
  print(same ? 'same' : 'CHANGED', restoredBytes() > before ? 'from-host' : 'on-device');
}
`;

interface Pattern {
  name: string;
  code: string;
  /** Where the walk over the notebook's names cannot see the tensor, so a sweep spills it. */
  hidden: boolean;
}

const PATTERNS: Pattern[] = [
  {
    name: 'a local of an async function across awaits and steps (the issue’s program)',
    hidden: true,
    code: `async function run() {
  const keepMe = await fresh();
  await train();
  await report(keepMe);
}
await run();`,
  },
  {
    name: 'a closure',
    hidden: true,
    code: `const getHeld = await (async () => { const t = await fresh(); return () => t; })();
await train();
await report(getHeld());`,
  },
  {
    name: 'a #private class field',
    hidden: true,
    code: `class Vault { #t; constructor(t) { this.#t = t; } get() { return this.#t; } }
const vault = new Vault(await fresh());
await train();
await report(vault.get());`,
  },
  {
    name: 'a public class field of a notebook variable',
    hidden: false,
    code: `class Holder { constructor(t) { this.t = t; } }
const holder = new Holder(await fresh());
await train();
await report(holder.t);`,
  },
  {
    name: 'an array held in a function',
    hidden: true,
    code: `async function run() {
  const list = [1, 'two', await fresh()];
  await train();
  await report(list[2]);
}
await run();`,
  },
  {
    name: 'a Map held in a function',
    hidden: true,
    code: `async function run() {
  const cache = new Map([['val', await fresh()]]);
  await train();
  await report(cache.get('val'));
}
await run();`,
  },
  {
    name: 'a Set held in a function',
    hidden: true,
    code: `async function run() {
  const set = new Set([await fresh()]);
  await train();
  await report([...set][0]);
}
await run();`,
  },
  {
    name: 'a generator’s state',
    hidden: true,
    code: `function* gen(t) { yield 0; yield t; }
const it = gen(await fresh());
it.next();
await train();
await report(it.next().value);`,
  },
  {
    name: 'an async generator’s state',
    hidden: true,
    code: `async function* agen() { const t = await fresh(); yield 0; await train(); yield t; }
const ait = agen();
await ait.next();
await report((await ait.next()).value);`,
  },
  {
    name: 'a plain tensor attribute of a module held in a function',
    hidden: true,
    code: `class WithCache extends nn.Module {
  constructor(t) { super(); this.cache = t; }
  forward(x) { return x; }
}
async function run() {
  const m = new WithCache(await fresh());
  await train();
  await report(m.cache);
}
await run();`,
  },
  {
    name: 'a user object nested six levels deep in a function',
    hidden: true,
    code: `async function run() {
  const deep = { a: { b: [{ c: { d: { e: { f: await fresh() } } } }] } };
  await train();
  await report(deep.a.b[0].c.d.e.f);
}
await run();`,
  },
  {
    name: 'a WeakMap value',
    hidden: true,
    code: `const key = {};
const weak = new WeakMap();
weak.set(key, await fresh());
await train();
await report(weak.get(key));`,
  },
  {
    name: 'a resolved Promise',
    hidden: true,
    code: `async function run() {
  const later = Promise.resolve(await fresh());
  await train();
  await report(await later);
}
await run();`,
  },
  {
    name: 'only a view of it (reshape), in a function',
    hidden: true,
    code: `async function run() {
  const base = await fresh();
  const view = base.reshape([15]);
  const id = base.heldId;
  await train();
  await report(view, id);
}
await run();`,
  },
  {
    name: 'an argument bound into a function',
    hidden: true,
    code: `const reportLater = report.bind(null, await fresh());
await train();
await reportLater();`,
  },
  {
    name: 'a top-level notebook variable',
    hidden: false,
    code: `let plain = await fresh();
await train();
await report(plain);`,
  },
  {
    name: 'a tensor used again after its spill, then spilled and read once more',
    hidden: true,
    code: `async function run() {
  const t = await fresh();
  await train();
  await report(t);
  await train();
  await report(t);
}
await run();`,
  },
];

function startSession(device: Device) {
  const kernel = startTestSession(async () => ({
    info: { backend: 'cpu', adapter: null, cooperativeInterrupt: false },
    globals: {
      ...api,
      dev: device.name,
      restoredBytes: () => spillTraffic(device).restored,
    },
    setRoots: (roots) => setRootProvider(roots),
    attachOutput: (write) => setTrainingOutput(write),
  }));
  const textOf = (cellId: string): string =>
    kernel
      .outputsOf(cellId)
      .map((o: CellOutput) =>
        o.kind === 'stream' ? o.text : o.kind === 'error' ? `${o.ename}: ${o.evalue}` : '',
      )
      .join('');
  const run = async (code: string): Promise<{ status: string; text: string }> => {
    const { cellId, done } = kernel.run(code);
    const event = await done;
    return { status: event.status, text: textOf(cellId) };
  };
  return { run };
}

describe.each(devices.map((d) => [d.name, d] as const))('held tensors on %s', (_, device) => {
  // One session at a time: each registers its notebook's names as the engine's roots.
  let kernel: ReturnType<typeof startSession>;
  beforeAll(() => {
    setParkingLimit(device, 0);
    kernel = startSession(device);
  });
  afterAll(() => setParkingLimit(device, null));

  it('the prelude runs', async () => {
    const { status, text } = await kernel.run(PRELUDE);
    expect(text).toBe('');
    expect(status).toBe('ok');
  });

  it.each(PATTERNS.map((p) => [p.name, p] as const))('%s', async (_name, pattern) => {
    const { status, text } = await kernel.run(pattern.code);
    expect(text).not.toContain('released');
    expect(status).toBe('ok');
    const lines = text.trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toBe(pattern.hidden ? 'same from-host' : 'same on-device');
    }
  });

  it('the issue’s program prints 3', async () => {
    const { status, text } = await kernel.run(`const lin2 = new nn.Linear(4, 2).to(dev);
const sgd2 = new optim.SGD(lin2.parameters(), { lr: 0.1 });
async function run3() {
  const keepMe = torch.ones([3], { device: dev });
  for (let i = 0; i < 3; i++) {
    const loss = lin2(torch.randn([8, 4], { device: dev })).sum();
    sgd2.zeroGrad(); loss.backward(); sgd2.step();
    await loss.item();
  }
  return await keepMe.sum().item();
}
print(await run3());`);
    expect(text).toBe('3\n');
    expect(status).toBe('ok');
  });
});
