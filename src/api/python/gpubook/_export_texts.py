"""The README.md and requirements.txt of a DistributedDataParallel (or MultiWorkerMirroredStrategy)
export (``export_ddp``)."""

import ast

__all__ = ["readme", "readme_tf", "requirements"]

# Import roots → the pip package that provides them (only those our notebooks can import).
_PACKAGES = {
    "torch": "torch",
    "torchvision": "torchvision",
    "torchmetrics": "torchmetrics",
    "torchkeras": "torchkeras",
    "tqdm": "tqdm",
    "accelerate": "accelerate",
    "tensorflow": "tensorflow",
}


def requirements(script):
    """The packages ``script`` imports, one a line, plus (PyTorch) the optional safetensors reader."""
    roots = []
    for node in ast.walk(ast.parse(script)):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module]
        for name in names:
            package = _PACKAGES.get(name.split(".")[0])
            if package and package not in roots:
                roots.append(package)
    # A TensorFlow script reads the file with NumPy, which TensorFlow installs.
    optional = ["# optional: train.py reads weights.safetensors without it", "safetensors"]
    lines = roots + (optional if "torch" in roots else [])
    return "\n".join(lines) + "\n"


def readme(title, model_name, why, has_weights):
    weights = (
        f"`weights.safetensors` holds the notebook's current `state_dict` of {why}, with PyTorch's "
        "names; `train.py` loads it (through the `safetensors` package when installed, else its "
        "own small reader) so training continues where the browser left off."
        if has_weights
        else "No weights are included: the kernel held no `nn.Module` when you exported "
        "(run the notebook first). `train.py` starts from fresh weights."
    )
    return f"""# {title}: DistributedDataParallel export

Exported by gpubook. `train.py` is the notebook's code cells, rewritten for real PyTorch
`DistributedDataParallel`, one process per device.

{weights}

## Install

    pip install -r requirements.txt

PyTorch 1.13 or newer. NCCL (the GPU backend) comes with PyTorch's CUDA builds; without CUDA
the processes use gloo on the CPU.

## Launch

One machine, N processes (one per GPU):

    torchrun --nproc_per_node=N train.py

Several machines: the same on each, with `--nnodes=M --node_rank=K --master_addr=HOST
--master_port=PORT`.

Launchers without torchrun: start one process per device with the plain environment

    MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 RANK=0 WORLD_SIZE=2 python train.py &
    MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 RANK=1 WORLD_SIZE=2 python train.py

(`LOCAL_RANK`, when set, picks the GPU; otherwise `RANK` does.) `python train.py` alone is
one process.

## What changed

- `init_process_group` from the environment: backend `nccl` when CUDA is available, else `gloo`.
- `nn.DataParallel(m)` became `DistributedDataParallel(m.to(DEVICE), device_ids=DEVICE_IDS)` on
  the process's own device; `"cuda:N"` device strings and `x.cuda()` became `DEVICE` (the CPU
  without CUDA), `torch.cuda.synchronize()` a `_sync()` that does nothing without CUDA.
- Every `DataLoader` got a `DistributedSampler` and a per-process batch size (the notebook's
  batch divided by the number of processes, so one step still covers the notebook's batch);
  epoch loops call `loader.sampler.set_epoch(epoch)`.
- Printing, `display`, progress bars and `torch.save` happen on rank 0 only; a saved
  `state_dict` is the wrapped module's (`.module`), so it loads into a plain model.
- gpubook's `display`, `timeit`, `compare_devices`, `plot_metric` and `params` are plain Python
  functions at the top of `train.py` (text instead of tables and charts).
- `!pip` and `%magic` lines were dropped. Lines that could not be translated are kept after a
  `# gpubook:` comment saying why.

## What stays

The notebook's model, loss, optimizer, data and loops. Bundled datasets are the real calls
(`torchvision.datasets.MNIST(...)` downloads MNIST on first use). The optimizer starts fresh:
its state (momentum, Adam's moments) is not exported. Tensors that are not in a `DataLoader` are
not split: every process uses all of them (the averaged gradient is the same). The notebook's
comments are not in `train.py` (it is written back from Python's `ast`, which keeps none).
"""


def readme_tf(title, model_name, why, has_weights):
    weights = (
        f"`weights.safetensors` holds the current weights of {why}, in the order of Keras's "
        "`model.get_weights()` (names `NNN/layer/weight`, NNN the index) and Keras's layout; "
        "`train.py` reads them with NumPy and calls `model.set_weights` right after the model is "
        "made inside `strategy.scope()`, so training continues where the browser left off."
        if has_weights
        else f"No weights are included ({why}): `train.py` starts from fresh weights."
    )
    return f"""# {title}: MultiWorkerMirroredStrategy export

Exported by gpubook. `train.py` is the notebook's code cells, rewritten for TensorFlow's
`tf.distribute.MultiWorkerMirroredStrategy`: one process per machine, each using all of its
machine's GPUs, the batch split over all of them.

{weights} Not tested against TensorFlow itself: gpubook's CI has no TensorFlow package (the
reader and the file are tested with NumPy).

## Install

    pip install -r requirements.txt

TensorFlow 2 (its GPU build for GPUs).

## Launch

Each worker reads `TF_CONFIG`: the addresses of all workers, and which one it is. On two
machines:

    # on host1
    TF_CONFIG='{{"cluster": {{"worker": ["host1:12345", "host2:12345"]}}, "task": {{"type": "worker", "index": 0}}}}' python train.py
    # on host2
    TF_CONFIG='{{"cluster": {{"worker": ["host1:12345", "host2:12345"]}}, "task": {{"type": "worker", "index": 1}}}}' python train.py

Every worker must be started; training begins when all have joined. Worker 0 (or the `chief`,
when the cluster names one) prints and keeps what is saved. Without `TF_CONFIG`, `python
train.py` is one worker.

## What changed

- The one `MultiWorkerMirroredStrategy` is made first (TensorFlow requires it before any other
  op); the notebook's `tf.distribute.MirroredStrategy()` is that strategy, so
  `with strategy.scope():` builds the model on every worker.
- The browser's split of one GPU into logical GPUs is left as a comment.
- `load_weights(model)` follows the line that makes the exported model (building it first with
  the notebook's input shape when it has none).
- Printing (`print`, `tf.print`, `display`) happens on the chief; `model.save` and
  `save_weights` run on every worker (saving is collective), the others into a temporary folder.
- gpubook's `display`, `timeit`, `compare_devices`, `plot_metric` and `params` are plain Python
  functions at the top of `train.py`; `!pip` and `%magic` lines were dropped; lines that could not
  be translated are kept after a `# gpubook:` comment saying why.

## What stays

The model, loss, optimizer, data pipeline and `fit` (the optimizer's state starts fresh): `tf.data` shards the data between workers
by itself, and the batch size is the global one. Bundled datasets are the real Keras calls
(`tf.keras.datasets.reuters.load_data()` downloads Reuters). The notebook's comments are not in
`train.py` (it is written back from Python's `ast`, which keeps none).
"""  # noqa: E501  README text, as written (its shell commands cannot wrap)
