"""The display-math fault checker over real conversions, as the evaluation runs use it: a few
pages of the generated math set (pdfLaTeX), a page of numbered display equations and an
exercise list typeset here, and the dev set's academic formula pages. None may show a
formula read twice, a lone equation number, or an item number inside a formula's LaTeX."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from tools.eval.math_faults import math_faults
from tools.mathset.generate import CORPUS, inline_formulas, page
from tools.structure.text_source import load_prose

pytestmark = pytest.mark.model

# Numbered display equations, an align with a number per row, an exercise list whose items open
# with a formula and labelled formulas (faults seen on real pages).
DISPLAY_PAGE = r"""\documentclass[11pt]{article}
\usepackage{amsmath}
\usepackage[margin=2.5cm]{geometry}
\pagestyle{empty}
\begin{document}
A stone thrown upward from a tower of height $560$ feet has the height
\begin{equation}
s(t) = -16t^2 + 96t + 560 \label{eq:height}
\end{equation}
after $t$ seconds, and its velocity is the derivative of the height:
\begin{equation}
v(t) = s'(t) = -32t + 96 .
\end{equation}
The area under the parabola between the roots follows from the integral
\begin{equation}
\int_0^1 x^2 \, dx = \frac{1}{3} .
\end{equation}
The energy momentum tensor and its conservation law read
\begin{align}
T_{\mu\nu} &= \partial_\mu\phi\,\partial_\nu\phi - g_{\mu\nu}\mathcal{L} , \\
\partial^\mu T_{\mu\nu} &= 0 .
\end{align}
\section*{Exercises}
\begin{enumerate}\setcounter{enumi}{149}
\item $s(t) = 2t^3 - 3t^2 - 12t + 8$
\item $s(t) = t^3 - 9t^2 + 24t$
\item $s(t) = \sqrt{t} + 4t$
\end{enumerate}
(a) $\displaystyle \int_0^\infty e^{-x^2}\,dx = \frac{\sqrt{\pi}}{2}$

(b) $\displaystyle \sum_{n=1}^\infty \frac{1}{n^2} = \frac{\pi^2}{6}$
\end{document}
"""


def _pdflatex(tex: str, folder: Path, name: str) -> Path:
    (folder / f"{name}.tex").write_text(tex, encoding="utf-8")
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                           f"{name}.tex"], cwd=folder, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:]
    return folder / f"{name}.pdf"


@pytest.fixture(scope="module")
def typeset_pages(tmp_path_factory) -> list[Path]:
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed (make formula-sysdeps)")
    formulas = inline_formulas()
    if not formulas:
        pytest.skip(f"the formula corpus the math set draws from is not at {CORPUS}")
    folder = tmp_path_factory.mktemp("mathset")
    rng, prose = random.Random(3), load_prose()
    pages = [_pdflatex(page(f"math-{family}-{columns}", rng, prose, formulas, family,
                            columns).tex, folder, f"math-{family}-{columns}")
             for family, columns in (("cm", 1), ("times", 2))]
    return [*pages, _pdflatex(DISPLAY_PAGE, folder, "display")]


def _faults_of(engine, path: Path, out: Path) -> list[str]:
    """The faults of the typed result and of the document JSON written beside the Markdown,
    which must agree (the display page's formulas are all found, so none is missed)."""
    from engine.options import ConvertOptions

    result = engine.convert(path, ConvertOptions(output_dir=str(out), write_content_list=False))
    written = json.loads(next(out.glob("*.json")).read_text(encoding="utf-8"))
    typed = [f.describe() for f in math_faults(result)]
    if path.stem == "display":
        formulas = [b.formula.latex for b in result.pages[0].blocks if b.formula]
        assert len(formulas) >= 8 and sum("\\tag{" in f for f in formulas) >= 4, formulas
    assert [f.describe() for f in math_faults(written)] == typed
    return typed


def test_generated_math_pages_have_no_display_math_fault(engine, typeset_pages, tmp_path):
    found = {path.stem: _faults_of(engine, path, tmp_path / path.stem)
             for path in typeset_pages}
    assert found == {path.stem: [] for path in typeset_pages}


def test_the_dev_sets_math_pages_have_no_display_math_fault(engine, eval_dev_dir, tmp_path):
    items = json.loads((eval_dev_dir / "manifest.json").read_text(encoding="utf-8"))
    items = items["items"] if isinstance(items, dict) else items
    chosen = [item for item in items if item["category"] == "academic_formula_page"]
    assert chosen, "the dev set's academic formula pages are missing"
    found = {item["id"]: _faults_of(engine, eval_dev_dir / item["input"], tmp_path / item["id"])
             for item in chosen}
    assert found == {item["id"]: [] for item in chosen}
