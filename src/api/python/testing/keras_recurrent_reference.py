"""The float64 reference of keras-recurrent.test.ts, run under Debian's CPython with NumPy: Keras's
recurrent layers from their documented formulas and Keras's ``backend.rnn`` masking, written
from Keras's documentation and source (not copied):

- SimpleRNN: h = act(x W + h U + b).
- LSTM, gates in blocks i, f, c, o: z = x W + h U + b, c' = σ(z_f) c + σ(z_i) act(z_c),
  h' = σ(z_o) act(c') (σ the recurrent activation).
- GRU, blocks z, r, h; reset_after (TF2): bias rows (input, recurrent),
  h̃ = act(x W_h + b_h + r (h U_h + b_rh)); otherwise h̃ = act(x W_h + b_h + (r h) U_h);
  h' = z h + (1 - z) h̃.
- go_backwards reads the steps last to first and returns the outputs in that order.
- Masking(mask_value): a step is masked where all its features equal mask_value; the layer
  zeroes those steps.
- A masked step keeps the states and repeats the previous output (zeros before any), or outputs
  zeros with zero_output_for_mask (Bidirectional when returning sequences).
- Bidirectional: a forward copy and a go_backwards copy (weights forward then backward), the
  backward sequence reversed back, merged by concat / sum / mul / ave.

The gradients of sum(output * upstream) are central differences in float64 (step 1e-6), whose
error (~1e-9) is far below the test's 1e-3 tolerance. A test fixture."""

import numpy as np

INPUT = globals()["INPUT"]  # set by the runner


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


ACTIVATIONS = {"tanh": np.tanh, "sigmoid": sigmoid, "relu": lambda v: np.maximum(v, 0), "linear": lambda v: v}


def rnn(spec, weights, x, mask, initial, zero_output):
    """One recurrent layer over x [B, T, F]: (output, final states)."""
    kind, kw = spec["class"], spec["kwargs"]
    u = spec["args"][0]
    act = ACTIVATIONS[kw.get("activation", "tanh")]
    rec = ACTIVATIONS[kw.get("recurrent_activation", "sigmoid")]
    kernel, recurrent, bias = weights
    b, t_steps = x.shape[:2]
    n_states = 2 if kind == "LSTM" else 1
    states = [np.array(s) for s in initial] if initial else [np.zeros((b, u))] * n_states
    previous = np.zeros((b, u))
    outputs = []
    order = range(t_steps - 1, -1, -1) if kw.get("go_backwards") else range(t_steps)
    for t in order:
        xs = x[:, t] @ kernel
        h = states[0]
        if kind == "SimpleRNN":
            new = [act(xs + h @ recurrent + bias)]
        elif kind == "LSTM":
            z = xs + h @ recurrent + bias
            i, f, g, o = (z[:, k * u : (k + 1) * u] for k in range(4))
            c = rec(f) * states[1] + rec(i) * act(g)
            new = [rec(o) * act(c), c]
        elif kw.get("reset_after", True):
            mx = xs + bias[0]
            mh = h @ recurrent + bias[1]
            z = rec(mx[:, :u] + mh[:, :u])
            r = rec(mx[:, u : 2 * u] + mh[:, u : 2 * u])
            candidate = act(mx[:, 2 * u :] + r * mh[:, 2 * u :])
            new = [z * h + (1 - z) * candidate]
        else:
            mx = xs + bias
            z = rec(mx[:, :u] + h @ recurrent[:, :u])
            r = rec(mx[:, u : 2 * u] + h @ recurrent[:, u : 2 * u])
            candidate = act(mx[:, 2 * u :] + (r * h) @ recurrent[:, 2 * u :])
            new = [z * h + (1 - z) * candidate]
        output = new[0]
        if mask is not None:
            m = mask[:, t : t + 1]
            states = [np.where(m, n, s) for n, s in zip(new, states, strict=True)]
            output = np.where(m, output, 0 if zero_output else previous)
        else:
            states = new
        previous = output
        outputs.append(output)
    y = np.stack(outputs, 1) if kw.get("return_sequences") else outputs[-1]
    return y, states


def layer_outputs(spec, weights, x, mask, initial):
    """The layer's outputs as Keras returns them (a list: output, then states with return_state)."""
    if spec["class"] != "Bidirectional":
        y, states = rnn(spec, weights, x, mask, initial, False)
        return [y, *states] if spec["kwargs"].get("return_state") else [y]
    inner = spec["layer"]
    half = len(weights) // 2
    backward = {**inner, "kwargs": {**inner["kwargs"], "go_backwards": not inner["kwargs"].get("go_backwards")}}
    sequences = inner["kwargs"].get("return_sequences", False)
    y, fs = rnn(inner, weights[:half], x, mask, None, sequences)
    y_rev, bs = rnn(backward, weights[half:], x, mask, None, sequences)
    if sequences:
        y_rev = y_rev[:, ::-1]
    mode = spec["kwargs"].get("merge_mode", "concat")
    merged = {
        "concat": lambda: np.concatenate([y, y_rev], -1),
        "sum": lambda: y + y_rev,
        "mul": lambda: y * y_rev,
        "ave": lambda: (y + y_rev) / 2,
    }[mode]()
    return [merged, *fs, *bs] if inner["kwargs"].get("return_state") else [merged]


def run(case):
    weights = [np.array(w, dtype=np.float64) for w in case["weights"]]
    upstream = [np.array(u, dtype=np.float64) for u in case["upstream"]]
    if "ids" in case:
        ids = np.array(case["ids"])
        mask = ids != 0
        params = [np.array(case["embeddings"], dtype=np.float64), *weights]

        def outputs(ps):
            return layer_outputs(case["layer"], ps[1:], ps[0][ids], mask, None)

    elif "mask_value" in case:
        params = [np.array(case["x"], dtype=np.float64), *weights]
        # Masking: steps whose features all equal mask_value are masked and zeroed. The mask is
        # fixed from the input (it has no gradient), so the differences do not move it.
        mask = np.any(params[0] != case["mask_value"], axis=-1)

        def outputs(ps):
            return layer_outputs(case["layer"], ps[1:], ps[0] * mask[..., None], mask, None)

    else:
        params = [np.array(case["x"], dtype=np.float64), *weights]
        initial = [np.array(s, dtype=np.float64) for s in case.get("initial_state", [])]

        def outputs(ps):
            return layer_outputs(case["layer"], ps[1:], ps[0], None, initial)

    def loss(ps):
        return sum(float(np.sum(o * up)) for o, up in zip(outputs(ps), upstream, strict=True))

    grads = []
    eps = 1e-6
    for p in params:
        g = np.zeros_like(p)
        for idx in np.ndindex(p.shape):
            keep = p[idx]
            p[idx] = keep + eps
            plus = loss(params)
            p[idx] = keep - eps
            minus = loss(params)
            p[idx] = keep
            g[idx] = (plus - minus) / (2 * eps)
        grads.append(g.ravel().tolist())
    outs = outputs(params)
    return {"shapes": [list(o.shape) for o in outs], "y": [o.ravel().tolist() for o in outs], "grads": grads}


RESULT = [run(case) for case in INPUT["cases"]]
