"""The ``ast`` rewrite of a TensorFlow notebook's cells for ``MultiWorkerMirroredStrategy``.

The prelude (``_ddp_prelude.TF_PRELUDE``) makes the one strategy first, as TensorFlow requires,
so ``tf.distribute.MirroredStrategy(...)`` becomes that ``STRATEGY``; the browser's split of one
GPU into logical GPUs is left as a comment (each worker uses its machine's devices); printing
happens on the chief; ``model.save``/``save_weights`` run on every worker (saving is collective)
but only the chief writes to the notebook's path. The statement-level rules (rank-0 printing,
notes, magics, gpubook imports) are the PyTorch export's.
"""

import ast

from ._cells import commented, note
from ._ddp_rewrite import _call, _name, _Statements, dotted

__all__ = ["rewrite_tf"]

_LOGICAL_SPLIT = {"set_virtual_device_configuration", "set_logical_device_configuration"}


class _TfExpressions(ast.NodeTransformer):
    def __init__(self, report):
        self.report = report

    def visit_Call(self, node):
        node = self.generic_visit(node)
        name = dotted(node.func) or ""
        last = name.rsplit(".", 1)[-1]
        if last == "MirroredStrategy":
            if node.args or node.keywords:
                self.report.changed("MirroredStrategy's devices: each worker uses its own")
            return _name("STRATEGY")
        if isinstance(node.func, ast.Attribute) and last in ("save", "save_weights") and node.args:
            node.args[0] = _call(_name("chief_path"), [node.args[0]])
        return node


class _TfStatements(_Statements):
    def statement(self, stmt, top, in_epoch, is_last):
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        name = dotted(call.func) if isinstance(call, ast.Call) else None
        if name and name.rsplit(".", 1)[-1] in _LOGICAL_SPLIT:
            return [
                note("the browser's logical GPUs: each worker uses its machine's devices"),
                commented(stmt),
            ]
        return super().statement(stmt, top, in_epoch, is_last)

    def _rank0(self, stmt):
        if super()._rank0(stmt):
            return True
        return isinstance(stmt, ast.Expr) and dotted(getattr(stmt.value, "func", None)) == "tf.print"

    def _import(self, stmt):
        # TensorFlow is what this export is for; torch is what would be foreign here.
        modules = [a.name for a in stmt.names] if isinstance(stmt, ast.Import) else [stmt.module or ""]
        if any(m.split(".")[0] == "torch" for m in modules):
            self.report.untranslated(stmt, "PyTorch code is not translated in a TensorFlow export")
            return [stmt]
        if any(m.split(".")[0] in ("tensorflow", "keras") for m in modules):
            return [stmt]
        return super()._import(stmt)


def rewrite_tf(cell, plan, report):
    """One parsed cell as rewritten statements."""
    tree = _TfExpressions(report).visit(cell.tree)
    body = _TfStatements(plan, report).body(tree.body, top=True, cell_end=True)
    return ast.Module(body, [])
