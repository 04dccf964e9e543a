"""The float64 reference of keras-boilerplate.test.ts's activations table, run under Debian's
CPython with NumPy: Keras's documented activation formulas (Keras 3's relu with negative_slope,
max_value and threshold; elu; selu's constants; exact and tanh gelu; silu; softsign; relu6; mish;
leaky_relu's 0.2; hard_silu; softmax; exponential) and their derivatives. A test fixture."""

import math

import numpy as np

INPUT = globals()["INPUT"]  # set by the runner
x = np.array(INPUT["x"], dtype=np.float64)
g = np.array(INPUT["upstream"], dtype=np.float64)
kernel = np.array(INPUT["kernel"], dtype=np.float64)

sigmoid = 1 / (1 + np.exp(-x))
erf = np.vectorize(math.erf)
cdf = 0.5 * (1 + erf(x / math.sqrt(2)))
pdf = np.exp(-(x**2) / 2) / math.sqrt(2 * math.pi)
c = math.sqrt(2 / math.pi)
u = c * (x + 0.044715 * x**3)
SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805
softplus = np.log1p(np.exp(x))
x4, x2 = 4 * x, 2 * x
e0 = np.exp(x - x.max(0))
s0 = e0 / e0.sum(0)


def selu(z):
    return SELU_SCALE * np.where(z > 0, z, SELU_ALPHA * (np.exp(z) - 1))


def gelu(z):
    return z * 0.5 * (1 + erf(z / math.sqrt(2)))


CASES = {
    "relu_args": (
        np.clip(x * (x > 0.2), 0, 1.5) - 0.1 * np.maximum(0.2 - x, 0),
        ((x > 0.2) & (x < 1.5)) + 0.1 * (x < 0.2),
    ),
    "elu_alpha": (np.where(x > 0, x, 0.7 * (np.exp(x) - 1)), np.where(x > 0, 1, 0.7 * np.exp(x))),
    "selu": (selu(x), SELU_SCALE * np.where(x > 0, 1, SELU_ALPHA * np.exp(x))),
    "gelu": (x * cdf, cdf + x * pdf),
    "gelu_tanh": (
        0.5 * x * (1 + np.tanh(u)),
        0.5 * (1 + np.tanh(u)) + 0.5 * x * (1 - np.tanh(u) ** 2) * c * (1 + 3 * 0.044715 * x**2),
    ),
    "silu": (x * sigmoid, sigmoid * (1 + x * (1 - sigmoid))),
    "softsign": (x / (1 + np.abs(x)), 1 / (1 + np.abs(x)) ** 2),
    "relu6": (np.clip(x4, 0, 6), 4 * ((x4 > 0) & (x4 < 6))),
    "mish": (x * np.tanh(softplus), np.tanh(softplus) + x * (1 - np.tanh(softplus) ** 2) * sigmoid),
    "leaky_relu": (np.where(x > 0, x, 0.2 * x), np.where(x > 0, 1, 0.2)),
    "hard_silu": (
        x2 * np.clip(x2 + 3, 0, 6) / 6,
        2 * np.where(x2 >= 3, 1, np.where(x2 <= -3, 0, (2 * x2 + 3) / 6)),
    ),
    "softmax_axis0": (s0, s0 * (g - (g * s0).sum(0, keepdims=True))),
    "exponential": (np.exp(x), np.exp(x)),
    "get_swish": (x * sigmoid, sigmoid * (1 + x * (1 - sigmoid))),
}
RESULT = {}
for name, (y, dy) in CASES.items():
    grad = dy if name == "softmax_axis0" else g * dy
    RESULT[name] = {"y": y.ravel().tolist(), "grad": np.asarray(grad, dtype=np.float64).ravel().tolist()}
z = x @ kernel
dense = {"gelu": gelu(z), "selu": selu(z), "leaky_relu": np.where(z > 0, z, 0.2 * z)}
for name, y in dense.items():
    RESULT[f"dense_{name}"] = {"y": y.ravel().tolist(), "grad": []}
