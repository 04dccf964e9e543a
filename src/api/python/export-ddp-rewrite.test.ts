/**
 * The `ast` rewrite of `gpubook.export_ddp` on a table of notebook cells: each case's cells and
 * the cells part of the train.py it must give (the fixed prelude is left out), plus what the
 * dialog lists (lines not translated, lines dropped). Every script must compile as Python.
 */
import { describe, expect, it } from 'vitest';
import { getTensorStore } from '../../engine/serialization';
import { startPython } from './testing/pyodide';

const python = await startPython();

interface Exported {
  script: string;
  untranslated: { cell: number; line: number; code: string; reason: string }[];
  dropped: { cell: number; line: number; code: string }[];
  changes: string[];
  framework: string;
  model: { name: string | null; why: string };
  module: string | null;
  requirements: string;
}

/** Exports `cells`; `setup` runs first in a fresh namespace, which is the kernel's globals. */
async function exportCells(cells: string[], setup = ''): Promise<Exported> {
  const json = await python.run(`
import json
from gpubook.export_ddp import export
_ns = {}
exec(${JSON.stringify(setup)}, _ns)
_r = export(json.loads(${JSON.stringify(JSON.stringify(cells))}), _ns, "t", {"size": "test"})
compile(_r["script"], "train.py", "exec")
_m = _r.pop("module")
_r["module"] = None if _m is None else type(_m).__name__
json.dumps(_r)
`);
  return JSON.parse(json as string) as Exported;
}

/** The rewritten cells: from the first cell marker to the process group's end (PyTorch). */
function cellsOf(script: string): string {
  const start = script.indexOf('# %% cell');
  const end = script.lastIndexOf('dist.destroy_process_group()');
  return script.slice(start, end < 0 ? undefined : end).trim();
}

const CASES: { name: string; cells: string[]; expected: string }[] = [
  {
    name: 'DataParallel becomes DDP on the process device; "cuda:N" becomes DEVICE',
    cells: [
      'import torch\nfrom torch import nn\nnet = nn.Linear(2, 1).to("cuda:0")\nmodel = nn.DataParallel(net)\nx = torch.ones(4, 2, device="cuda:1")\ny = x.cuda()\ntorch.cuda.synchronize()',
    ],
    expected: `# %% cell 1
import torch
from torch import nn
net = nn.Linear(2, 1).to(DEVICE)
model = DistributedDataParallel(net.to(DEVICE), device_ids=DEVICE_IDS)
x = torch.ones(4, 2, device=DEVICE)
y = x.to(DEVICE)
_sync()`,
  },
  {
    name: 'loaders get a DistributedSampler and a per-process batch; epoch loops set_epoch',
    cells: [
      'from torch.utils.data import DataLoader\ndl_train = DataLoader(ds, 64, shuffle=True, drop_last=True)\ndl_val = DataLoader(ds_val, batch_size=128)',
      'for epoch in range(3):\n    for x, y in tqdm(dl_train, desc="train"):\n        step(x, y)\n    evaluate(dl_val)',
    ],
    expected: `# %% cell 1
from torch.utils.data import DataLoader
dl_train = DataLoader(ds, batch_size=per_process_batch(64), sampler=DistributedSampler(ds, shuffle=True), drop_last=True)
dl_val = DataLoader(ds_val, batch_size=per_process_batch(128), sampler=DistributedSampler(ds_val, shuffle=False))

# %% cell 2
for epoch in range(3):
    dl_train.sampler.set_epoch(epoch)
    dl_val.sampler.set_epoch(epoch)
    for x, y in tqdm(dl_train, desc='train', disable=not IS_MAIN):
        step(x, y)
    evaluate(dl_val)`,
  },
  {
    name: 'printing, display and saving on rank 0; a wrapped model saves .module',
    cells: [
      'model = nn.DataParallel(Net())\nprint("devices:", model.device_ids)\ndisplay(history)\nloss = 1.0\ntorch.save(model.state_dict(), "w.pt")\ntorch.save(model, "m.pt")\nhistory',
    ],
    expected: `# %% cell 1
model = DistributedDataParallel(Net().to(DEVICE), device_ids=DEVICE_IDS)
if IS_MAIN:
    print('devices:', model.device_ids)
    display(history)
loss = 1.0
if IS_MAIN:
    torch.save(model.module.state_dict(), 'w.pt')
    torch.save(model.module, 'm.pt')
    display(history)`,
  },
  {
    name: 'magics and shell lines are dropped; gpubook imports go',
    cells: [
      '!pip install torchkeras\n%matplotlib inline\nfrom gpubook import display, timeit\nimport torch',
      '%%time\nx = 1',
      '%%bash\nls -l',
      'if True:\n    !nvidia-smi',
    ],
    expected: `# %% cell 1
import torch

# %% cell 2
x = 1

# %% cell 4
if True:
    pass`,
  },
  {
    name: 'what cannot be translated stays after a # gpubook: note (or as a comment)',
    cells: [
      'import js\nresult = await js.fetch("data.csv")\nfrom torchkeras import KerasModel\nkm = KerasModel(net, loss_fn=None)\ndl = DataLoader(ds, batch_size=8, sampler=my_sampler)',
      'def broken(:\n    pass',
    ],
    expected: `# %% cell 1
# gpubook: a browser-only module: there is none outside the browser
import js
# gpubook: top-level await runs only in a notebook
# result = await js.fetch('data.csv')
from torchkeras import KerasModel
# gpubook: torchkeras.KerasModel runs its own loop (through accelerate), not DistributedDataParallel: launch it with accelerate
km = KerasModel(net, loss_fn=None)
# gpubook: a DataLoader with its own sampler (or no dataset argument) is not split
dl = DataLoader(ds, batch_size=8, sampler=my_sampler)

# %% cell 2
# gpubook: not valid Python (invalid syntax (line 1))
# def broken(:
#     pass`,
  },
];

