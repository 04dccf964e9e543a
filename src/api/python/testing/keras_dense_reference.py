"""The float64 reference of keras-dense-formula.test.ts, run under Debian's CPython with NumPy:
Keras's Dense, ``y = activation(x @ kernel + bias)``, and its gradients by the chain rule.
A test fixture."""

import numpy as np

INPUT = globals()["INPUT"]  # set by the runner

x = np.array(INPUT["x"], dtype=np.float64)
kernel = np.array(INPUT["kernel"], dtype=np.float64)
bias = np.array(INPUT["bias"], dtype=np.float64)
upstream = np.array(INPUT["upstream"], dtype=np.float64)
y = np.tanh(x @ kernel + bias)
dz = upstream * (1 - y**2)  # d loss / d (x @ kernel + bias)
RESULT = {
    "y": y.ravel().tolist(),
    "grads": [(dz @ kernel.T).ravel().tolist(), (x.T @ dz).ravel().tolist(), dz.sum(0).tolist()],
}
