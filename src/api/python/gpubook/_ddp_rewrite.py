"""The ``ast`` rewrite of a PyTorch notebook's cells into a DistributedDataParallel script.

What changes (each a node transformation, never text substitution):

- ``nn.DataParallel(m, ...)`` → ``DistributedDataParallel(m.to(DEVICE), device_ids=DEVICE_IDS)``;
  the one the exported weights belong to loads them first (``load_weights(m)``).
- ``DataLoader(ds, batch_size=B, shuffle=S, ...)`` → ``batch_size=per_process_batch(B)``,
  ``sampler=DistributedSampler(ds, shuffle=S)``; a ``for`` loop around code that uses such
  loaders (the epoch loop) calls ``loader.sampler.set_epoch(epoch)`` first.
- ``print``/``display``/``plot_metric`` statements and ``torch.save`` run on rank 0 only;
  ``torch.save(p.state_dict(), f)`` of a wrapped model saves ``p.module.state_dict()``;
  ``tqdm(...)`` gets ``disable=not IS_MAIN``.
- device strings ``"cuda:N"`` and ``x.cuda()`` become ``DEVICE`` (the process's own device, or
  the CPU without CUDA); ``torch.cuda.synchronize()`` becomes the prelude's ``_sync()``.
- ``from gpubook import ...`` goes (the prelude defines plain equivalents); a cell's last bare
  expression, which the notebook showed as ``Out``, is ``display``\\ ed.

What cannot be translated is kept, after a ``# gpubook:`` comment saying why, and listed.
"""

import ast

from ._cells import commented, is_note, note

__all__ = ["rewrite"]

_RANK0_CALLS = {"print", "display", "plot_metric", "pprint"}
_BROWSER_MODULES = {"js", "pyodide", "_gpubook", "micropip"}


def dotted(node):
    """``a.b.c`` of a Name/Attribute chain, or None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _last(call):
    name = dotted(call.func) if isinstance(call, ast.Call) else None
    return name.rsplit(".", 1)[-1] if name else None


def _is_dp(node):
    return isinstance(node, ast.Call) and _last(node) == "DataParallel"


def _is_loader(node):
    return isinstance(node, ast.Call) and _last(node) == "DataLoader"


def _targets(stmt):
    if isinstance(stmt, ast.Assign):
        return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
    if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and isinstance(stmt.target, ast.Name):
        return [stmt.target.id]
    return []


def _name(id_):
    return ast.Name(id_, ast.Load())


def _call(func, args=(), keywords=()):
    return ast.Call(func, list(args), list(keywords))


class Plan:
    """What the rewrite learns from all cells before changing any: loaders, wrapped models and
    where the exported weights' module is made."""

    def __init__(self, cells, weights_name):
        self.loaders = set()
        self.wrapped = set()
        self.weights_call = None  # the DataParallel call that wraps the weights' module
        self.weights_after = None  # else: the statement after which the module is complete
        for cell in cells:
            if cell.tree is None:
                continue
            for node in ast.walk(cell.tree):
                value = getattr(node, "value", None)
                for target in _targets(node) if isinstance(node, ast.stmt) else []:
                    if _is_loader(value):
                        self.loaders.add(target)
                    if _is_dp(value):
                        self.wrapped.add(target)
            for stmt in cell.tree.body:
                if weights_name in _targets(stmt):
                    if _is_dp(stmt.value):
                        self.weights_call, self.weights_after = stmt.value, None
                    else:
                        self.weights_call, self.weights_after = None, stmt


