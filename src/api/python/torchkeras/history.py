"""The history ``KerasModel.fit`` returns: rows by epoch, columns by name (``h['val_acc']``),
printed as a table the way pandas prints torchkeras's DataFrame."""


class History:
    def __init__(self):
        self.rows = []

    def append(self, row):
        self.rows.append(dict(row))

    @property
    def columns(self):
        names = []
        for row in self.rows:
            names.extend(k for k in row if k not in names)
        return names

    def __getitem__(self, key):
        if isinstance(key, int):
            return self.rows[key]
        return [row.get(key) for row in self.rows]

    def __len__(self):
        return len(self.rows)

    def __iter__(self):
        return iter(self.columns)

    def to_dict(self, orient="list"):
        if orient == "records":
            return [dict(r) for r in self.rows]
        return {c: self[c] for c in self.columns}

    def __repr__(self):
        columns = self.columns

        def cell(v):
            return f"{v:.6f}" if isinstance(v, float) else str(v)

        table = [[""] + columns] + [[str(i)] + [cell(r.get(c, "")) for c in columns] for i, r in enumerate(self.rows)]
        widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
        return "\n".join("  ".join(v.rjust(w) for v, w in zip(row, widths)) for row in table)
