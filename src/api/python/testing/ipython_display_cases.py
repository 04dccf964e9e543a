"""The display protocol's Python glue (IPython/) under Debian's CPython, for ipython-display.test.ts:
each case's display bundles (data, metadata) as JSON on stdout, what went to stderr and the
warnings beside them. Run with src/api/python on PYTHONPATH (our IPython, not an installed one).
"""

import contextlib
import io
import json
import struct
import sys
import warnings
import zlib

import IPython
from IPython.core.formatters import format_display_data
from IPython.display import HTML, JSON, SVG, Image, Javascript, Markdown, Pretty, clear_output, display, install

assert IPython.__file__.startswith(sys.argv[1]), IPython.__file__

published = []
install(
    lambda data, md, display_id, update: published.append(
        {"data": data, "metadata": md, "display_id": display_id, "update": update}
    ),
    lambda wait: published.append({"clear": wait}),
)


def tiny_png():
    """A 1×1 PNG made here, so the test needs no image file."""

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00"))
        + chunk(b"IEND", b"")
    )


PNG = tiny_png()


class Rich:
    def __repr__(self):
        return "Rich()"

    def _repr_html_(self):
        return "<b>rich</b>"

    def _repr_png_(self):
        return PNG, {"width": 10}

    def _repr_markdown_(self):
        return None  # no such representation

    def _repr_json_(self):
        return {"a": [1, 2]}


class Bundle:
    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/html": "<i>bundle</i>", "application/x-custom": "x"}, {"text/html": {"isolated": True}}

    def _repr_latex_(self):
        return r"$x^2$"

    def _repr_html_(self):
        return "<i>not used: the bundle gave text/html</i>"


class Raising:
    def __repr__(self):
        return "Raising()"

    def _repr_html_(self):
        raise ValueError("broken html")

    def _repr_markdown_(self):
        return "*still shown*"


class WrongType:
    def _repr_html_(self):
        return 42


def case(obj, **kwargs):
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        data, md = format_display_data(obj, **kwargs)
    return {
        "data": data,
        "metadata": md,
        "stderr": stderr.getvalue(),
        "warnings": [str(w.message) for w in caught],
    }


results = {
    "rich": case(Rich()),
    "bundle": case(Bundle()),
    "bundle_excluding_html": case(Bundle(), exclude=["text/html"]),
    "raising": case(Raising()),
    "wrong_type": case(WrongType()),
    "class_itself": case(Rich),
    "html": case(HTML("<p>hi</p>")),
    "markdown": case(Markdown("# Title")),
    "image": case(Image(data=PNG, width=20)),
    "svg": case(SVG('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>')),
    "json": case(JSON({"k": [1, 2]}, expanded=True)),
    "pretty": case(Pretty("plain text")),
    "javascript": case(Javascript("alert(1)")),
    "image_url": case(Image(url="https://example.org/a.png", width=5)),
}

with open("/tmp/gpubook-ipython-test.png", "wb") as f:
    f.write(PNG)
results["image_file"] = case(Image(filename="/tmp/gpubook-ipython-test.png"))

try:
    import pandas

    frame = pandas.DataFrame({"a": [1, 2], "b": [0.5, 0.25]})
    results["dataframe"] = case(frame)
except ImportError as error:
    results["dataframe"] = {"missing": str(error)}

handle = display(HTML("<b>1</b>"), display_id=True)
handle.update(Markdown("**2**"))
display(Rich(), Pretty("two objects"))
clear_output(wait=True)
display("plain", clear=True)
results["published"] = published

print(json.dumps(results))