class _Expressions(ast.NodeTransformer):
    """Expression-level changes (DataParallel, DataLoader, tqdm, device strings)."""

    def __init__(self, plan, report):
        self.plan = plan
        self.report = report

    def visit_Call(self, node):
        original = node
        node = self.generic_visit(node)
        last = _last(node)
        if last == "DataParallel":
            return self._ddp(node, original)
        if last == "DataLoader":
            return self._loader(node)
        if last == "KerasModel":
            self.report.untranslated(
                node,
                "torchkeras.KerasModel runs its own loop (through accelerate), "
                "not DistributedDataParallel: launch it with accelerate",
            )
        if dotted(node.func) == "torch.cuda.synchronize":
            # A no-op without CUDA, where PyTorch's own raises.
            return _call(_name("_sync"))
        if isinstance(node.func, ast.Attribute) and node.func.attr == "cuda" and not node.keywords:
            if not node.args or isinstance(node.args[0], ast.Constant):
                # x.cuda() is the current device: the process's own with CUDA; the CPU without.
                return _call(ast.Attribute(node.func.value, "to", ast.Load()), [_name("DEVICE")])
        if last in ("tqdm", "trange") and not any(k.arg == "disable" for k in node.keywords):
            flag = ast.UnaryOp(ast.Not(), _name("IS_MAIN"))
            node.keywords.append(ast.keyword("disable", flag))
        self._devices(node)
        return node

    def _ddp(self, node, original):
        if not node.args:
            return node
        module = node.args[0]
        if original is self.plan.weights_call:
            module = _call(_name("load_weights"), [module])
        if any(k.arg in ("device_ids", "output_device", "dim") for k in node.keywords):
            self.report.changed("DataParallel's device_ids/output_device: each process uses its own device")
        moved = _call(ast.Attribute(module, "to", ast.Load()), [_name("DEVICE")])
        return _call(
            _name("DistributedDataParallel"),
            [moved],
            [ast.keyword("device_ids", _name("DEVICE_IDS"))],
        )

    def _loader(self, node):
        if not node.args or any(k.arg in ("sampler", "batch_sampler") for k in node.keywords):
            self.report.untranslated(node, "a DataLoader with its own sampler (or no dataset argument) is not split")
            return node
        dataset = node.args[0]
        batch = None
        if len(node.args) > 1:
            batch = node.args[1]
            node.args = node.args[:1]
        keywords, shuffle = [], ast.Constant(False)
        for k in node.keywords:
            if k.arg == "batch_size":
                batch = k.value
            elif k.arg == "shuffle":
                shuffle = k.value
            else:
                keywords.append(k)
        if batch is None:
            batch = ast.Constant(1)
        sampler = _call(_name("DistributedSampler"), [dataset], [ast.keyword("shuffle", shuffle)])
        node.keywords = [
            ast.keyword("batch_size", _call(_name("per_process_batch"), [batch])),
            ast.keyword("sampler", sampler),
            *keywords,
        ]
        return node

    def _devices(self, node):
        """``"cuda:N"`` passed as a device → the process's device."""

        def fix(value):
            if isinstance(value, ast.IfExp):
                # torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
                value.body, value.orelse = fix(value.body), fix(value.orelse)
                return value
            if (
                isinstance(value, ast.Constant)
                and isinstance(value.value, str)
                and value.value.startswith("cuda:")
                and value.value[5:].isdigit()
            ):
                return _name("DEVICE")
            return value

        if isinstance(node.func, ast.Attribute) and node.func.attr in ("to", "device"):
            node.args = [fix(a) for a in node.args]
        for k in node.keywords:
            if k.arg in ("device", "map_location"):
                k.value = fix(k.value)


def _header_lines(stmt):
    """The lines whose notes go before ``stmt``: all of a simple statement, a compound one's
    header (its body's statements take theirs); none for statements the rewrite made."""
    start = getattr(stmt, "lineno", None)
    if start is None:
        return 0, -1
    body = getattr(stmt, "body", None)
    first = getattr(body[0], "lineno", None) if isinstance(body, list) and body else None
    return start, (first - 1 if first else stmt.end_lineno)


