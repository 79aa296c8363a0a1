"""One YAML loader for every file the brain reads: `yaml.safe_load` with bounds.

`safe_load` refuses tags that build Python objects, but it expands aliases without limit: a
600-byte document of nested aliases ("billion laughs") is a billion nodes once anything walks
it. This loader counts aliases, the depth of nesting and the nodes the document would have
with every alias expanded, and refuses the document before anything is built.

Aliases and depth are counted on the parser's events, before any node exists (so neither an
alias flood nor a deep document reaches the recursive composer); the node graph is then
composed and its expanded size checked. Both passes run in libyaml when PyYAML has it: on a
60,000-entry glossary (2.3 MB) the pure-Python loader took 14.7 CPU-seconds and 247 MB, this
3.3 s and 165 MB (benchmarks/HISTORY.md, "Large well-formed knowledge files").
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, SequenceNode

from core.errors import BrainError
from core.limits import YAML_MAX_ALIASES, YAML_MAX_DEPTH, YAML_MAX_EXPANDED_NODES

__all__ = ["YamlLimitError", "load_shipped_yaml", "load_yaml"]

#: libyaml's safe loader when PyYAML was built with it, else the pure-Python one (the same
#: documents, the same errors; only speed differs).
_SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_OPEN = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_CLOSE = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


class YamlLimitError(BrainError, yaml.YAMLError):
    """The document is valid YAML but exceeds a limit; the message names which."""


def _check_events(text: str) -> None:
    """Refuse too many aliases or too deep a nesting, from the parser's event stream (flat:
    no node is built and nothing recurses). A node's depth counts the collections around it
    and itself."""
    aliases = 0
    depth = 0
    for event in yaml.parse(text, Loader=_SafeLoader):
        if isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > YAML_MAX_ALIASES:
                line = _line(event)
                raise YamlLimitError(
                    f"more than {YAML_MAX_ALIASES} aliases (the last at line {line})"
                )
        if isinstance(event, _CLOSE):
            depth -= 1
        elif isinstance(event, (*_OPEN, yaml.ScalarEvent, yaml.AliasEvent)):
            if depth + 1 > YAML_MAX_DEPTH:
                line = _line(event)
                raise YamlLimitError(f"nested deeper than {YAML_MAX_DEPTH} levels (line {line})")
            if isinstance(event, _OPEN):
                depth += 1


def _line(event: yaml.Event) -> int | str:
    mark = event.start_mark
    return "?" if mark is None else mark.line + 1


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _expanded_size(node: Node, sizes: dict[int, int], open_nodes: set[int]) -> int:
    """Nodes under `node` with aliases expanded; shared nodes are sized once (memoised), so
    this is linear in the document even when the expansion is astronomical."""
    key = id(node)
    if key in sizes:
        return sizes[key]
    if key in open_nodes:
        raise YamlLimitError("an alias refers to the node that contains it")
    open_nodes.add(key)
    total = 1 + sum(_expanded_size(child, sizes, open_nodes) for child in _children(node))
    open_nodes.discard(key)
    sizes[key] = total
    return total


def _check_expansion(root: Node) -> None:
    """Refuse a document whose aliases add more than YAML_MAX_EXPANDED_NODES values: a large
    file without aliases is bounded by its size, a small one with nested aliases is not."""
    sizes: dict[int, int] = {}
    added = _expanded_size(root, sizes, set()) - len(sizes)
    if added > YAML_MAX_EXPANDED_NODES:
        raise YamlLimitError(
            f"its aliases expand to more than {YAML_MAX_EXPANDED_NODES:,} extra values"
        )


def load_shipped_yaml(text: str) -> Any:
    """A YAML file shipped in the package (reviewed like code) as plain data, through libyaml's
    C parser when PyYAML has it: ten times faster than `load_yaml`, whose bounds are for the
    files that admins and documents bring. Through `load_yaml`, the shipped intent, security
    and controller catalogues cost every `brain ask` a tenth of a CPU-second."""
    return yaml.load(text, Loader=_SafeLoader)


def load_yaml(text: str) -> Any:
    """The document in `text` as plain data (like `yaml.safe_load`), within `core.limits`.

    Raises `yaml.YAMLError` for invalid YAML and its subclass `YamlLimitError` for a document
    over a limit (aliases, expanded size, depth).
    """
    _check_events(text)
    loader = _SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_expansion(node)
        return loader.construct_document(node)
    finally:
        loader.dispose()
