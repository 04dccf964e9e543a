/**
 * The weights of the DDP export: a Python state_dict that `torch.save` writes here as safetensors
 * (the engine's writer, src/engine/serialization/safetensors.ts) loads in real PyTorch (Debian's
 * 1.13, no `safetensors` package) with identical values, read by a reader written independently
 * in this test (NumPy's frombuffer on the header's offsets) and by the one train.py carries.
 */
import { describe, expect, it } from 'vitest';
import { getTensorStore } from '../../engine/serialization';
import { rng } from '../../engine/testing/harness';
import { startPython } from './testing/pyodide';
import { realTorchMissing, runRealTorch } from './testing/real-torch';

const python = await startPython();
const noTorch = realTorchMissing();

const rand = rng(77);
const values = (n: number) =>
  Array.from({ length: n }, () => (rand() * 2 - 1) * 10 ** (rand() * 6 - 3));

describe.skipIf(noTorch !== null)(
  `safetensors into real PyTorch${noTorch ? ` (skipped: ${noTorch})` : ''}`,
  () => {
    it('gives identical values, names, shapes and dtypes', async () => {
      const input = {
        'fc1.weight': { shape: [4, 3], values: values(12) },
        'fc1.bias': { shape: [4], values: values(4) },
        'conv.weight': { shape: [2, 1, 3, 3], values: values(18) },
        scale: { shape: [], values: values(1) },
      };
      const out = (await python.run(`
import json
from collections import OrderedDict
import torch
_input = json.loads(${JSON.stringify(JSON.stringify(input))})
_state = OrderedDict((k, torch.tensor(v["values"]).reshape(v["shape"])) for k, v in _input.items())
_state["steps"] = torch.tensor([3, -1, 2**20])
torch.save(_state, "export-weights.safetensors")
json.dumps({k: t.reshape(-1).tolist() for k, t in _state.items()})
`)) as string;
      const written = await getTensorStore().get('export-weights.safetensors');
      if (!written) throw new Error('torch.save wrote nothing');
      const ours = {
        bytes: Buffer.from(written).toString('base64'),
        values: JSON.parse(out) as Record<string, number[]>,
      };
      const real = runRealTorch(
        `
import base64, struct
import numpy as np
data = base64.b64decode(INPUT)
(n,) = struct.unpack("<Q", data[:8])
assert (8 + n) % 8 == 0
header = json.loads(data[8:8 + n])
meta = header.pop("__metadata__", {})
kinds = {"F32": "<f4", "I32": "<i4", "I64": "<i8"}
result, end = {}, 0
for name, info in header.items():
    start, stop = info["data_offsets"]
    assert start == end
    end = stop
    array = np.frombuffer(data[8 + n + start:8 + n + stop], dtype=kinds[info["dtype"]])
    t = torch.from_numpy(array.copy()).reshape(info["shape"])
    result[name] = {"dtype": str(t.dtype), "shape": list(t.shape), "values": t.reshape(-1).tolist()}
assert 8 + n + end == len(data)
print(json.dumps({"meta": meta, "tensors": result, "order": list(header)}))
`,
        ours.bytes,
      ) as {
        meta: Record<string, string>;
        order: string[];
        tensors: Record<string, { dtype: string; shape: number[]; values: number[] }>;
      };
      expect(real.meta.format).toBe('pt');
      expect(real.order).toEqual(['fc1.weight', 'fc1.bias', 'conv.weight', 'scale', 'steps']);
      for (const [name, spec] of Object.entries(input)) {
        expect(real.tensors[name].dtype).toBe('torch.float32');
        expect(real.tensors[name].shape).toEqual(spec.shape);
        // Bit for bit: both sides hold the same float32 values.
        expect(real.tensors[name].values).toEqual(ours.values[name]);
        expect(real.tensors[name].values).toEqual(spec.values.map((v) => Math.fround(v)));
      }
      expect(real.tensors.steps).toEqual({
        dtype: 'torch.int32',
        shape: [3],
        values: [3, -1, 2 ** 20],
      });

      // train.py's own reader (from the export's prelude) gives the same tensors.
      const prelude = (await python.run(
        'from gpubook._ddp_prelude import PRELUDE\nPRELUDE',
      )) as string;
      const reader = prelude.slice(
        prelude.indexOf('_DTYPES = {'),
        prelude.indexOf('def load_weights'),
      );
      const same = runRealTorch(
        `
import base64, os, struct, tempfile
${reader}
path = os.path.join(tempfile.mkdtemp(), "w.safetensors")
with open(path, "wb") as f:
    f.write(base64.b64decode(INPUT["bytes"]))
state = read_safetensors(path)
print(json.dumps({k: v.reshape(-1).tolist() for k, v in state.items()}))
`,
        ours,
      );
      expect(same).toEqual(ours.values);
    });
  },
);
