"""The float64 reference of keras-boilerplate.test.ts's utils table, run under Debian's CPython
with NumPy: ``to_categorical`` as rows of the identity (``np.eye``), a trailing axis of 1 dropped;
``normalize`` as x / ||x||_order along the axis (a zero norm left at 1), and the gradient of
sum(upstream * normalize(x, -1, 2)) + sum(normalize(x, 0, 1)) by the chain rule. A test fixture."""

import numpy as np

INPUT = globals()["INPUT"]  # set by the runner

labels = np.array(INPUT["labels"])
inferred = np.eye(labels.max() + 1)[labels]
given = np.eye(INPUT["classes"])[labels]

x = np.array(INPUT["x"], dtype=np.float64)
g = np.array(INPUT["upstream"], dtype=np.float64)
n2 = np.sqrt((x**2).sum(-1, keepdims=True))
unit = x / n2
n1 = np.abs(x).sum(0, keepdims=True)
first = x / n1
# d/dx of sum(g * x / |x|): g / |x| - x (g . x) / |x|^3, row by row.
grad_unit = g / n2 - x * (g * x).sum(-1, keepdims=True) / n2**3
# d/dx of sum(x / s) with s = sum |x| over axis 0: 1 / s - sign(x) * sum(x) / s^2, column by column.
grad_first = 1 / n1 - np.sign(x) * x.sum(0, keepdims=True) / n1**2
RESULT = {
    "inferred": inferred.ravel().tolist(),
    "inferred_shape": list(inferred.shape),
    "given": given.ravel().tolist(),
    "given_shape": list(given.shape),
    "unit": unit.ravel().tolist(),
    "first": first.ravel().tolist(),
    "grad": (grad_unit + grad_first).ravel().tolist(),
}
