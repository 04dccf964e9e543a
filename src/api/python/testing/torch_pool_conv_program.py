"""The program torch-pool-conv.test.ts runs under our ``torch`` (Pyodide, on the cpu backend and on
WebGPU) and under real PyTorch (Debian's python3-torch, CPU): pooling (average, adaptive, max with
stride other than the kernel), padding, interpolation and convolution variants, their values, input
gradients and parameter gradients on the same random inputs and weights, and the modules' reprs.
It leaves them in ``RESULT``, which the test compares.

The test defines ``INPUT`` (``x``: input values, ``w``: upstream weights of the gradient, ``p``:
parameter values, each a flat list read from the start) and ``DEVICE`` under ours. A test fixture,
not an installed package.
"""

import torch
import torch.nn.functional as F
from torch import nn

INPUT = globals()["INPUT"]  # set by the test
DEVICE = globals().get("DEVICE", "cpu")  # set by the test under our torch


def numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def load(module):
    """Gives the module's parameters values from INPUT's ``p``, in order (PyTorch's inits differ)."""
    offset = 0
    with torch.no_grad():
        for param in module.parameters():
            n = param.numel()
            values = [v * 0.5 for v in INPUT["p"][offset : offset + n]]
            param.copy_(torch.tensor(values).reshape(param.shape))
            offset += n
    return module.to(DEVICE)


def run(fn, shape, module=None):
    """fn(x) on x of ``shape``: its values, x's gradient and the module's parameters' gradients
    under the weighted sum of the output (the weights make every output's gradient differ)."""
    x = torch.tensor(INPUT["x"][: numel(shape)]).reshape(shape).to(DEVICE).requires_grad_()
    y = fn(x)
    flat = y.reshape(-1)
    (flat * torch.tensor(INPUT["w"][: flat.shape[0]], device=DEVICE)).sum().backward()
    out = {"shape": list(y.shape), "y": flat.detach().cpu().tolist(), "grad": x.grad.reshape(-1).cpu().tolist()}
    if module is not None:
        for name, param in module.named_parameters():
            out["grad " + name] = param.grad.reshape(-1).cpu().tolist()
    return out


def weight(shape):
    """A fixed weight tensor of ``shape`` from INPUT's ``p`` (for the functional forms)."""
    return (torch.tensor(INPUT["p"][: numel(shape)]).reshape(shape) * 0.5).to(DEVICE)


def module_case(module, shape):
    m = load(module)
    return lambda: run(m, shape, m)