class _Statements:
    """Statement-level changes, walking every statement list (module, function, loop bodies)."""

    def __init__(self, plan, report):
        self.plan = plan
        self.report = report

    def body(self, stmts, top=False, in_epoch=False, cell_end=False):
        out, rank0 = [], []

        def flush():
            if rank0:
                out.append(ast.If(_name("IS_MAIN"), list(rank0), []))
                rank0.clear()

        for i, stmt in enumerate(stmts):
            is_last = cell_end and i == len(stmts) - 1
            for kept in self.statement(stmt, top, in_epoch, is_last):
                if self._rank0(kept):
                    rank0.append(kept)
                else:
                    flush()
                    out.append(kept)
        flush()
        # A block left with only comments (a statement commented out) needs a statement.
        if not top and all(is_note(s) for s in out):
            out.append(ast.Pass())
        return out

    def _rank0(self, stmt):
        if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
            return False
        name = dotted(stmt.value.func)
        return name in _RANK0_CALLS or name == "torch.save"

    def statement(self, stmt, top, in_epoch, is_last):
        """The statements that replace ``stmt`` (usually itself, changed)."""
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            kept = self._import(stmt)
            if not kept:
                return []
        if top and not isinstance(stmt, ast.AsyncFunctionDef):
            if any(isinstance(n, ast.Await) for n in ast.walk(stmt)):
                # Not even valid in a script: kept as a comment.
                self.report.untranslated(stmt, "top-level await runs only in a notebook")
                reasons = self.report.take(*_header_lines(stmt))
                return [note(r) for r in reasons] + [commented(stmt)]
        if isinstance(stmt, ast.Expr) and dotted(getattr(stmt.value, "func", None)) == "torch.save":
            self._save(stmt.value)
        # Notes for what the expression pass (or the checks above) could not translate here; a
        # compound statement takes those of its header line, its body's statements the rest.
        prefix = [note(reason) for reason in self.report.take(*_header_lines(stmt))]
        if is_last and isinstance(stmt, ast.Expr) and not isinstance(stmt.value, (ast.Call, ast.Await, ast.Constant)):
            stmt = ast.Expr(_call(_name("display"), [stmt.value]))
        if isinstance(stmt, ast.For) and not in_epoch:
            epochs = self._epoch_loaders(stmt)
            if epochs:
                in_epoch = True
                calls = [
                    ast.Expr(
                        _call(
                            ast.Attribute(
                                ast.Attribute(_name(loader), "sampler", ast.Load()),
                                "set_epoch",
                                ast.Load(),
                            ),
                            [_name(stmt.target.id)],
                        )
                    )
                    for loader in epochs
                ]
                stmt.body = calls + stmt.body
        for field in ("body", "orelse", "finalbody"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                setattr(stmt, field, self.body(block, False, in_epoch))
        for handler in getattr(stmt, "handlers", []):
            handler.body = self.body(handler.body, False, in_epoch)
        for case in getattr(stmt, "cases", []):
            case.body = self.body(case.body, False, in_epoch)
        after = []
        if stmt is self.plan.weights_after:
            target = _targets(stmt)[0]
            after.append(ast.Expr(_call(_name("load_weights"), [_name(target)])))
        return prefix + [stmt] + after

    def _import(self, stmt):
        modules = [a.name for a in stmt.names] if isinstance(stmt, ast.Import) else [stmt.module or ""]
        roots = {m.split(".")[0] for m in modules}
        if roots == {"gpubook"}:
            self.report.changed("gpubook's helpers are plain Python functions in train.py")
            return []
        if roots & _BROWSER_MODULES:
            self.report.untranslated(stmt, "a browser-only module: there is none outside the browser")
        if roots & {"tensorflow", "keras"}:
            self.report.untranslated(stmt, "TensorFlow code is not translated in a PyTorch export")
        return [stmt]

    def _save(self, call):
        """``torch.save(p.state_dict(), f)`` of a DDP model saves ``p.module``'s state."""
        if not call.args:
            return
        first = call.args[0]
        if (
            isinstance(first, ast.Call)
            and isinstance(first.func, ast.Attribute)
            and first.func.attr == "state_dict"
            and isinstance(first.func.value, ast.Name)
            and first.func.value.id in self.plan.wrapped
        ):
            first.func.value = ast.Attribute(first.func.value, "module", ast.Load())
        elif isinstance(first, ast.Name) and first.id in self.plan.wrapped:
            call.args[0] = ast.Attribute(first, "module", ast.Load())

    def _epoch_loaders(self, loop):
        """The loaders an epoch loop (a ``for`` over anything but a loader) goes through."""
        if not isinstance(loop.target, ast.Name):
            return []
        iterated = {n.id for n in ast.walk(loop.iter) if isinstance(n, ast.Name)}
        if iterated & self.plan.loaders:
            return []
        seen = []
        for node in ast.walk(ast.Module(loop.body, [])):
            if isinstance(node, ast.Name) and node.id in self.plan.loaders and node.id not in seen:
                seen.append(node.id)
        return seen


def rewrite(cell, plan, report):
    """One parsed cell as rewritten statements."""
    tree = _Expressions(plan, report).visit(cell.tree)
    body = _Statements(plan, report).body(tree.body, top=True, cell_end=True)
    return ast.Module(body, [])
