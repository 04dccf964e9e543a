"""The float64 reference of keras_tf_module_program.py's training loop, run under Debian's CPython
with NumPy: y = x @ w + b, loss = mean((y - target)**2), three plain SGD steps (learning rate 0.1)
on b and w with their gradients by the chain rule, and the guide module's output for one input.
A test fixture."""

import numpy as np

INPUT = globals()["INPUT"]  # set by the runner

x = np.array(INPUT["x"], dtype=np.float64)
target = np.array(INPUT["y"], dtype=np.float64)
w = np.array(INPUT["w"], dtype=np.float64)
b = np.array(INPUT["b"], dtype=np.float64)
losses = []
for _ in range(3):
    residual = x @ w + b - target
    losses.append(float((residual**2).mean()))
    d = 2 * residual / residual.size  # d loss / d y
    w, b = w - 0.1 * (x.T @ d), b - 0.1 * d.sum(0)

# SequentialModule: two Dense modules of ones and zeros with relu.
hidden = np.maximum(np.array([[1.0, 2.0, 0.5]]) @ np.ones((3, 3)), 0)
output = np.maximum(hidden @ np.ones((3, 2)), 0)

RESULT = {"losses": losses, "w": w.ravel().tolist(), "b": b.tolist(), "output": output.ravel().tolist()}