describe('export_ddp: the ast rewrite', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const r = await exportCells(c.cells);
      expect(cellsOf(r.script)).toBe(c.expected);
    });
  }

  it('lists the dropped and untranslated lines for the dialog', async () => {
    const [magics, untranslatable] = [CASES[3].cells, CASES[4].cells];
    const dropped = (await exportCells(magics)).dropped;
    expect(dropped).toEqual([
      { cell: 1, line: 1, code: '!pip install torchkeras' },
      { cell: 1, line: 2, code: '%matplotlib inline' },
      { cell: 2, line: 1, code: '%%time' },
      { cell: 3, line: 1, code: '%%bash' },
      { cell: 4, line: 2, code: '!nvidia-smi' },
    ]);
    const listed = (await exportCells(untranslatable)).untranslated;
    expect(listed.map((u) => [u.cell, u.line, u.code])).toEqual([
      [1, 1, 'import js'],
      [1, 2, 'result = await js.fetch("data.csv")'],
      [1, 4, 'km = KerasModel(net, loss_fn=None)'],
      [1, 5, 'dl = DataLoader(ds, batch_size=8, sampler=my_sampler)'],
      [2, 1, 'def broken(:'],
    ]);
  });

  it('exports the weights of the module DataParallel wraps, loaded before wrapping', async () => {
    const cells = [
      'import torch\nfrom torch import nn\nhead = nn.Linear(3, 2)\nnet = nn.Sequential(nn.Linear(2, 3), nn.ReLU())\nparallel = nn.DataParallel(net, device_ids=[])\nother = nn.Linear(4, 4)',
    ];
    const r = await exportCells(cells, cells[0]);
    expect(r.model.name).toBe('parallel');
    expect(r.model.why).toContain('`parallel.module` (Sequential)');
    expect(cellsOf(r.script)).toContain(
      'parallel = DistributedDataParallel(load_weights(net).to(DEVICE), device_ids=DEVICE_IDS)',
    );
    expect(r.module).toBe('Sequential');
    expect(r.changes).toContain(
      "DataParallel's device_ids/output_device: each process uses its own device",
    );
    expect(r.requirements.split('\n')[0]).toBe('torch');
  });

  it('without DataParallel: the last-defined module, loaded after its definition', async () => {
    const cells = [
      'import torch\nfrom torch import nn\na = nn.Linear(2, 2)\nmodel = nn.Linear(2, 1)\nn = 3',
      'opt = torch.optim.SGD(model.parameters(), lr=0.1)',
    ];
    const r = await exportCells(cells, cells.join('\n'));
    expect(r.model.name).toBe('model');
    expect(cellsOf(r.script)).toContain('model = nn.Linear(2, 1)\nload_weights(model)\nn = 3');
  });

  it('the prelude sets the process group up from the environment', async () => {
    const { script } = await exportCells(['x = 1']);
    expect(script).toContain('torch.cuda.is_available() else "gloo", init_method="env://"');
    expect(script).toContain("params = {'size': 'test'}");
  });

  it('export_to_store leaves the report and the weights in the kernel file store', async () => {
    const cells = ['from torch import nn\nnet = nn.Linear(3, 2)'];
    await python.run(`
import json
import gpubook.export_ddp as _x
_ns = {}
exec(${JSON.stringify(cells[0])}, _ns)
_x.export_to_store(json.dumps(json.loads(${JSON.stringify(JSON.stringify(cells))})), _ns, json.dumps("My title"))
`);
    const store = getTensorStore();
    const report = JSON.parse(
      new TextDecoder().decode(await store.get('.export-ddp/report.json')),
    ) as Record<string, unknown>;
    expect(report.has_weights).toBe(true);
    expect(report.model).toEqual({
      name: 'net',
      why: '`net` (Linear), the last module the notebook defines',
    });
    expect(String(report.readme)).toMatch(/^# My title: DistributedDataParallel export/);
    const weights = await store.get('.export-ddp/weights.safetensors');
    expect(weights).toBeInstanceOf(Uint8Array);
    const headerLength = Number(new DataView(weights!.buffer).getBigUint64(0, true));
    const header = JSON.parse(
      new TextDecoder().decode(weights!.slice(8, 8 + headerLength)),
    ) as Record<string, { shape: number[] }>;
    expect(header.weight.shape).toEqual([2, 3]);
    expect(weights!.length).toBe(8 + headerLength + 4 * 8);
  });

  it('a MirroredStrategy notebook becomes a MultiWorkerMirroredStrategy script', async () => {
    const r = await exportCells([
      'import tensorflow as tf\nfrom tensorflow.keras import *\ngpus = tf.config.experimental.list_physical_devices("GPU")\nif gpus:\n    tf.config.experimental.set_virtual_device_configuration(gpus[0], [tf.config.experimental.VirtualDeviceConfiguration(memory_limit=1024)] * 2)',
      'strategy = tf.distribute.MirroredStrategy()\nprint("replicas in sync:", strategy.num_replicas_in_sync)\nwith strategy.scope():\n    model = create_model()\n    model.summary()',
      'history = model.fit(ds_train, epochs=2)\ntf.print(history.history["loss"])\nmodel.save_weights("w.h5")',
    ]);
    expect(r.framework).toBe('tensorflow');
    // The kernel holds no Keras model here (export-ddp-keras.test.ts exports one's weights): no
    // load_weights call, and the loader's input shape is unknown.
    expect(r.model).toEqual({
      name: null,
      why: 'the kernel holds no Keras model: run the notebook first',
    });
    expect(r.script).toContain('WEIGHTS_INPUT_SHAPE = None');
    expect(cellsOf(r.script)).not.toContain('load_weights(');
    expect(r.script).toContain('STRATEGY = tf.distribute.MultiWorkerMirroredStrategy()');
    expect(r.script).not.toContain('dist.destroy_process_group()');
    expect(cellsOf(r.script)).toBe(`# %% cell 1
import tensorflow as tf
from tensorflow.keras import *
gpus = tf.config.experimental.list_physical_devices('GPU')
if gpus:
    # gpubook: the browser's logical GPUs: each worker uses its machine's devices
    # tf.config.experimental.set_virtual_device_configuration(gpus[0], [tf.config.experimental.VirtualDeviceConfiguration(memory_limit=1024)] * 2)
    pass

# %% cell 2
strategy = STRATEGY
if IS_MAIN:
    print('replicas in sync:', strategy.num_replicas_in_sync)
with strategy.scope():
    model = create_model()
    model.summary()

# %% cell 3
history = model.fit(ds_train, epochs=2)
if IS_MAIN:
    tf.print(history.history['loss'])
model.save_weights(chief_path('w.h5'))`);
    // NumPy (the weights reader) comes with TensorFlow; the safetensors package is not used.
    expect(r.requirements).toBe('tensorflow\n');
  });
});
