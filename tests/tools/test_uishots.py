"""The screenshot set's pages, truth and scores (tools/uishots); drawing needs Chromium and is
tried only where it is installed."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from tools.uishots.evaluate import code_exact, headings, rows_exact, summarise
from tools.uishots.generate import generate
from tools.uishots.pages import FAMILIES, shot
from tools.uishots.readme import readme_markdown


def test_every_family_has_its_truth_and_code_pages_their_listing():
    for family in FAMILIES:
        page = shot(family, random.Random(7))
        assert page.truth.strip() and page.width > 100 and page.height > 100
        if family.startswith("code_"):
            assert page.truth == f"```\n{page.code}\n```\n"
            assert page.language == ("" if family == "code_shell" else family[len("code_"):])
        else:
            assert not page.code


def test_the_same_seed_gives_the_same_pages():
    assert shot("chat", random.Random(3)) == shot("chat", random.Random(3))
    assert shot("code_c", random.Random(3)) != shot("code_c", random.Random(4))


def test_scores_of_code_and_headings():
    code = "def f(x):\n    return x"
    assert code_exact(f"Some text\n\n```python\n{code}\n```\n", code)
    assert not code_exact(f"```python\ndef f(x):\nreturn x\n```\n", code)
    assert code_exact(code + "\n\n", code, fenced=False)
    assert rows_exact("```\ndef f(y):\n    return y\n```\n", code)
    assert not rows_exact("```\ndef f(x):\n  return x\n```\n", code)
    assert headings("## Mira Okafor\n\nHello\n\n```\n# not a heading\n```\n") == 1


def test_readme_table_from_results():
    rows = [{"family": "code_python", "scale": 1, "tool": "paperlens", "similarity": 1.0,
             "headings": 0, "code_exact": True, "rows_exact": True},
            {"family": "code_python", "scale": 1, "tool": "tesseract", "similarity": 0.9,
             "headings": 0, "code_exact": False}]
    table = readme_markdown({"set": {"count": 1, "seed": 1}, "summary": summarise(rows)})
    assert "| code_python | 1x | 1.000 | 1/1 | 1/1 | 0 | 0.900 | 0/1 |" in table


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Chromium is not installed")
def test_chromium_draws_a_shot_at_both_scales(tmp_path: Path):
    shots = generate(tmp_path, 1, 1, ("code_shell",))
    from PIL import Image

    one, two = (Image.open(tmp_path / f"{s['id']}.png").size for s in shots)
    assert two == (2 * one[0], 2 * one[1])
    listing = (tmp_path / "code_shell-00.code").read_text(encoding="utf-8")
    assert listing in (tmp_path / "code_shell-00.md").read_text(encoding="utf-8")