CASES = {
    # Average pooling: plain, strided, padded (counting the padding or not), ceil_mode, divisor.
    "nn.AvgPool2d(2)": lambda: run(nn.AvgPool2d(2), (2, 3, 6, 6)),
    "nn.AvgPool2d(3, 2, 1)": lambda: run(nn.AvgPool2d(3, 2, 1), (1, 2, 7, 6)),
    "nn.AvgPool2d(3, 2, 1, count_include_pad=False)": lambda: run(
        nn.AvgPool2d(3, 2, 1, count_include_pad=False), (1, 2, 7, 6)
    ),
    "nn.AvgPool2d((2, 3), 2, (1, 0), ceil_mode=True)": lambda: run(
        nn.AvgPool2d((2, 3), 2, (1, 0), ceil_mode=True), (2, 1, 6, 7)
    ),
    "nn.AvgPool2d(3, 2, 1, ceil_mode=True, count_include_pad=False)": lambda: run(
        nn.AvgPool2d(3, 2, 1, ceil_mode=True, count_include_pad=False), (1, 2, 6, 6)
    ),
    "F.avg_pool2d(divisor_override=3)": lambda: run(lambda t: F.avg_pool2d(t, 2, divisor_override=3), (1, 2, 4, 4)),
    "F.avg_pool2d unbatched": lambda: run(lambda t: F.avg_pool2d(t, 2, stride=1), (2, 3, 4)),
    "nn.AvgPool1d(3, 2, 1)": lambda: run(nn.AvgPool1d(3, 2, 1), (2, 3, 9)),
    "F.avg_pool1d(2)": lambda: run(lambda t: F.avg_pool1d(t, 2), (2, 5)),
    # Adaptive average pooling: global, uneven windows, a None size.
    "nn.AdaptiveAvgPool2d((1, 1))": lambda: run(nn.AdaptiveAvgPool2d((1, 1)), (2, 3, 5, 4)),
    "nn.AdaptiveAvgPool2d(3)": lambda: run(nn.AdaptiveAvgPool2d(3), (1, 2, 7, 5)),
    "nn.AdaptiveAvgPool2d((None, 2))": lambda: run(nn.AdaptiveAvgPool2d((None, 2)), (1, 2, 3, 5)),
    "F.adaptive_avg_pool2d((4, 6))": lambda: run(lambda t: F.adaptive_avg_pool2d(t, (4, 6)), (1, 1, 5, 4)),
    "nn.AdaptiveAvgPool1d(4)": lambda: run(nn.AdaptiveAvgPool1d(4), (2, 2, 7)),
    "F.adaptive_avg_pool1d(1)": lambda: run(lambda t: F.adaptive_avg_pool1d(t, 1), (2, 2, 5)),
    # Max pooling with overlapping windows and padding (ResNet's stem), and stride != kernel.
    "nn.MaxPool2d(3, stride=2, padding=1)": lambda: run(nn.MaxPool2d(3, stride=2, padding=1), (2, 2, 7, 8)),
    "nn.MaxPool2d(2, stride=1)": lambda: run(nn.MaxPool2d(2, stride=1), (1, 2, 5, 5)),
    "nn.MaxPool2d((3, 2), stride=(1, 3), padding=(1, 1))": lambda: run(
        nn.MaxPool2d((3, 2), stride=(1, 3), padding=(1, 1)), (1, 2, 5, 7)
    ),
    "nn.AdaptiveMaxPool2d((2, 3))": lambda: run(nn.AdaptiveMaxPool2d((2, 3)), (1, 2, 5, 7)),
    "F.adaptive_max_pool2d(1)": lambda: run(lambda t: F.adaptive_max_pool2d(t, 1), (2, 2, 3, 3)),
    "nn.MaxPool2d(3, 2, ceil_mode=True)": lambda: run(nn.MaxPool2d(3, 2, ceil_mode=True), (1, 2, 6, 8)),
    "F.max_pool2d(2, ceil_mode=True)": lambda: run(lambda t: F.max_pool2d(t, 2, ceil_mode=True), (1, 2, 5, 5)),
    "F.max_pool2d(3, 2, 1, ceil_mode=True)": lambda: run(
        lambda t: F.max_pool2d(t, 3, stride=2, padding=1, ceil_mode=True), (1, 1, 6, 7)
    ),
    "F.max_pool1d(2, ceil_mode=True)": lambda: run(lambda t: F.max_pool1d(t, 2, ceil_mode=True), (2, 2, 7)),
    "nn.AdaptiveMaxPool1d(3)": lambda: run(nn.AdaptiveMaxPool1d(3), (2, 2, 7)),
    "F.adaptive_max_pool1d(2) unbatched": lambda: run(lambda t: F.adaptive_max_pool1d(t, 2), (3, 5)),
    # Padding: constant (with a value, cropping by a negative pad), reflect, replicate, circular.
    "F.pad constant": lambda: run(lambda t: F.pad(t, (1, 2)), (2, 3, 4)),
    "F.pad constant value, crop": lambda: run(lambda t: F.pad(t, (-1, 2, 1, 0), value=1.5), (1, 2, 3, 4)),
    "F.pad 3 dims": lambda: run(lambda t: F.pad(t, (1, 0, 0, 1, 2, 1)), (1, 2, 2, 3)),
    "F.pad reflect": lambda: run(lambda t: F.pad(t, (2, 1, 1, 2), mode="reflect"), (1, 2, 3, 4)),
    "F.pad replicate": lambda: run(lambda t: F.pad(t, (3, 1, 0, 2), mode="replicate"), (2, 1, 3, 3)),
    "F.pad circular": lambda: run(lambda t: F.pad(t, (1, 2), mode="circular"), (2, 2, 4)),
    "F.pad reflect 1-D": lambda: run(lambda t: F.pad(t, (3, 2), mode="reflect"), (2, 5)),
    "nn.ZeroPad2d((1, 0, 2, 1))": lambda: run(nn.ZeroPad2d((1, 0, 2, 1)), (1, 2, 3, 3)),
    "nn.ReflectionPad2d(1)": lambda: run(nn.ReflectionPad2d(1), (1, 2, 3, 3)),
    "nn.ReplicationPad1d((2, 1))": lambda: run(nn.ReplicationPad1d((2, 1)), (2, 3, 3)),
    "nn.ConstantPad2d(1, -2.0)": lambda: run(nn.ConstantPad2d(1, -2.0), (1, 1, 2, 3)),
    # Interpolation: nearest (2x, uneven, downsampling, a given factor), linear and bilinear
    # with and without align_corners, by size and by factor.
    "nn.Upsample(scale_factor=2)": lambda: run(nn.Upsample(scale_factor=2), (1, 2, 3, 4)),
    "F.interpolate nearest size": lambda: run(lambda t: F.interpolate(t, size=(5, 7)), (1, 2, 3, 4)),
    "F.interpolate nearest down": lambda: run(lambda t: F.interpolate(t, size=(2, 3)), (1, 2, 5, 7)),
    "F.interpolate nearest 1.7": lambda: run(lambda t: F.interpolate(t, scale_factor=1.7), (1, 2, 3, 4)),
    "F.interpolate nearest 1-D": lambda: run(lambda t: F.interpolate(t, size=7), (2, 2, 3)),
    "nn.Upsample bilinear": lambda: run(nn.Upsample(scale_factor=2, mode="bilinear"), (1, 2, 3, 4)),
    "nn.Upsample bilinear align_corners": lambda: run(
        nn.Upsample(size=(5, 7), mode="bilinear", align_corners=True), (2, 1, 3, 4)
    ),
    "F.interpolate bilinear down": lambda: run(
        lambda t: F.interpolate(t, size=(2, 3), mode="bilinear", align_corners=False), (1, 2, 5, 7)
    ),
    "F.interpolate bilinear 1.5": lambda: run(
        lambda t: F.interpolate(t, scale_factor=(1.5, 2.5), mode="bilinear"), (1, 1, 4, 3)
    ),
    "F.interpolate bilinear recompute": lambda: run(
        lambda t: F.interpolate(t, scale_factor=1.5, mode="bilinear", recompute_scale_factor=True), (1, 1, 3, 5)
    ),
    "F.interpolate linear": lambda: run(lambda t: F.interpolate(t, size=8, mode="linear"), (2, 2, 5)),
    "F.interpolate linear align_corners": lambda: run(
        lambda t: F.interpolate(t, scale_factor=3, mode="linear", align_corners=True), (1, 2, 4)
    ),
    "nn.UpsamplingBilinear2d": lambda: run(nn.UpsamplingBilinear2d(scale_factor=2), (1, 2, 3, 3)),
    "F.interpolate nearest-exact": lambda: run(
        lambda t: F.interpolate(t, size=(5, 3), mode="nearest-exact"), (1, 2, 3, 4)
    ),
    "F.interpolate nearest-exact 1-D": lambda: run(
        lambda t: F.interpolate(t, scale_factor=2, mode="nearest-exact"), (2, 1, 3)
    ),
    "F.interpolate area": lambda: run(lambda t: F.interpolate(t, size=(2, 3), mode="area"), (1, 2, 5, 7)),
    "F.interpolate area 0.5": lambda: run(lambda t: F.interpolate(t, scale_factor=0.5, mode="area"), (1, 2, 4, 6)),
    "nn.UpsamplingNearest2d": lambda: run(nn.UpsamplingNearest2d(size=(4, 5)), (1, 2, 3, 3)),
    # Convolutions: dilation, groups (depthwise and grouped), transposed (strided, padded, output
    # padding, groups, dilation, no bias), and the functional forms with weight tensors.
    "nn.Conv2d dilation": module_case(nn.Conv2d(2, 3, 3, padding=2, dilation=2), (2, 2, 5, 6)),
    "nn.Conv2d depthwise": module_case(nn.Conv2d(4, 4, 3, padding=1, groups=4), (2, 4, 5, 5)),
    "nn.Conv2d depthwise x2 strided": module_case(nn.Conv2d(3, 6, 3, stride=2, groups=3, bias=False), (1, 3, 7, 6)),
    "nn.Conv2d groups=2 dilation": module_case(
        nn.Conv2d(4, 6, (3, 2), padding=(2, 1), dilation=2, groups=2), (2, 4, 5, 5)
    ),
    "nn.Conv1d groups=2": module_case(nn.Conv1d(4, 2, 3, padding=1, groups=2), (2, 4, 6)),
    "nn.Conv2d padding_mode=reflect": module_case(
        nn.Conv2d(2, 3, 3, padding=(1, 2), padding_mode="reflect"), (1, 2, 4, 5)
    ),
    "nn.Conv2d padding_mode=circular": module_case(
        nn.Conv2d(2, 2, 3, padding=1, padding_mode="circular"), (1, 2, 4, 4)
    ),
    "nn.Conv1d padding_mode=replicate": module_case(nn.Conv1d(2, 2, 3, padding=2, padding_mode="replicate"), (2, 2, 5)),
    "nn.Conv2d padding=same, even kernel": module_case(nn.Conv2d(2, 2, (2, 4), padding="same"), (1, 2, 5, 6)),
    "nn.Conv1d padding=same, reflect": module_case(
        nn.Conv1d(2, 3, 4, padding="same", padding_mode="reflect"), (2, 2, 6)
    ),
    "nn.ConvTranspose2d(4, 2, 3, stride=2)": module_case(nn.ConvTranspose2d(4, 2, 3, stride=2), (2, 4, 3, 3)),
    "nn.ConvTranspose2d padded, output_padding": module_case(
        nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, output_padding=1), (1, 3, 4, 3)
    ),
    "nn.ConvTranspose2d stride 1": module_case(nn.ConvTranspose2d(2, 3, (2, 3), padding=(0, 1)), (2, 2, 3, 4)),
    "nn.ConvTranspose2d groups, dilation, no bias": module_case(
        nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1, groups=2, bias=False, dilation=2),
        (1, 4, 3, 3),
    ),
    "nn.ConvTranspose2d(4, 2, 2, stride=2) unbatched": module_case(nn.ConvTranspose2d(4, 2, 2, stride=2), (4, 3, 2)),
    "nn.ConvTranspose1d": module_case(nn.ConvTranspose1d(2, 3, 4, stride=2, padding=1), (2, 2, 5)),
    "F.conv2d groups": lambda: run(lambda t: F.conv2d(t, weight((4, 1, 3, 3)), None, 1, 1, 1, 2), (1, 2, 4, 4)),
    "F.conv_transpose2d": lambda: run(
        lambda t: F.conv_transpose2d(t, weight((3, 2, 3, 3)), weight((2,)), stride=2, padding=1), (1, 3, 3, 4)
    ),
    "F.unfold": lambda: run(lambda t: F.unfold(t, (2, 3), padding=1, stride=(1, 2)), (2, 2, 4, 5)),
    "F.fold": lambda: run(lambda t: F.fold(t, (4, 5), (2, 3), padding=1, stride=(1, 2)), (2, 12, 15)),
    "nn.Unfold(2, dilation=2, stride=2)": lambda: run(nn.Unfold(2, dilation=2, stride=2), (1, 2, 5, 6)),
    "nn.Fold((3, 4), 2)": lambda: run(nn.Fold((3, 4), 2), (1, 8, 6)),
    "F.upsample_bilinear": lambda: run(lambda t: F.upsample_bilinear(t, scale_factor=2), (1, 1, 3, 3)),
    "F.upsample_nearest": lambda: run(lambda t: F.upsample_nearest(t, size=(5, 4)), (1, 1, 2, 3)),
    "F.upsample": lambda: run(lambda t: F.upsample(t, scale_factor=2, mode="bilinear"), (1, 1, 2, 3)),
}

