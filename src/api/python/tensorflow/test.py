"""tf.test: the GPU checks at the top of notebooks, from the TS layer's ``tf.test``
(src/api/tf/test-utils.ts). A GPU is a WebGPU adapter tf can place tensors on;
``is_built_with_cuda()`` is False because a browser reaches GPUs only through WebGPU."""

from ._js_object import JsObject as _JsObject
from ._tensor import tf_js as _tf

_names = _JsObject(_tf.test)


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    return _names.is_gpu_available()


def __getattr__(name):
    return getattr(_names, name)
