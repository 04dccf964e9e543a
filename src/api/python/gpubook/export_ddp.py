"""A PyTorch notebook as a DistributedDataParallel script for real PyTorch, with its weights (a
TensorFlow one as a MultiWorkerMirroredStrategy script, with its Keras model's weights).

``export(sources, namespace, title)`` rewrites the code cells with ``ast`` (``_ddp_rewrite``),
picks the module whose weights go along (``pick_model``; ``pick_keras_model`` for TensorFlow) and
returns the texts of the download (``train.py``, ``README.md``, ``requirements.txt``), that module
(or Keras model), and a report of what changed and what could not be translated. The page asks
the kernel for it (``export_to_store``) and zips the files. ``ast.unparse`` drops comments: the
script has none of the notebook's.
"""

import ast
import json

from ._cells import parse_cells, render
from ._ddp_prelude import EPILOGUE, HELPERS, PRELUDE, TF_PRELUDE
from ._ddp_rewrite import Plan, rewrite
from ._export_texts import readme, readme_tf, requirements
from ._keras_weights import assigning_statement, keras_input_shape, keras_state, pick_keras_model
from ._mwms_rewrite import rewrite_tf

__all__ = ["export", "pick_model", "weights_of", "export_to_store"]


class Report:
    """What the dialog lists: lines not translated (cell, line, code, why) and what changed."""

    def __init__(self):
        self.cell = None
        self.lines = []
        self.items = []
        self.changes = []
        self._pending = []

    def start(self, cell):
        self.cell = cell
        self.lines = cell.source.split("\n")

    def untranslated(self, node, reason):
        line = getattr(node, "lineno", None)
        code = self.lines[line - 1].strip() if line and line <= len(self.lines) else ""
        self.items.append({"cell": self.cell.number, "line": line, "code": code, "reason": reason})
        self._pending.append((line or 0, reason))

    def take(self, start, end):
        """The reasons of lines start..end not yet written as comments."""
        taken = [r for line, r in self._pending if start <= line <= end]
        self._pending = [(line, r) for line, r in self._pending if not start <= line <= end]
        return taken

    def changed(self, text):
        if text not in self.changes:
            self.changes.append(text)


def _is_module(value):
    from torch import nn

    return isinstance(value, nn.Module)


def _top_level_names(cells):
    """Names assigned at the top of the cells, by their last assignment, in that order."""
    order = []
    for cell in cells:
        for stmt in cell.tree.body if cell.tree else []:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else []
            for target in targets:
                if isinstance(target, ast.Name):
                    if target.id in order:
                        order.remove(target.id)
                    order.append(target.id)
    return order


def pick_model(cells, namespace):
    """(name, module whose state_dict is exported, why) — or (None, None, why).

    The last ``nn.DataParallel`` the cells assign wins (its ``.module``'s weights), else the
    last-assigned ``nn.Module``; names the cells never assign at top level come last, in the
    namespace's order."""
    from torch import nn

    if not namespace:
        return None, None, "no kernel variables were given"
    names = [n for n in _top_level_names(cells) if n in namespace]
    names += [n for n in namespace if n not in names and not n.startswith("_")]
    modules = [(n, namespace[n]) for n in names if _is_module(namespace[n])]
    parallel = [(n, m) for n, m in modules if isinstance(m, nn.DataParallel)]
    if parallel:
        name, model = parallel[-1]
        kind = type(model.module).__name__
        return name, model.module, f"`{name}.module` ({kind}), the module `{name}` wraps in DataParallel"
    if modules:
        name, model = modules[-1]
        return name, model, f"`{name}` ({type(model).__name__}), the last module the notebook defines"
    return None, None, "the kernel holds no nn.Module: run the notebook first"


def framework_of(cells):
    """``"tensorflow"`` when the cells import TensorFlow (or Keras) and not PyTorch."""
    roots = set()
    for cell in cells:
        for node in ast.walk(cell.tree) if cell.tree else []:
            if isinstance(node, ast.Import):
                roots |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                roots.add(node.module.split(".")[0])
    return "tensorflow" if roots & {"tensorflow", "keras"} and "torch" not in roots else "torch"


