"""Run by export-ddp-keras.test.ts in real Python (/usr/bin/python3 with NumPy, no TensorFlow) as
``python3 -c <this file> NAME``: reads its input as JSON on stdin and prints ``NAME(input)`` as
JSON. Checks of a Keras notebook's export made independently of our packages. A test fixture, not
an installed package.
"""

import ast
import base64
import json
import os
import struct
import sys

import numpy as np


def read_safetensors(data_base64):
    """The weights file read by NumPy on the header's offsets, checking the file's layout: each
    tensor's name, shape and values, in the file's order."""
    data = base64.b64decode(data_base64)
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    header.pop("__metadata__", None)
    out, end = [], 0
    for name, info in header.items():
        start, stop = info["data_offsets"]
        assert start == end and info["dtype"] == "F32"
        end = stop
        a = np.frombuffer(data[8 + n + start : 8 + n + stop], dtype="<f4").reshape(info["shape"])
        out.append({"name": name, "shape": list(a.shape), "values": a.reshape(-1).tolist()})
    assert 8 + n + end == len(data)
    return out


def forward(inputs):
    """The model's output by Keras's formulas on the weights read back (Embedding, Conv1D with
    ReLU, Flatten, Dense), for the input ``x``."""
    w = [np.array(v["values"], dtype=np.float64).reshape(v["shape"]) for v in inputs["weights"]]
    emb, k, kb, d, db = w
    h = emb[np.array(inputs["x"])]
    steps = h.shape[1] - k.shape[0] + 1
    conv = np.stack([np.einsum("bkc,kco->bo", h[:, t : t + k.shape[0]], k) for t in range(steps)], 1) + kb
    out = np.maximum(conv, 0).reshape(len(h), -1) @ d + db
    return out.tolist()


def load_with_stand_in(inputs):
    """train.py's loading code (``loader``, cut from the script) run without TensorFlow:
    ``load_weights`` on a stand-in for an unbuilt Keras model, from the ``folder`` holding
    weights.safetensors. Returns the shape it built the model with and the arrays it set."""
    namespace = dict(globals(), IS_MAIN=False, WEIGHTS_INPUT_SHAPE=ast.literal_eval(inputs["input_shape"]))
    exec(inputs["loader"], namespace)

    class Model:
        built = False

        def build(self, shape):
            self.built, self.shape = True, shape

        def set_weights(self, arrays):
            self.arrays = arrays

    m = namespace["load_weights"](Model(), os.path.join(inputs["folder"], "weights.safetensors"))
    return {
        "shape": m.shape,
        "weights": [{"shape": list(a.shape), "values": a.reshape(-1).tolist()} for a in m.arrays],
    }


if __name__ == "__main__":
    print(json.dumps(globals()[sys.argv[1]](json.load(sys.stdin))))
