"""A ``state_dict`` as a ``.safetensors`` file (Hugging Face's format), written without the package.

The format: an 8-byte little-endian header length, a JSON header
``{name: {"dtype", "shape", "data_offsets": [start, end]}}`` (plus an optional ``__metadata__``),
then every tensor's raw little-endian bytes, back to back, in the header's order. The engine keeps
float32 and int32; integer tensors are written as ``I64``, PyTorch's ``torch.int64``, which is
what our ``int64`` tensors stand for.
"""

import json
import struct
import sys
from array import array

from torch import _bridge as b

__all__ = ["state_dict_bytes"]

# Pyodide's WebAssembly is little-endian, as the format is.
assert sys.byteorder == "little"


def _tensor_bytes(tensor):
    """(dtype name, shape, bytes) of one tensor, read back from the engine once."""
    shape = list(tensor.shape)
    values = b.wait(tensor._js.data())
    raw = values.to_bytes()
    if tensor.dtype.is_floating_point:
        return "F32", shape, raw
    if tensor._bool:
        return "BOOL", shape, bytes(array("i", raw).tolist())
    return "I64", shape, array("q", array("i", raw)).tobytes()


def state_dict_bytes(state_dict, metadata=None):
    """The bytes of a ``.safetensors`` file holding ``state_dict`` (names kept, in order)."""
    header = {}
    chunks = []
    offset = 0
    for name, tensor in state_dict.items():
        dtype, shape, raw = _tensor_bytes(tensor)
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(raw)]}
        chunks.append(raw)
        offset += len(raw)
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    # The header is padded with spaces to a multiple of 8, as the reference writer does, so the
    # data that follows is aligned.
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(chunks)
