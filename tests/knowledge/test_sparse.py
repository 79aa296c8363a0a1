"""The sparse channel: normalised character n-grams and stable hashed vectors."""

from __future__ import annotations

import subprocess
import sys

from core.text.sparse import INDEX_SPACE, SparseEncoder, char_ngrams


def test_ngrams_are_normalised_nfkc_lower_and_whitespace_collapsed() -> None:
    assert char_ngrams("ＶＰＮ\t\n  Ab", 2, 2) == ["vp", "pn", "n ", " a", "ab"]


def test_chinese_needs_no_segmenter() -> None:
    grams = char_ngrams("报错691", 2, 3)
    assert {"报错", "错6", "69", "91", "报错6", "691"} <= set(grams)


def test_empty_and_short_text_give_no_grams() -> None:
    assert char_ngrams("   ") == []
    assert char_ngrams("a") == []


def test_encoding_is_sorted_sublinear_and_in_range() -> None:
    indices, values = SparseEncoder().encode("aaaa aaaa")
    assert indices == sorted(indices)
    assert len(indices) == len(set(indices))
    assert all(0 <= index < INDEX_SPACE for index in indices)
    assert max(values) > 1.0  # repeated n-grams weigh more, but less than linearly
    assert max(values) < 6


def test_hashing_is_stable_across_processes() -> None:
    here = SparseEncoder().encode("VPN 连不上，报错 691")
    code = (
        "from core.text.sparse import SparseEncoder;"
        "print(SparseEncoder().encode('VPN 连不上，报错 691')[0])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == str(here[0])
