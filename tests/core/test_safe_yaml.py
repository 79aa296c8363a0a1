"""`core.safe_yaml`: the files shipped in the package read through libyaml give exactly what
the bounded loader gives (the bounds are for files that admins and documents bring)."""

from __future__ import annotations

from importlib import resources

import pytest

from core.safe_yaml import load_shipped_yaml, load_yaml

SHIPPED = [
    ("brain.intent", "security.yaml"),
    ("brain.intent", "taxonomy.yaml"),
    ("controllers.builtin", "catalog.yaml"),
]


@pytest.mark.parametrize(("package", "name"), SHIPPED)
def test_a_shipped_file_reads_the_same_through_libyaml(package: str, name: str) -> None:
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    assert load_shipped_yaml(text) == load_yaml(text)
    assert load_shipped_yaml(text)  # not empty
