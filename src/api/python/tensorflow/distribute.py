"""tf.distribute over the TS layer's MirroredStrategy (src/api/distribute/): a model built and
compiled in ``with strategy.scope():`` trains on every logical GPU in ``fit``."""

from ._js_object import JsClass, JsObject, JsScope, wrap
from ._tensor import tf_js

_distribute = tf_js.distribute


class MirroredStrategy(JsObject):
    """``tf.distribute.MirroredStrategy(devices=None, cross_device_ops=None)``."""

    __slots__ = ()

    def __init__(self, devices=None, cross_device_ops=None):
        made = JsClass(_distribute.MirroredStrategy)(devices, cross_device_ops=cross_device_ops)
        JsObject.__init__(self, made._js)

    def scope(self):
        return JsScope(lambda fn: self._js.scope(fn), self)


ReductionToOneDevice = JsClass(_distribute.ReductionToOneDevice)
HierarchicalCopyAllReduce = JsClass(_distribute.HierarchicalCopyAllReduce)
NcclAllReduce = JsClass(_distribute.NcclAllReduce)


def get_strategy():
    return wrap(_distribute.getStrategy())


def has_strategy():
    return bool(_distribute.hasStrategy())
