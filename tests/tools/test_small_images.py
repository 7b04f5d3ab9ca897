"""The small-image set (tools/small_images.py): crops of both kinds are drawn reproducibly, and a
padding rule is scored from the recorded detections as the stage would apply it."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import REPO_ROOT
from tools.small_images import score


def generate_apart(folder, count: int, seed: int) -> list[dict]:
    """`generate` in a fresh interpreter, as the command runs (the prose source reads the
    standard library's docstrings, which depend on what is imported)."""
    subprocess.run([sys.executable, "-m", "tools.small_images", "generate", "--seed", str(seed),
                    "--count", str(count), "--root", str(folder)],
                   cwd=REPO_ROOT, check=True, capture_output=True, timeout=300)
    return json.loads((folder / "manifest.json").read_text())["items"]


def test_generated_crops_are_both_kinds_and_reproducible(tmp_path):
    first = generate_apart(tmp_path / "a", 6, seed=5)
    again = generate_apart(tmp_path / "b", 6, seed=5)
    assert [i["table"] for i in first] == [True, False] * 3
    assert {i["kind"] for i in first} == {"grid", "rules", "plain", "paragraph", "list", "line"}
    for one, two in zip(first, again):
        assert (tmp_path / "a" / one["file"]).read_bytes() == (tmp_path / "b" / two["file"]).read_bytes()
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert manifest["seed"] == 5 and len(manifest["items"]) == 6


def record(table: bool, long_side: int, found_when: set[float]) -> dict:
    return {"table": table, "size": [long_side, long_side // 2],
            "by_factor": {str(f): {"table_found": table and f in found_when,
                                   "any_table": f in found_when}
                          for f in (1.0, 1.25, 1.5, 2.0, 2.5)}}


def test_a_rule_pads_only_images_under_its_threshold():
    items = [record(True, 500, {2.0}), record(True, 1500, {2.0}), record(True, 900, {1.0, 2.0}),
             record(False, 800, {2.5})]
    assert score(items, 0, 2.0)["table_recall"] == round(1 / 3, 3)
    assert score(items, 1000, 2.0)["table_recall"] == round(2 / 3, 3)
    assert score(items, 2000, 2.0)["table_recall"] == 1.0
    assert score(items, 2000, 2.5) == {"threshold": 2000, "factor": 2.5, "table_recall": 0.0,
                                       "false_tables": 1.0, "score": -1.0}
