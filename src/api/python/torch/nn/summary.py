"""torchsummary's table for a Python module: one forward pass on random inputs records each
layer's output shape and parameters (forward hooks on the leaf modules); the table is printed by
the engine's own formatter (engine/nn/summary.ts), so Python and TypeScript cells show the same."""

from .. import _bridge as b
from .._grad_mode import no_grad

_CONTAINERS = ("Sequential", "ModuleList", "ModuleDict")
_MB = 1024 * 1024


def _first_tensor(value):
    from .._tensor import Tensor

    if isinstance(value, Tensor):
        return value
    if isinstance(value, (list, tuple)):
        return next((v for v in value if isinstance(v, Tensor)), None)
    return None


def _numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def summary(model, input_shape=None, input_data=None):
    import torch

    if input_data is not None:
        inputs = list(input_data) if isinstance(input_data, (list, tuple)) else [input_data]
        shapes = [list(t.shape[1:]) for t in inputs]
    else:
        if not input_shape:
            raise TypeError("summary: give input_shape, e.g. input_shape=(1, 28, 28)")
        shapes = [list(s) for s in input_shape] if isinstance(input_shape[0], (list, tuple)) else [list(input_shape)]
        params = list(model.parameters())
        device = params[0].device if params else torch.device("cpu")
        inputs = [torch.rand(2, *shape, device=device) for shape in shapes]
    rows = []

    def record(module, _inputs, output):
        out = _first_tensor(output)
        own = [p for p in module._parameters.values() if p is not None]
        rows.append(
            {
                "layer": f"{type(module).__name__}-{len(rows) + 1}",
                "outputShape": [-1, *out.shape[1:]] if out is not None else [],
                "params": sum(p.numel() for p in own),
                "trainable": any(p.requires_grad for p in own),
            }
        )

    handles = [
        m.register_forward_hook(record)
        for m in model.modules()
        if m is not model and type(m).__name__ not in _CONTAINERS
    ]
    try:
        with no_grad():
            model(*inputs)
    finally:
        for h in handles:
            h.remove()
    total = sum(r["params"] for r in rows)
    trainable = sum(r["params"] for r in rows if r["trainable"])
    outputs = sum(abs(_numel(r["outputShape"])) for r in rows)
    input_mb = abs(sum(_numel(s) for s in shapes) * 4) / _MB
    forward_mb = 2 * outputs * 4 / _MB
    params_mb = total * 4 / _MB
    text = b.host.formatSummary(
        b.to_js_value(
            {
                "rows": rows,
                "totalParams": total,
                "trainableParams": trainable,
                "nonTrainableParams": total - trainable,
                "inputSizeMB": input_mb,
                "forwardBackwardSizeMB": forward_mb,
                "paramsSizeMB": params_mb,
                "totalSizeMB": input_mb + forward_mb + params_mb,
            }
        )
    )
    print(text)