def export(sources, namespace=None, title="notebook", params=None):
    """The export of the code cells ``sources``; ``namespace`` is the kernel's globals (or None)."""
    cells = parse_cells(sources)
    tf = framework_of(cells) == "tensorflow"
    if tf:
        name, model, why = pick_keras_model(cells, namespace)
        # A Keras model is usually made inside `with strategy.scope():`, not at the top.
        plan = Plan(cells, None)
        plan.weights_after = assigning_statement(cells, name) if name else None
    else:
        name, model, why = pick_model(cells, namespace)
        plan = Plan(cells, name)
    report = Report()
    parts = []
    dropped = []
    for cell in cells:
        report.start(cell)
        dropped += [{"cell": cell.number, "line": n, "code": t} for n, t in cell.dropped]
        header = f"# %% cell {cell.number}"
        if cell.tree is None:
            if cell.error is not None:
                report.untranslated(ast.Pass(lineno=1), f"not valid Python: {cell.error}")
                commented = "\n".join("# " + line for line in cell.source.split("\n"))
                parts.append(f"{header}\n# gpubook: not valid Python ({cell.error})\n{commented}")
            continue
        text = render((rewrite_tf if tf else rewrite)(cell, plan, report)).strip()
        if text and text != "pass":
            parts.append(f"{header}\n{text}")
    if name is not None and plan.weights_call is None and plan.weights_after is None:
        report.changed(f"`{name}` is not assigned at the top of a cell: call load_weights({name}) yourself")
    what = (
        "TensorFlow MultiWorkerMirroredStrategy.\n# Launch: one process per machine, each with its TF_CONFIG"
        if tf
        else "PyTorch DistributedDataParallel.\n# Launch: torchrun --nproc_per_node=N train.py"
    )
    script = "\n\n".join(
        [
            f"# train.py: the notebook {title!r}, exported by gpubook for {what}"
            " (README.md). Comments of the notebook are not kept.",
            (TF_PRELUDE if tf else PRELUDE).rstrip(),
            HELPERS.rstrip(),
            f"params = {params or {}!r}",
            *([f"WEIGHTS_INPUT_SHAPE = {_input_shape(model)!r}  # the model's, to build it"] if tf else []),
            *parts,
        ]
    )
    script = script.rstrip() + "\n" + ("" if tf else EPILOGUE)
    return {
        "framework": "tensorflow" if tf else "torch",
        "script_name": "train.py",
        "script": script,
        "model": {"name": name, "why": why},
        "module": model,
        "untranslated": sorted(report.items, key=lambda i: (i["cell"], i["line"] or 0)),
        "dropped": dropped,
        "changes": report.changes,
        "readme": (readme_tf if tf else readme)(title, name, why, model is not None),
        "requirements": requirements(script),
    }


def _input_shape(model):
    shape = keras_input_shape(model) if model is not None else None
    return None if shape is None else tuple(shape)


def weights_of(result):
    """The ``{name: tensor}`` of the export's weights (a state_dict, or a Keras model's weights
    under train.py's loader names), or None."""
    module = result["module"]
    if module is None:
        return None
    return keras_state(module) if result["framework"] == "tensorflow" else module.state_dict()


EXPORT_DIR = ".export-ddp"


def export_to_store(sources_json, namespace, title):
    """Runs ``export`` on the kernel's globals and hands its files to the page through the
    kernel's file store: ``.export-ddp/report.json`` and ``.export-ddp/weights.safetensors``
    (``torch.save`` writes the weights there as safetensors, for a Keras model too: its engine
    tensors). src/app/ddp-export.ts reads them and removes them."""
    import torch
    from torch import _bridge as b

    from . import params

    result = export(json.loads(sources_json), namespace, json.loads(title), params)
    weights = weights_of(result)
    del result["module"]
    if weights is not None:
        torch.save(weights, f"{EXPORT_DIR}/weights.safetensors")
    result["has_weights"] = weights is not None
    report = b.to_js(json.dumps(result).encode("utf-8"))
    b.wait(b.host.storeFile(f"{EXPORT_DIR}/report.json", report))
