"""The float64 reference of keras-conv-attention.test.ts, run under Debian's CPython with NumPy,
written from Keras's and TensorFlow's documented semantics:

- convolutions are cross-correlations over TF's padding: 'same' pads
  max((ceil(n/s) - 1)*s + (k-1)*d + 1 - n, 0) in all with the odd one after, 'causal' pads
  d*(k-1) before; `groups` splits the input channels and the filters into matching groups;
- Depthwise convolutions: output channel c*M + m is input channel c through depthwise_kernel[..., c, m];
  SeparableConv2D is that (without bias) followed by a 1x1 convolution with pointwise_kernel;
- Conv2DTranspose (kernel [kh, kw, filters, in]) is TF's conv_transpose: each input pixel scatters
  kernel-weighted copies to i*s + a*d, cropped from the 'same' padding-before of the convolution
  that maps the output back, its length Keras's deconv_output_length (zeros beyond the scatter);
- MultiHeadAttention: per-head projections (query/key/value kernels [dim, heads, size]), the query
  scaled by 1/sqrt(key_dim), scores softmaxed over the key positions after adding -1e9 where
  the mask (attention_mask AND the causal mask) is 0, combined with the values, and projected by
  attention_output/kernel [heads, value_dim, out]; attention over several axes is over their
  positions jointly.

Gradients of sum(output * upstream) by the chain rule, each step's adjoint written out. A test
fixture."""

import numpy as np

INPUT = globals()["INPUT"]  # set by the runner


def upstream(shape):
    n = int(np.prod(shape))
    return np.array([((k * 7) % 11) / 5 - 1 for k in range(n)], dtype=np.float64).reshape(shape)


def as_tuple(v, rank, default):
    if v is None:
        return [default] * rank
    return [v] * rank if isinstance(v, int) else list(v)


