"""tf.config: the engine's devices as TensorFlow lists and configures them (src/api/tf-config.ts).
Configuring after the devices were initialised raises RuntimeError, as TensorFlow does."""

from torch import _bridge as b

from ._errors import call as _call
from ._tensor import tf_js

_config = tf_js.config


class _Device:
    __slots__ = ("_js",)
    _kind = "PhysicalDevice"

    def __init__(self, js):
        self._js = js

    @property
    def name(self):
        return self._js.name

    @property
    def device_type(self):
        return self._js.deviceType

    def _js_value(self):
        return self._js

    def __repr__(self):
        return f"{self._kind}(name='{self.name}', device_type='{self.device_type}')"

    def __eq__(self, other):
        return isinstance(other, _Device) and (self._kind, self.name) == (other._kind, other.name)

    def __hash__(self):
        return hash((self._kind, self.name))


class PhysicalDevice(_Device):
    __slots__ = ()


class LogicalDevice(_Device):
    __slots__ = ()
    _kind = "LogicalDevice"


class LogicalDeviceConfiguration:
    """One logical device of a physical GPU; ``memory_limit`` in MiB."""

    def __init__(self, memory_limit=None, experimental_priority=None, experimental_device_ordinal=None):
        self.memory_limit = memory_limit
        self.experimental_priority = experimental_priority
        self.experimental_device_ordinal = experimental_device_ordinal

    def _js_value(self):
        return b.new(
            _config.LogicalDeviceConfiguration,
            memory_limit=self.memory_limit,
            experimental_priority=self.experimental_priority,
            experimental_device_ordinal=self.experimental_device_ordinal,
        )

    def __repr__(self):
        return f"LogicalDeviceConfiguration(memory_limit={self.memory_limit})"


def _devices(cls, js_list):
    return [cls(d) for d in js_list]


def list_physical_devices(device_type=None):
    return _devices(PhysicalDevice, _call(_config.listPhysicalDevices, device_type))


def list_logical_devices(device_type=None):
    return _devices(LogicalDevice, _call(_config.listLogicalDevices, device_type))


def get_visible_devices(device_type=None):
    return _devices(PhysicalDevice, _call(_config.getVisibleDevices, device_type))


def set_visible_devices(devices, device_type=None):
    _call(_config.setVisibleDevices, devices, device_type)


def set_logical_device_configuration(device, logical_devices):
    _call(_config.setLogicalDeviceConfiguration, device, logical_devices)


def get_logical_device_configuration(device):
    configs = _call(_config.getLogicalDeviceConfiguration, device)
    if configs is None:
        return None
    return [LogicalDeviceConfiguration(memory_limit=c.memoryLimit) for c in configs]


class _Experimental:
    VirtualDeviceConfiguration = LogicalDeviceConfiguration
    list_physical_devices = staticmethod(list_physical_devices)
    list_logical_devices = staticmethod(list_logical_devices)
    set_visible_devices = staticmethod(set_visible_devices)
    get_visible_devices = staticmethod(get_visible_devices)
    set_virtual_device_configuration = staticmethod(set_logical_device_configuration)
    get_virtual_device_configuration = staticmethod(get_logical_device_configuration)

    @staticmethod
    def set_memory_growth(device, enable):
        _call(_config.experimental.setMemoryGrowth, device, enable)

    @staticmethod
    def get_memory_growth(device):
        return bool(_call(_config.experimental.getMemoryGrowth, device))

    @staticmethod
    def get_memory_info(device):
        info = _call(_config.experimental.getMemoryInfo, device)
        return {"current": info.current, "peak": info.peak}


experimental = _Experimental()
