"""What Sphinx adds to reStructuredText, read the way a reader sees the built page.

Most .rst files are Sphinx documentation; plain docutils does not know Sphinx's roles
(:func:`signal`, :ref:`text <label>`) or directives (.. autoclass::, .. versionadded::), and
shows them as error text, and an unknown directive before the title hides the title. Here:

- cross-reference roles show their text: the title of `text <target>`, else the target, as
  code for code objects (:func:, :class:, ...), as plain text for prose ones (:ref:, :doc:,
  :term:); a leading "~" or "!" is dropped as Sphinx does;
- object descriptions (.. function::, .. class::, .. autoclass:: ...) show their signature as
  code and then their body;
- version notes and "see also" show a label and their body; layout and index directives
  (toctree, index, currentmodule, rst-class, only's condition, ...) show nothing but content;
- nothing reads a file: literalinclude and the auto-documenters never look outside the text.

Registered once, on docutils' own registries, when the first .rst file is read.
"""

from __future__ import annotations

from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import Directive, directives, roles

CODE_ROLES = (
    "func", "meth", "class", "attr", "obj", "mod", "data", "exc", "const", "envvar", "option",
    "program", "command", "file", "samp", "py:func", "py:meth", "py:class", "py:attr", "py:obj",
    "py:mod", "py:data", "py:exc", "py:const", "c:func", "c:type", "c:macro", "c:data",
    "cpp:func", "cpp:class", "js:func", "js:class",
)  # fmt: skip
TEXT_ROLES = ("ref", "doc", "term", "any", "keyword", "numref", "guilabel", "menuselection", "abbr", "dfn")
DESCRIBED = (
    "function", "class", "method", "attribute", "data", "exception", "module", "decorator",
    "staticmethod", "classmethod", "autoclass", "autofunction", "automethod", "autoattribute",
    "autodata", "autoexception", "automodule", "py:function", "py:class", "py:method",
    "py:attribute", "py:data", "c:function", "c:type", "c:macro",
)  # fmt: skip
LABELLED = {"versionadded": "New in version", "versionchanged": "Changed in version", "deprecated": "Deprecated since version", "seealso": "See also"}  # fmt: skip
CONTAINERS = ("only", "rst-class", "centered", "hlist", "tabularcolumns", "glossary", "productionlist")
NOTHING = ("toctree", "index", "currentmodule", "module-options", "highlight", "literalinclude", "autosummary", "sectionauthor", "codeauthor", "default-role", "default-domain")  # fmt: skip


class _AnyOption(dict[str, Any]):
    """Every option accepted, its value kept as text (Sphinx directives have many)."""

    def __missing__(self, key: str) -> Any:
        return directives.unchanged

    def __bool__(self) -> bool:  # docutils reads options only when a directive has some
        return True


def _xref(name: str, rawtext: str, text: str, lineno: int, inliner: Any, options: Any = None, content: Any = None) -> tuple[list[nodes.Node], list[Any]]:  # fmt: skip
    shown = text.strip()
    if shown.endswith(">") and " <" in shown:  # `title <target>`
        shown = shown[: shown.rindex(" <")].strip()
    shown = shown.lstrip("~!")
    if "~" in text and name in CODE_ROLES:  # `~a.b.c` shows the last part
        shown = shown.rsplit(".", 1)[-1]
    node: nodes.Node = nodes.literal(rawtext, shown) if name in CODE_ROLES else nodes.Text(shown)
    return [node], []


class _Content(Directive):  # type: ignore[misc]  # docutils has no type hints
    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar[dict[str, Any]] = _AnyOption()

    def body(self) -> list[nodes.Node]:
        holder = nodes.container()
        if self.content:
            self.state.nested_parse(self.content, self.content_offset, holder)
        return list(holder.children)

    def run(self) -> list[nodes.Node]:
        return self.body()


class _Nothing(_Content):
    def run(self) -> list[nodes.Node]:
        return []


class _Described(_Content):
    """An object's signature as code, then its description."""

    def run(self) -> list[nodes.Node]:
        signature = " ".join(self.arguments).strip()
        head = [nodes.paragraph("", "", nodes.literal(signature, signature))] if signature else []
        return head + self.body()


class _Labelled(_Content):
    """A version note or "see also": its label (and version) in emphasis, then its body."""

    label = ""

    def run(self) -> list[nodes.Node]:
        version = " ".join(self.arguments).strip()
        label = f"{self.label} {version}:" if version else f"{self.label}:"
        return [nodes.paragraph("", "", nodes.emphasis(label, label)), *self.body()]


_registered = False


def register() -> None:
    """Teach docutils the Sphinx roles and directives above (once per process)."""
    global _registered
    if _registered:
        return
    for name in CODE_ROLES + TEXT_ROLES:
        roles.register_local_role(name, _xref)
    for name in DESCRIBED:
        directives.register_directive(name, _Described)
    for name, label in LABELLED.items():
        directives.register_directive(name, type(f"_{name}", (_Labelled,), {"label": label}))
    for name in CONTAINERS:
        directives.register_directive(name, _Content)
    for name in NOTHING:
        directives.register_directive(name, _Nothing)
    _registered = True
