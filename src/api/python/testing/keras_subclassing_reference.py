"""The float64 reference of keras-subclassing.test.ts, run under Debian's CPython with NumPy: the
subclassed model of keras_subclassing_program.py written out as its formulas — Linear's
``x @ w + b`` (the guide's layer), tanh, halved when ``training``, then Dense's ``h @ kernel +
bias`` — with the chain rule's gradients, and one SGD step (learning rate 0.1) on Keras's
mean squared error, ``mean((y - target)**2)`` over the batch and the last axis. A test fixture."""

import numpy as np

INPUT = globals()["INPUT"]  # set by the runner

x = np.array(INPUT["x"], dtype=np.float64)
w = np.array(INPUT["w"], dtype=np.float64)
b = np.array(INPUT["b"], dtype=np.float64)
kernel = np.array(INPUT["kernel"], dtype=np.float64)
bias = np.array(INPUT["bias"], dtype=np.float64)
upstream = np.array(INPUT["upstream"], dtype=np.float64)
target = np.array(INPUT["target"], dtype=np.float64)


def forward_backward(training, dy_of):
    """Outputs and the gradients of sum(dy * y) for x, w, b, kernel, bias; dy from the outputs."""
    t = np.tanh(x @ w + b)
    scale = 0.5 if training else 1.0
    h = t * scale
    y = h @ kernel + bias
    dy = dy_of(y)
    dh = dy @ kernel.T
    dz = dh * scale * (1 - t**2)
    return y, [dz @ w.T, x.T @ dz, dz.sum(0), h.T @ dy, dy.sum(0)]


outputs, grads = {}, {}
for training in (False, True):
    y, g = forward_backward(training, lambda y: upstream)
    outputs[str(training)] = y.ravel().tolist()
    grads[str(training)] = [v.ravel().tolist() for v in g]

# fit calls the model with training=True; MSE's gradient is 2 (y - target) / (batch * units).
_, g = forward_backward(True, lambda y: 2 * (y - target) / y.size)
after_fit = [(p - 0.1 * d).ravel().tolist() for p, d in zip([w, b, kernel, bias], g[1:])]

RESULT = {"outputs": outputs, "grads": grads, "after_fit": after_fit}