def window_pads(n, k, s, d, padding):
    span = (k - 1) * d + 1
    if padding == "causal":
        return d * (k - 1), 0
    if padding == "same":
        total = max((-(-n // s) - 1) * s + span - n, 0)
        return total // 2, total - total // 2
    return 0, 0


# --- the correlation y[n, i, j, f] = sum_{a, b, c} xp[n, i*s0 + a*d0, j*s1 + b*d1, c] k[a, b, c, f]


def taps(k_shape, s, d, out):
    for a in range(k_shape[0]):
        for b in range(k_shape[1]):
            rows = slice(a * d[0], a * d[0] + s[0] * (out[0] - 1) + 1, s[0])
            cols = slice(b * d[1], b * d[1] + s[1] * (out[1] - 1) + 1, s[1])
            yield a, b, (slice(None), rows, cols, slice(None))


def correlate(xp, k, s, d):
    out = [(xp.shape[1 + i] - ((k.shape[i] - 1) * d[i] + 1)) // s[i] + 1 for i in range(2)]
    y = np.zeros((xp.shape[0], out[0], out[1], k.shape[3]))
    for a, b, sl in taps(k.shape, s, d, out):
        y += xp[sl] @ k[a, b]
    return y


def correlate_vjp(xp, k, s, d, dy):
    dxp = np.zeros_like(xp)
    dk = np.zeros_like(k)
    for a, b, sl in taps(k.shape, s, d, dy.shape[1:3]):
        dxp[sl] += dy @ k[a, b].T
        dk[a, b] = np.einsum("nhwc,nhwf->cf", xp[sl], dy)
    return dxp, dk


def padded(x, pads):
    return np.pad(x, [(0, 0), pads[0], pads[1], (0, 0)])


def unpad(dxp, pads, shape):
    return dxp[:, pads[0][0] : pads[0][0] + shape[1], pads[1][0] : pads[1][0] + shape[2], :]


def grouped_kernel(k, channels, groups):
    """[kh, kw, C/G, F] → the block-diagonal [kh, kw, C, F] of the same grouped convolution."""
    filters = k.shape[3]
    cg, fg = channels // groups, filters // groups
    full = np.zeros(k.shape[:2] + (channels, filters))
    for f in range(filters):
        g = f // fg
        full[:, :, g * cg : (g + 1) * cg, f] = k[:, :, :, f]
    return full


def grouped_kernel_grad(dfull, groups, cg):
    filters = dfull.shape[3]
    fg = filters // groups
    return np.stack([dfull[:, :, (f // fg) * cg : (f // fg + 1) * cg, f] for f in range(filters)], axis=3)


def depthwise_kernel(k):
    """[kh, kw, C, M] → [kh, kw, C, C*M] with output channel c*M + m reading channel c."""
    kh, kw, c, m = k.shape
    full = np.zeros((kh, kw, c, c * m))
    for ci in range(c):
        full[:, :, ci, ci * m : (ci + 1) * m] = k[:, :, ci, :]
    return full


def depthwise_kernel_grad(dfull, m):
    c = dfull.shape[2]
    return np.stack([dfull[:, :, ci, ci * m : (ci + 1) * m] for ci in range(c)], axis=2)


def activate(z, name):
    if name == "tanh":
        y = np.tanh(z)
        return y, lambda dy: dy * (1 - y**2)
    return z, lambda dy: dy


def conv_case(case):
    kw = case["kwargs"]
    layer = case["layer"]
    x = np.array(case["x"], dtype=np.float64)
    weights = [np.array(w, dtype=np.float64) for w in case["weights"]]
    one_d = "1D" in layer
    if one_d:  # a 1-D layer is the 2-D one over a height of 1
        x = x[:, None]
        weights = [w[None] if w.ndim == 3 else w for w in weights]
    rank = 1 if one_d else 2
    lift = (lambda v: [1] + v) if one_d else (lambda v: v)
    ks = lift(as_tuple(kw.get("kernel_size"), rank, 1))
    s = lift(as_tuple(kw.get("strides"), rank, 1))
    d = lift(as_tuple(kw.get("dilation_rate"), rank, 1))
    padding = kw.get("padding", "valid")
    use_bias = kw.get("use_bias", True)
    bias = weights[-1] if use_bias else None
    grads_w = []
    if layer.startswith("Conv") and "Transpose" in layer:
        y, back = transpose(x, weights[0], s, d, padding, kw.get("output_padding"), rank)
        dz_from = back
    else:
        pads = [
            window_pads(x.shape[1 + i], ks[i], s[i], d[i], "valid" if one_d and i == 0 else padding) for i in range(2)
        ]
        xp = padded(x, pads)
        if layer in ("Conv1D", "Conv2D"):
            groups = kw.get("groups", 1)
            k = grouped_kernel(weights[0], x.shape[3], groups)
            y = correlate(xp, k, s, d)

            def dz_from(dy, xp=xp, k=k, pads=pads, groups=groups):
                dxp, dk = correlate_vjp(xp, k, s, d, dy)
                return unpad(dxp, pads, x.shape), [grouped_kernel_grad(dk, groups, x.shape[3] // groups)]
        else:  # DepthwiseConv2D, SeparableConv2D
            m = kw.get("depth_multiplier", 1)
            k = depthwise_kernel(weights[0])
            h = correlate(xp, k, s, d)
            if layer.startswith("Separable"):
                pw = weights[1]
                y = correlate(h, pw, [1, 1], [1, 1])
            else:
                y = h

            def dz_from(dy, xp=xp, k=k, pads=pads, m=m, h=h):
                extra = []
                if layer.startswith("Separable"):
                    dh, dpw = correlate_vjp(h, weights[1], [1, 1], [1, 1], dy)
                    extra = [dpw]
                else:
                    dh = dy
                dxp, dk = correlate_vjp(xp, k, s, d, dh)
                return unpad(dxp, pads, x.shape), [depthwise_kernel_grad(dk, m)] + extra

    if bias is not None:
        y = y + bias
    y, act_back = activate(y, kw.get("activation"))
    dz = act_back(upstream(y.shape))
    dx, grads_w = dz_from(dz)
    if bias is not None:
        grads_w = grads_w + [dz.sum(axis=(0, 1, 2))]
    if one_d:
        y, dx = y[:, 0], dx[:, 0]
        grads_w = [g[0] if g.ndim == 4 else g for g in grads_w]
    return {
        "y": y.ravel().tolist(),
        "shape": list(y.shape),
        "grads": [dx.ravel().tolist()] + [g.ravel().tolist() for g in grads_w],
    }


def deconv_length(n, k, padding, output_padding, s, d):
    k = k + (k - 1) * (d - 1)
    if output_padding is None:
        return n * s + max(k - s, 0) if padding == "valid" else n * s
    pad = k // 2 if padding == "same" else 0
    return (n - 1) * s + k - 2 * pad + output_padding


def transpose(x, kt, s, d, padding, output_padding, rank):
    """TF's conv_transpose (kernel [kh, kw, F, C]); returns y and dy → (dx, [dkernel])."""
    n, h, w, _ = x.shape
    ks = kt.shape[:2]
    op = None if output_padding is None else ([0] if rank == 1 else []) + as_tuple(output_padding, rank, 0)
    # the lifted height of a 1-D layer is 'valid' with nothing to pad
    paddings = ["valid" if rank == 1 and i == 0 else padding for i in range(2)]
    outs = [
        deconv_length(x.shape[1 + i], ks[i], paddings[i], None if op is None else op[i], s[i], d[i]) for i in range(2)
    ]
    full = [(x.shape[1 + i] - 1) * s[i] + (ks[i] - 1) * d[i] + 1 for i in range(2)]
    befores = []
    for i in range(2):
        span = (ks[i] - 1) * d[i] + 1
        total = max((x.shape[1 + i] - 1) * s[i] + span - outs[i], 0) if paddings[i] == "same" else 0
        befores.append(total // 2)
    ext = [max(full[i], befores[i] + outs[i]) for i in range(2)]
    y_ext = np.zeros((n, ext[0], ext[1], kt.shape[2]))
    for a, b, sl in taps(ks, s, d, (h, w)):
        y_ext[sl] += x @ kt[a, b].T
    crop = (slice(None), slice(befores[0], befores[0] + outs[0]), slice(befores[1], befores[1] + outs[1]), slice(None))
    y = y_ext[crop]

    def back(dy):
        dy_ext = np.zeros_like(y_ext)
        dy_ext[crop] = dy
        dx = np.zeros_like(x)
        dk = np.zeros_like(kt)
        for a, b, sl in taps(ks, s, d, (h, w)):
            dx += dy_ext[sl] @ kt[a, b]
            dk[a, b] = np.einsum("nhwf,nhwc->fc", dy_ext[sl], x)
        return dx, [dk]

    return y, back


# --- MultiHeadAttention


def attention_case(case):
    kw = case["kwargs"]
    heads, key_dim = kw["num_heads"], kw["key_dim"]
    q_in = np.array(case["query"], dtype=np.float64)
    self_attention = "value" not in case
    v_in = q_in if self_attention else np.array(case["value"], dtype=np.float64)
    k_in = np.array(case["key"], dtype=np.float64) if "key" in case else v_in
    wq, bq, wk, bk, wv, bv, wo, bo = [np.array(w, dtype=np.float64) for w in case["weights"]]
    rank = q_in.ndim
    axes = kw.get("attention_axes")
    axes = list(range(1, rank - 1)) if axes is None else ([axes] if isinstance(axes, int) else list(axes))
    others = [i for i in range(1, rank - 1) if i not in axes]
    order = [0] + others + axes + [rank - 1]

    # positions along the attention axes flattened into one sequence; the other axes join the batch
    def seq(t):
        p = t.transpose(order)
        return p.reshape(-1, int(np.prod([t.shape[i] for i in axes])), t.shape[-1]), p.shape

    q, q_perm_shape = seq(q_in)
    k, _ = seq(k_in)
    v, _ = seq(v_in)
    Q = np.einsum("btd,dnk->btnk", q, wq) + bq
    K = np.einsum("bsd,dnk->bsnk", k, wk) + bk
    V = np.einsum("bsd,dnv->bsnv", v, wv) + bv
    scale = 1 / np.sqrt(key_dim)
    S = np.einsum("btnk,bsnk->bnts", Q * scale, K)
    T, Sn = S.shape[2], S.shape[3]
    mask = np.ones((1, 1, T, Sn))
    other_dims = [q_in.shape[0]] + [q_in.shape[i] for i in others]
    q_dims = [q_in.shape[i] for i in axes]
    k_dims = [k_in.shape[i] for i in axes]
    if "mask" in case:
        m = np.array(case["mask"], dtype=np.float64)
        while m.ndim < len(other_dims) + 1 + 2 * len(axes):
            m = np.expand_dims(m, -2 * len(axes) - 1)
        m = np.broadcast_to(m, other_dims + [heads] + q_dims + k_dims)
        mask = mask * m.reshape(-1, heads, T, Sn)
    if case.get("causal"):
        mask = mask * (np.arange(T)[:, None] >= np.arange(Sn)[None, :])
    S = S + (1 - mask) * -1e9
    P = np.exp(S - S.max(-1, keepdims=True))
    P = P / P.sum(-1, keepdims=True)
    C = np.einsum("bnts,bsnv->btnv", P, V)
    out_dims = list(wo.shape[2:])
    out_flat = np.einsum("btnv,nvo->bto", C, wo.reshape(heads, -1, int(np.prod(out_dims)))) + bo.reshape(-1)
    # back to the query's layout: [B, <others>, <attention axes>, out] → the input's axis order
    o_perm = out_flat.reshape(list(q_perm_shape[:-1]) + out_dims)
    inverse = np.argsort(order[:-1])
    y = o_perm.transpose(list(inverse) + list(range(rank - 1, rank - 1 + len(out_dims))))

    G = upstream(y.shape)
    Gp = G.transpose(order[:-1] + list(range(rank - 1, rank - 1 + len(out_dims)))).reshape(out_flat.shape)
    wo2 = wo.reshape(heads, -1, int(np.prod(out_dims)))
    dbo = Gp.sum((0, 1)).reshape(bo.shape)
    dwo = np.einsum("btnv,bto->nvo", C, Gp).reshape(wo.shape)
    dC = np.einsum("bto,nvo->btnv", Gp, wo2)
    dP = np.einsum("btnv,bsnv->bnts", dC, V)
    dV = np.einsum("bnts,btnv->bsnv", P, dC)
    dS = P * (dP - (dP * P).sum(-1, keepdims=True))
    dQ = np.einsum("bnts,bsnk->btnk", dS, K) * scale
    dK = np.einsum("bnts,btnk->bsnk", dS, Q * scale)

    def proj_back(x, w, dP_):
        return np.einsum("bsnk,dnk->bsd", dP_, w), np.einsum("bsd,bsnk->dnk", x, dP_), dP_.sum((0, 1))

    dq, dwq, dbq = proj_back(q, wq, dQ)
    dk, dwk, dbk = proj_back(k, wk, dK)
    dv, dwv, dbv = proj_back(v, wv, dV)

    def unseq(g, t):
        perm_shape = [t.shape[i] for i in order]
        return g.reshape(perm_shape).transpose(np.argsort(order))

    dq, dk, dv = unseq(dq, q_in), unseq(dk, k_in), unseq(dv, v_in)
    if self_attention:
        inputs = [dq + dk + dv]
    elif "key" in case:
        inputs = [dq, dv, dk]
    else:
        inputs = [dq, dv + dk]
    scores = P.reshape(other_dims + [heads] + q_dims + k_dims)
    return {
        "y": y.ravel().tolist(),
        "shape": list(y.shape),
        "scores": scores.ravel().tolist(),
        "scores_shape": list(scores.shape),
        "grads": [g.ravel().tolist() for g in inputs + [dwq, dbq, dwk, dbk, dwv, dbv, dwo, dbo]],
    }


RESULT = {"cases": [attention_case(c) if c["layer"] == "MultiHeadAttention" else conv_case(c) for c in INPUT["cases"]]}
