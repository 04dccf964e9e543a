"""tf.GradientTape over the TS layer's tape (src/api/tf/gradient-tape.ts)."""

from torch import _bridge as b

from ._errors import call, translate
from ._tensor import _relabel, tf_js


class GradientTape:
    """``with tf.GradientTape() as tape:`` … ``tape.gradient(loss, variables)``. The engine
    records every operation on tensors that need gradients, so the ``with`` block only marks
    where the tape is used; ``watch`` makes a constant followed."""

    def __init__(self, persistent=False, watch_accessed_variables=True):
        try:
            self._js = b.new(tf_js.GradientTape, persistent=persistent)
        except Exception as error:  # noqa: BLE001  a JS error becomes TensorFlow's, anything else re-raised
            raise translate(error) if hasattr(error, "js_error") else error  # noqa: B904  keep the traceback as is

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def watch(self, tensor):
        call(self._js.watch, tensor)

    def reset(self):
        self._js.reset()

    def gradient(self, target, sources, output_gradients=None, unconnected_gradients=None):
        if isinstance(sources, dict):
            keys = list(sources)
            grads = self.gradient(target, [sources[k] for k in keys], output_gradients)
            return dict(zip(keys, grads))
        single = not isinstance(sources, (list, tuple))
        listed = [sources] if single else list(sources)
        grads = call(self._js.gradient, target, listed, output_gradients)
        grads = [_relabel(g) for g in grads]
        if single:
            return grads[0]
        return tuple(grads) if isinstance(sources, tuple) else grads