REPRS = [
    nn.AvgPool2d(2),
    nn.AvgPool2d((2, 3), stride=1, padding=1, count_include_pad=False, ceil_mode=True),
    nn.AvgPool1d(3),
    nn.AvgPool1d(3, 2, 1),
    nn.AdaptiveAvgPool2d((1, 1)),
    nn.AdaptiveAvgPool2d(3),
    nn.AdaptiveAvgPool2d((None, 2)),
    nn.AdaptiveAvgPool1d(4),
    nn.MaxPool2d(3, stride=2, padding=1),
    nn.MaxPool2d(2, ceil_mode=True),
    nn.Upsample(scale_factor=2),
    nn.Upsample(size=(4, 5), mode="bilinear", align_corners=True),
    nn.Upsample(size=4),
    nn.Upsample(scale_factor=(1.5, 2)),
    nn.UpsamplingNearest2d(scale_factor=2),
    nn.UpsamplingBilinear2d(size=3),
    nn.ZeroPad2d(2),
    nn.ZeroPad2d((1, 0, 2, 1)),
    nn.ReflectionPad2d(1),
    nn.ReplicationPad2d((1, 2, 0, 1)),
    nn.ReflectionPad1d(2),
    nn.ConstantPad2d(1, 3.5),
    nn.ConstantPad1d((1, 2), -1.5),
    nn.Sequential(nn.Conv2d(1, 2, 3), nn.AvgPool2d(2), nn.AdaptiveAvgPool2d(1)),
    nn.Conv2d(4, 4, 3, groups=4, dilation=2, padding=2),
    nn.Conv2d(4, 8, 1, groups=2, bias=False),
    nn.ConvTranspose2d(4, 2, 3, stride=2),
    nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1, bias=False, dilation=2, groups=2),
    nn.ConvTranspose1d(3, 3, 2),
    nn.Conv2d(2, 3, 3, padding=1, padding_mode="reflect"),
    nn.Conv1d(2, 3, 4, padding="same"),
    nn.Unfold((2, 3)),
    nn.Unfold(2, padding=1, stride=2),
    nn.Fold((4, 5), (2, 3)),
    nn.Fold(4, 2, dilation=1, padding=1, stride=(1, 2)),
    nn.AdaptiveMaxPool1d(3),
    nn.AdaptiveMaxPool2d((2, None)),
]

RESULT = {
    "cases": {name: case() for name, case in CASES.items()},
    "reprs": [repr(m) for m in REPRS],
    "shapes": {
        "depthwise weight": list(nn.Conv2d(4, 4, 3, groups=4).weight.shape),
        "transposed weight": list(nn.ConvTranspose2d(4, 6, 3, groups=2).weight.shape),
        "output_size": list(
            nn.ConvTranspose2d(2, 2, 3, stride=2)
            .to(DEVICE)(torch.ones(1, 2, 4, 4, device=DEVICE), output_size=[10, 9])
            .shape
        ),
    },
}
