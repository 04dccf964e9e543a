"""Run by export-ddp-keras.test.ts in Pyodide over our ``tensorflow``: runs a Keras notebook's cells,
exports it for the cluster (gpubook.export_ddp) and returns, as JSON, what the test compares with
the exported files. The test calls these functions with ``callPromising``, so the cells may block
on GPU read-backs (``run_sync``). A test fixture, not an installed package.
"""

import json

from gpubook.export_ddp import export, export_to_store, weights_of


def _flat(value):
    return [z for y in value for z in _flat(y)] if isinstance(value, list) else [value]


def export_in_scope(cells_json):
    """Runs every cell, exports the notebook into the tensor store (``.export-ddp/``) and returns
    the model's weights as our package reads them, its layers, its input and its output."""
    cells = json.loads(cells_json)
    namespace = {}
    for cell in cells:
        exec(cell, namespace)
    export_to_store(json.dumps(cells), namespace, json.dumps("Keras"))
    model = namespace["model"]
    return json.dumps(
        {
            "weights": [{"shape": list(w.shape), "values": _flat(w.numpy())} for w in model.weights],
            "keras": [_flat(v) for v in model.get_weights()],
            "layers": [layer.name for layer in model.layers],
            "x": namespace["x"].numpy(),
            "out": model(namespace["x"]).numpy(),
        }
    )


def export_last_assigned(cells_json):
    """Runs the first cell and exports the notebook: which model, its weights' names and shapes,
    and the generated script."""
    cells = json.loads(cells_json)
    namespace = {}
    exec(cells[0], namespace)
    result = export(cells, namespace, "t")
    return json.dumps(
        {
            "model": result["model"],
            "names": list(weights_of(result)),
            "shapes": [list(w.shape) for w in namespace["net"].weights],
            "script": result["script"],
        }
    )
