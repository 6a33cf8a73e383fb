"""The terminal client uses Textual's public API only: no private module of Textual imported, no private
attribute or method of a Textual class overridden, set or read. (A private is Textual's to change in any
release: the table then breaks silently, which is why Textual was once pinned to one release.)"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import re
from pathlib import Path

import textual

import tenpennies.client

CLIENT = Path(tenpennies.client.__file__).resolve().parent
TEXTUAL = Path(textual.__file__).resolve().parent
PRIVATE = re.compile(r"^_[a-z]\w*$")  # one underscore: a dunder is Python's, not Textual's
NAMED = re.compile(r"(?:\bdef |\bself\.|^[ \t]+)(_[a-z]\w*)\b", re.MULTILINE)


def modules() -> list[tuple[str, ast.Module]]:
    """Each module of the client, by its import name, parsed."""
    out = []
    for path in sorted(CLIENT.rglob("*.py")):
        name = "tenpennies.client." + ".".join(path.relative_to(CLIENT).with_suffix("").parts)
        out.append((name.removesuffix(".__init__"), ast.parse(path.read_text(), str(path))))
    return out


@functools.cache
def textual_privates() -> frozenset[str]:
    """Every private name Textual's source gives an attribute or a method, in any of its classes."""
    names: set[str] = set()
    for path in TEXTUAL.rglob("*.py"):
        names.update(NAMED.findall(path.read_text(encoding="utf-8")))
    return frozenset(names)


@functools.cache
def privates_of(base: type) -> frozenset[str]:
    """The private names a Textual class has: its own attributes and methods, and those its code sets on
    ``self``."""
    names = {name for name in vars(base) if PRIVATE.match(name)}
    try:
        names.update(NAMED.findall(inspect.getsource(base)))
    except (OSError, TypeError):
        pass
    return frozenset(names)


def is_textual(kind: type) -> bool:
    module = kind.__module__
    return module == "textual" or module.startswith("textual.")


def own_names(tree: ast.AST) -> set[str]:
    """The private names the client's code gives an attribute or a method: ``def _x``, ``_x = ...`` in a
    class, ``self._x = ...``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and PRIVATE.match(node.name):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                targets = item.targets if isinstance(item, ast.Assign) else \
                    [item.target] if isinstance(item, ast.AnnAssign) else []
                names.update(t.id for t in targets if isinstance(t, ast.Name) and PRIVATE.match(t.id))
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and PRIVATE.match(node.attr) \
                and isinstance(node.value, ast.Name) and node.value.id == "self":
            names.add(node.attr)
    return names


def test_no_private_module_of_textual_is_imported() -> None:
    found = []
    for name, tree in modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("textual"):
                if any(part.startswith("_") for part in node.module.split(".")) or \
                        any(PRIVATE.match(alias.name) for alias in node.names):
                    found.append(f"{name}:{node.lineno} from {node.module} import ...")
            elif isinstance(node, ast.Import):
                found += [f"{name}:{node.lineno} import {alias.name}" for alias in node.names
                          if alias.name.startswith("textual") and "._" in alias.name]
    assert not found, found


def test_no_class_of_the_client_overrides_sets_or_reads_a_private_of_its_textual_bases() -> None:
    """A widget's or a screen's own private names (its methods, class attributes and what its code sets or
    reads on ``self``) are none of its Textual bases' (``_update_timer``, ``_size_known``...)."""
    found = []
    for name, tree in modules():
        module = importlib.import_module(name)
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            kind = getattr(module, node.name, None)
            if not isinstance(kind, type):
                continue
            theirs: set[str] = set()
            for base in kind.__mro__[1:]:
                if is_textual(base):
                    theirs |= privates_of(base)
            if not theirs:
                continue
            ours = own_names(node) | {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
                                      and isinstance(n.value, ast.Name) and n.value.id == "self"
                                      and PRIVATE.match(n.attr)}
            found += [f"{name}.{node.name}.{attr}" for attr in sorted(ours & theirs)]
    assert not found, found


def test_no_private_of_textual_is_read_on_another_object() -> None:
    """``self.styles._cache_key``, ``app._batch_count``: a private name read on anything but ``self``, which
    Textual's classes have and the client's code gives nothing of its own."""
    ours: set[str] = set()
    trees = modules()
    for _, tree in trees:
        ours |= own_names(tree)
    found = []
    for name, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and PRIVATE.match(node.attr) \
                    and not (isinstance(node.value, ast.Name) and node.value.id == "self") \
                    and node.attr in textual_privates() and node.attr not in ours:
                found.append(f"{name}:{node.lineno} .{node.attr}")
    assert not found, found
