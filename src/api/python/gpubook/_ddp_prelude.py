"""The fixed text at the top of an exported script (see ``export_ddp``): for PyTorch the process
group, the process's device and the weights reader; for TensorFlow the MultiWorkerMirroredStrategy
from TF_CONFIG and a NumPy weights reader; for both, plain equivalents of gpubook's helpers."""

PRELUDE = '''\
import json
import os
import struct
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data.distributed import DistributedSampler

# One process per device. torchrun sets these; a plain `python train.py` is one process.
os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29500")
os.environ.setdefault("RANK", "0")
os.environ.setdefault("WORLD_SIZE", "1")
RANK = int(os.environ["RANK"])
WORLD_SIZE = int(os.environ["WORLD_SIZE"])
LOCAL_RANK = int(os.environ.get("LOCAL_RANK", RANK))
IS_MAIN = RANK == 0
if torch.cuda.is_available():
    torch.cuda.set_device(LOCAL_RANK)
    DEVICE = torch.device("cuda", LOCAL_RANK)
else:
    DEVICE = torch.device("cpu")
DEVICE_IDS = [LOCAL_RANK] if DEVICE.type == "cuda" else None
dist.init_process_group("nccl" if torch.cuda.is_available() else "gloo", init_method="env://")


def per_process_batch(global_batch):
    """Each process takes its share of the notebook's batch, so a step still sees all of it."""
    if global_batch % WORLD_SIZE and IS_MAIN:
        print(f"note: batch {global_batch} does not split evenly over {WORLD_SIZE} processes")
    return max(1, global_batch // WORLD_SIZE)


_DTYPES = {
    "F64": torch.float64, "F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16,
    "I64": torch.int64, "I32": torch.int32, "I16": torch.int16, "I8": torch.int8,
    "U8": torch.uint8, "BOOL": torch.bool,
}


def read_safetensors(path):
    """A .safetensors file as a state_dict: the safetensors package when installed, else this
    reader (8-byte little-endian header length, JSON header, raw little-endian data)."""
    try:
        from safetensors.torch import load_file
    except ImportError:
        load_file = None
    if load_file is not None:
        return load_file(path)
    with open(path, "rb") as f:
        data = f.read()
    (size,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + size])
    header.pop("__metadata__", None)
    state = {}
    for name, info in header.items():
        start, end = info["data_offsets"]
        raw = bytearray(data[8 + size + start : 8 + size + end])
        dtype = _DTYPES[info["dtype"]]
        flat = torch.frombuffer(raw, dtype=dtype) if raw else torch.empty(0, dtype=dtype)
        state[name] = flat.reshape(info["shape"]).clone()
    return state


def load_weights(module, path="weights.safetensors"):
    """Continues from the notebook's weights when the file is there."""
    if os.path.exists(path):
        module.load_state_dict(read_safetensors(path))
        if IS_MAIN:
            print(f"loaded {path}")
    return module


def _sync():
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def _devices():
    return [torch.device("cpu")] + [torch.device("cuda", i) for i in range(torch.cuda.device_count())]


'''

TF_PRELUDE = """\
import json
import os
import struct
import tempfile
import time

import numpy as np
import tensorflow as tf

# One process per machine. TF_CONFIG names every worker and this one, e.g.
# {"cluster": {"worker": ["host1:12345", "host2:12345"]}, "task": {"type": "worker", "index": 0}}
# Without it this is one worker. The strategy must exist before any other TensorFlow op.
STRATEGY = tf.distribute.MultiWorkerMirroredStrategy()
_CONFIG = json.loads(os.environ.get("TF_CONFIG", "{}"))
_TASK = _CONFIG.get("task", {})
# The chief (worker 0 when the cluster names no chief) prints and keeps what is saved.
if "chief" in _CONFIG.get("cluster", {}):
    IS_MAIN = _TASK.get("type") == "chief"
else:
    IS_MAIN = _TASK.get("index", 0) == 0


def chief_path(path):
    \"\"\"Every worker saves (saving is collective); the others into a temporary folder.\"\"\"
    if IS_MAIN:
        return path
    return os.path.join(tempfile.mkdtemp(), os.path.basename(str(path)))


_NP_DTYPES = {
    "F64": "<f8", "F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4", "I16": "<i2",
    "I8": "i1", "U8": "u1", "BOOL": "?",
}


def read_safetensors(path):
    \"\"\"A .safetensors file as NumPy arrays by name (8-byte little-endian header length, JSON
    header, raw little-endian data).\"\"\"
    with open(path, "rb") as f:
        data = f.read()
    (size,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + size])
    header.pop("__metadata__", None)
    arrays = {}
    for name, info in header.items():
        start, end = info["data_offsets"]
        flat = np.frombuffer(data[8 + size + start : 8 + size + end], dtype=_NP_DTYPES[info["dtype"]])
        arrays[name] = flat.reshape(info["shape"]).copy()
    return arrays


def keras_weights(path):
    \"\"\"The arrays in Keras's get_weights() order: names are "NNN/layer/weight", NNN the index.\"\"\"
    arrays = read_safetensors(path)
    return [arrays[n] for n in sorted(arrays, key=lambda n: int(n.split("/", 1)[0]))]


def load_weights(model, path="weights.safetensors"):
    \"\"\"Continues from the notebook's weights when the file is there. A model without an input
    shape has no weights until built: it is built with the notebook's input shape first.\"\"\"
    if os.path.exists(path):
        if not model.built:
            if WEIGHTS_INPUT_SHAPE is None:
                raise RuntimeError(f"build the model before loading {path}: its input shape is unknown")
            model.build(WEIGHTS_INPUT_SHAPE)
        model.set_weights(keras_weights(path))
        if IS_MAIN:
            print(f"loaded {path}")
    return model


def _sync():
    pass


def _devices():
    return ["/cpu:0"] + [f"/gpu:{i}" for i in range(len(tf.config.list_logical_devices("GPU")))]
"""

# gpubook's helpers, after either prelude.
HELPERS = '''\
# gpubook's notebook helpers, as plain Python (text instead of tables and charts).
def display(value, **options):
    if not IS_MAIN:
        return
    if isinstance(value, dict) and value and all(isinstance(v, (list, tuple)) for v in value.values()):
        names = list(value)
        print("  ".join(str(n) for n in names))
        for row in zip(*value.values()):
            print("  ".join(str(v) for v in row))
    else:
        print(value)


def timeit(fn, repeat=5, warmup=1):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        _sync()
        start = time.perf_counter()
        fn()
        _sync()
        times.append(time.perf_counter() - start)
    times.sort()
    median = times[len(times) // 2]
    if IS_MAIN:
        print(f"{median * 1e3:.3f} ms (median of {repeat}; {times[0] * 1e3:.3f} to {times[-1] * 1e3:.3f} ms)")
    return median


def compare_devices(fn, repeat=3, warmup=1, title=None):
    rows = []
    for device in _devices():
        seconds = timeit(lambda: fn(device), repeat=repeat, warmup=warmup)
        rows.append({"device": str(device), "seconds": seconds, "speedup": rows[0]["seconds"] / seconds if rows else 1.0})
    display({k: [r[k] for r in rows] for k in ("device", "seconds", "speedup")})
    return rows


def plot_metric(history, metric):
    if IS_MAIN:
        for name in (metric, "val_" + metric):
            if name in history:
                print(name, list(history[name]))


def auto_chart(enabled=True, names=None):
    """The notebook's live loop chart; a script draws none."""

'''  # noqa: E501  train.py's text, as written

EPILOGUE = """
dist.destroy_process_group()
"""
