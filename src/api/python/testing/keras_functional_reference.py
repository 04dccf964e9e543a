"""The float64 reference of keras-functional.test.ts, run under Debian's CPython with NumPy: the
two-input functional model written out from Keras's layer formulas — Dense ``act(x @ kernel +
bias)``, Concatenate along the last axis, Add as the element-wise sum — its gradients by the chain
rule (the shared Dense's gradients are the sum over its two uses), one SGD step (``w -= lr * g``)
on Keras's mean squared error over the whole batch, and the prediction after it. A test fixture."""

import numpy as np

INPUT = globals()["INPUT"]  # set by the runner
NAMES = ["branch_a", "branch_b", "shared", "proj", "head"]
LEARNING_RATE = 0.1


def params_of(source):
    return {
        n: (np.array(source[n]["kernel"], dtype=np.float64), np.array(source[n]["bias"], dtype=np.float64))
        for n in NAMES
    }


def forward(p, xa, xb):
    pre_a = xa @ p["branch_a"][0] + p["branch_a"][1]
    h1 = np.maximum(pre_a, 0)
    h2 = np.tanh(xb @ p["branch_b"][0] + p["branch_b"][1])
    c1 = np.concatenate([h1, h2], axis=-1)
    s1 = np.tanh(c1 @ p["shared"][0] + p["shared"][1])
    res = s1 + xa @ p["proj"][0] + p["proj"][1]
    c2 = np.concatenate([h2, h1], axis=-1)
    s2 = np.tanh(c2 @ p["shared"][0] + p["shared"][1])
    z = res + s2
    out = z @ p["head"][0] + p["head"][1]
    saved = {"pre_a": pre_a, "h1": h1, "h2": h2, "c1": c1, "s1": s1, "c2": c2, "s2": s2, "z": z}
    return out, res, saved


def backward(p, xa, xb, upstream, upstream_res=0.0):
    """Gradients of sum(out * upstream) + sum(res * upstream_res) for xa, xb and each layer's
    kernel and bias."""
    _, _, v = forward(p, xa, xb)
    g = {}
    g["head"] = (v["z"].T @ upstream, upstream.sum(0))
    dz = upstream @ p["head"][0].T
    dres, ds2 = dz + upstream_res, dz
    g["proj"] = (xa.T @ dres, dres.sum(0))
    dxa = dres @ p["proj"][0].T
    dpre1 = dres * (1 - v["s1"] ** 2)
    dpre2 = ds2 * (1 - v["s2"] ** 2)
    g["shared"] = (v["c1"].T @ dpre1 + v["c2"].T @ dpre2, dpre1.sum(0) + dpre2.sum(0))
    dc1 = dpre1 @ p["shared"][0].T
    dc2 = dpre2 @ p["shared"][0].T
    dh1 = dc1[:, :4] + dc2[:, 4:]
    dh2 = dc1[:, 4:] + dc2[:, :4]
    dpre_a = dh1 * (v["pre_a"] > 0)
    g["branch_a"] = (xa.T @ dpre_a, dpre_a.sum(0))
    dxa = dxa + dpre_a @ p["branch_a"][0].T
    dpre_b = dh2 * (1 - v["h2"] ** 2)
    g["branch_b"] = (xb.T @ dpre_b, dpre_b.sum(0))
    dxb = dpre_b @ p["branch_b"][0].T
    return dxa, dxb, g


params = params_of(INPUT)
xa = np.array(INPUT["xa"], dtype=np.float64)
xb = np.array(INPUT["xb"], dtype=np.float64)
upstream = np.array(INPUT["upstream"], dtype=np.float64)
target = np.array(INPUT["target"], dtype=np.float64)

out, res, _ = forward(params, xa, xb)
dxa, dxb, grads = backward(params, xa, xb, upstream)

# Keras's MeanSquaredError: the mean over the last axis, then over the batch (one batch of 5).
d_out = 2 * (out - target) / out.size
_, _, fit_grads = backward(params, xa, xb, d_out)
updated = {n: tuple(w - LEARNING_RATE * gw for w, gw in zip(params[n], fit_grads[n])) for n in NAMES}
predicted, res_after, _ = forward(updated, xa, xb)

# The two-output model (out, res) from the updated weights: mse(out) + 0.5 * huber(res), Keras's
# Huber (delta 1) being the mean of 0.5 e**2 where |e| <= 1, |e| - 0.5 elsewhere (its gradient
# clip(e, -1, 1) / size).
target_res = np.array(INPUT["target_res"], dtype=np.float64)
d_res = 0.5 * np.clip(res_after - target_res, -1, 1) / res_after.size
_, _, two_grads = backward(updated, xa, xb, 2 * (predicted - target) / predicted.size, d_res)
updated_two = {n: tuple(w - LEARNING_RATE * gw for w, gw in zip(updated[n], two_grads[n])) for n in NAMES}

RESULT = {
    "y": out.ravel().tolist(),
    "grads": [dxa.ravel().tolist(), dxb.ravel().tolist()] + [w.ravel().tolist() for n in NAMES for w in grads[n]],
    "two": [out.ravel().tolist(), res.ravel().tolist()],
    "after_fit": [w.ravel().tolist() for n in NAMES for w in updated[n]],
    "predicted": predicted.ravel().tolist(),
    "after_two": [w.ravel().tolist() for n in NAMES for w in updated_two[n]],
}
