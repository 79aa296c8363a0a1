"""`brain controllers import` end to end through the CLI: a desk's labelled CSV becomes
controllers, a fitted routing model and a calibration; bad files name their line and change
nothing; a re-import rewrites the same files."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest

from cli import exit_codes, main

DESK: dict[str, tuple[list[str], list[str]]] = {
    "Printer Support": (
        ["the printer on floor", "printer jammed again on", "cannot print to the printer in"],
        ["three", "two near finance", "the hr corner", "level five", "building b"],
    ),
    "Payroll": (
        ["my payslip is wrong for", "salary not paid for", "tax deduction looks odd in"],
        ["march", "last month", "the bonus run", "april", "this period"],
    ),
    "Purchase": (
        ["please raise a purchase order for", "need to buy", "order approval pending for"],
        ["two monitors", "a docking station", "licences for visio", "new headsets"],
    ),
}


def _rows(count: int, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    rows = []
    for _ in range(count):
        label = rng.choice(sorted(DESK))
        starts, ends = DESK[label]
        rows.append((f"hello team, {rng.choice(starts)} {rng.choice(ends)} thanks", label))
    return rows


def _csv(path: Path, rows: list[tuple[str, str]], header: tuple[str, str] = ("body", "queue")):
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def _state(home: Path) -> dict[str, bytes]:
    if not home.is_dir():
        return {}
    return {
        str(p.relative_to(home)): p.read_bytes()
        for p in sorted(home.rglob("*"))
        if p.is_file() and "decisions" not in p.parts
    }


@pytest.fixture(autouse=True)
def _sparse_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BRAIN_EMBEDDER", "none")  # the import's logic, not MiniLM's speed


@pytest.mark.slow
def test_import_makes_one_controller_per_category_and_routes_among_them(
    tmp_path: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _csv(tmp_path / "desk.csv", _rows(240, 0))
    argv = ["controllers", "import", str(source), "--text", "body", "--label", "queue", "--json"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert "held out" in captured.err  # progress on stderr
    assert sorted(report["created"]) == ["payroll", "printer_support", "purchase"]
    assert set(report["per_category"]) == set(DESK)
    assert report["held_out"] >= 20 and report["accuracy"] >= 0.8
    assert 0.0 <= report["asked_back_share"] <= 1.0
    assert (isolated_env / "calibration.json").is_file()
    assert list((isolated_env / "models").glob("semantic-*.npz"))

    assert main(["controllers", "--json"]) == 0
    listed = {c["name"]: c for c in json.loads(capsys.readouterr().out)}
    payroll = listed["payroll"]
    assert payroll["label"] == "Payroll" and 0 < payroll["examples"] <= 40
    assert "payslip" in payroll["description"] or "salary" in payroll["description"]

    before = _state(isolated_env)
    assert main(argv) == 0  # idempotent: the same files, the same fit
    capsys.readouterr()
    after = _state(isolated_env)
    assert {k: v for k, v in after.items() if k != "calibration.json"} == {
        k: v for k, v in before.items() if k != "calibration.json"
    }

    assert main(["ask", "--json", "hello, please raise a purchase order for two monitors"]) == 0
    decision = json.loads(capsys.readouterr().out)
    assert decision["controller"] == "purchase" or "purchase" in decision["signals"]
    ranked = sorted(decision["signals"], key=lambda n: -decision["signals"][n]["total"])
    assert ranked[0] == "purchase"
    # An imported category acts: its ticket is filed in that queue (it "noted" the message).
    filed = main(["ask", "--json", "hello team, need to buy new headsets thanks", "--user", "u7"])
    assert filed == 0
    routed = json.loads(capsys.readouterr().out)
    assert routed["controller"] == "purchase", routed["tier_path"]
    ticket = routed["result"]["data"]["ticket"]
    assert ticket["kind"] == "ticket" and ticket["fields"]["category"] == "Purchase"

    # An e-mail routes on what its sender wrote, not on the thread quoted under it.
    mail = (
        "Hello team,\n\nplease raise a purchase order for a docking station\n\nKind regards,\n"
        "Anna\n\n-----Original Message-----\nFrom: Payroll\nSent: Monday\n"
        "> my payslip is wrong for march, salary not paid for april, tax deduction looks odd"
    )
    assert main(["ask", "--json", mail]) == 0
    semantic = {n: s["semantic"] for n, s in json.loads(capsys.readouterr().out)["signals"].items()}
    assert max(semantic, key=semantic.__getitem__) == "purchase"


@pytest.mark.slow
def test_map_folds_a_category_into_an_existing_controller(
    tmp_path: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _csv(tmp_path / "desk.csv", _rows(150, 1))
    argv = ["controllers", "import", str(source), "--text", "body", "--label", "queue"]
    assert main([*argv, "--map", "Purchase=change", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert sorted(report["created"]) == ["payroll", "printer_support"]
    assert report["mapped"] == {"Purchase": "change"}
    rows = (isolated_env / "training" / "import-desk.jsonl").read_text().splitlines()
    assert any(json.loads(r)["controller"] == "change" for r in rows)

    assert main([*argv, "--map", "Purchase=nowhere"]) == exit_codes.USAGE
    assert "nowhere" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("problem", "line", "words"),
    [
        ("missing column", 1, "no column 'queue'"),
        ("empty label", 4, "'queue' is empty"),
        ("huge cell", 3, "over the limit"),
    ],
)
def test_a_bad_file_names_its_line_and_leaves_the_home_as_it_was(
    tmp_path: Path,
    isolated_env: Path,
    capsys: pytest.CaptureFixture[str],
    problem: str,
    line: int,
    words: str,
) -> None:
    rows = _rows(30, 2)
    header = ("body", "queue")
    if problem == "missing column":
        header = ("body", "category")
    elif problem == "empty label":
        rows[2] = (rows[2][0], " ")
    else:
        rows[1] = ("x" * 1_000_000, rows[1][1])
    source = _csv(tmp_path / "bad.csv", rows, header)
    before = _state(isolated_env)
    argv = ["controllers", "import", str(source), "--text", "body", "--label", "queue"]
    assert main(argv) == exit_codes.USAGE
    err = capsys.readouterr().err
    assert f"line {line}:" in err and words in err
    assert _state(isolated_env) == before


@pytest.mark.slow
def test_a_category_named_like_a_controller_of_the_home_is_that_controller(
    tmp_path: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A desk's "Access" queue is the built-in `access`: no `access_2` beside it that splits
    the queue's tickets in two while the built-in keeps taking them."""
    rng = random.Random(2)
    access = [
        "please grant me read access to the finance share",
        "I need permission for the sales dashboard",
        "request access to the jira project for my new hire",
        "can you give me write rights on the marketing drive",
    ]
    rows = [(f"hi, {rng.choice(access)} thanks", "Access") for _ in range(40)]
    rows += [r for r in _rows(120, 3) if r[1] != "Purchase"]
    source = _csv(tmp_path / "desk.csv", rows)
    argv = ["controllers", "import", str(source), "--text", "body", "--label", "queue", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["mapped"] == {"Access": "access"}
    assert sorted(report["created"]) == ["payroll", "printer_support"]
    lines = (isolated_env / "training" / "import-desk.jsonl").read_text().splitlines()
    assert {json.loads(r)["controller"] for r in lines if "finance share" in r} == {"access"}
    assert main(["controllers", "--json"]) == 0
    names = {c["name"] for c in json.loads(capsys.readouterr().out)}
    assert "access" in names and not any(n.startswith("access_") for n in names)
    # --map still says otherwise
    assert main([*argv, "--map", "Access=incident"]) == 0
    assert json.loads(capsys.readouterr().out)["mapped"] == {"Access": "incident"}
