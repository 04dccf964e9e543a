"""The weights of a TensorFlow export (``export_ddp``): which Keras model the notebook trained,
where the cells make it, and its weights under the names ``train.py``'s loader orders by.

The weights are read from the TS Keras model behind the Python handle (``_js_value()``), in the
order of Keras's ``model.get_weights()``: the layers in order, each layer's weights in its own
order (trainable first). Our layers store their weights in Keras's layout (Dense and Embedding
``[in, out]``, Conv1D/Conv2D ``[*kernel_size, in, out]``: src/api/tf/keras/layers/), so they are
written as they are.
"""

import ast
import sys

__all__ = ["pick_keras_model", "keras_state", "keras_input_shape", "assigning_statement"]


def _js_model(value):
    """The TS ``tf.keras.Model`` behind ``value``, or None (also when TensorFlow is not imported)."""
    handles = sys.modules.get("tensorflow._js_object")
    if handles is None or not isinstance(value, handles.JsObject):
        return None
    from tensorflow._tensor import tf_js

    js_value = value._js_value()
    return js_value if tf_js.keras.Model.prototype.isPrototypeOf(js_value) else None


def _present(value):
    from pyodide.ffi import jsnull

    return value is not None and value is not jsnull


def _statements(cells):
    """Top-level statements and those inside top-level ``with`` blocks, with whether the block is
    a ``….scope()`` (a distribution strategy's)."""
    for cell in cells:
        for stmt in cell.tree.body if cell.tree else []:
            if isinstance(stmt, ast.With):
                scoped = any(
                    isinstance(item.context_expr, ast.Call)
                    and isinstance(item.context_expr.func, ast.Attribute)
                    and item.context_expr.func.attr == "scope"
                    for item in stmt.items
                )
                for inner in stmt.body:
                    yield inner, scoped
            else:
                yield stmt, False


def _assigned(stmt):
    if isinstance(stmt, ast.Assign):
        return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
    return []


def assigning_statement(cells, name):
    """The last statement assigning ``name`` at the top of a cell or in a top-level ``with``."""
    found = None
    for stmt, _ in _statements(cells):
        if name in _assigned(stmt):
            found = stmt
    return found


def pick_keras_model(cells, namespace):
    """(name, handle, why) of the Keras model whose weights are exported, or (None, None, why).

    The last Keras model the cells assign that was made inside a strategy's ``scope()`` wins,
    else the last one assigned; names the cells never assign come last, in the namespace's
    order."""
    if not namespace:
        return None, None, "no kernel variables were given"
    order = []
    for stmt, _ in _statements(cells):
        for target in _assigned(stmt):
            if target in order:
                order.remove(target)
            order.append(target)
    names = [n for n in order if n in namespace]
    names += [n for n in namespace if n not in names and not n.startswith("_")]
    models = [(n, namespace[n], _js_model(namespace[n])) for n in names]
    models = [(n, handle, js) for n, handle, js in models if js is not None]
    scoped = [m for m in models if _present(m[2].distributeStrategy)]
    if scoped:
        name, handle, js = scoped[-1]
        return name, handle, f"`{name}` ({js.className}), the last Keras model made in `strategy.scope()`"
    if models:
        name, handle, js = models[-1]
        return name, handle, f"`{name}` ({js.className}), the last Keras model the notebook defines"
    return None, None, "the kernel holds no Keras model: run the notebook first"


def keras_state(handle):
    """``{f"{index:03d}/{layer}/{weight}": engine tensor}`` in ``model.get_weights()`` order."""
    import js

    same = getattr(js.Object, "is")  # JavaScript's identity (``is`` is a Python keyword)
    model = _js_model(handle)
    state = {}
    for layer in model.layers:
        named = list(layer.namedWeights)
        for value in layer.weights:
            entry = next(w for w in named if same(w.value, value))
            short = str(entry.name).removesuffix(":0").removeprefix(f"{layer.name}/")
            state[f"{len(state):03d}/{layer.name}/{short}"] = value
    return state


def keras_input_shape(handle):
    """The batch input shape the model was built with (None for any size), or None."""
    model = _js_model(handle)
    layers = list(model.layers)
    if not model.built or not layers or not layers[0].built:
        return None
    return [int(d) if isinstance(d, (int, float)) else None for d in layers[0].inputShape]
