"""Generated born-digital math pages with known truth: prose with inline formulas, typeset by
pdfLaTeX in three math font families (Computer Modern, Times with mathptmx, Palatino with
mathpazo), one and two columns, each page also as a scan.

The prose is real English (tools/structure/text_source: the standard library's docstrings); the
inline formulas are real LaTeX, short formulas of the textbooks in the formula corpus
(../shared/formula/corpus, the training corpus, never an evaluation truth), kept to the commands
every family typesets. The truth of a page is its Markdown with the formulas as `$...$`."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from engine.formulas.latex_tokens import normalized
from tools.mathset.measure import SCAN_SUFFIX
from tools.structure.scans import scan
from tools.structure.text_source import Prose, load_prose

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "formula" / "corpus"
SOURCES = ("lebl_basic_analysis.txt", "lebl_diffyqs.txt", "crowell_light_and_matter.txt",
           "stacks_project.txt")
FAMILIES = {"cm": "", "times": "\\usepackage{mathptmx}", "palatino": "\\usepackage{mathpazo}"}
# Commands every family sets without extra packages (amsmath, amssymb, mathtools loaded).
ALLOWED = frozenset("""
alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi
rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi Omega
frac sqrt sum prod int lim infty partial nabla cdot times leq geq le ge neq ne in notin subset
subseteq cup cap to mapsto ldots dots cdots prime bar hat tilde vec log sin cos tan exp ln max min
sup inf det pm mp approx equiv sim forall exists emptyset setminus circ otimes oplus langle rangle
mathbb mathbf mathcal mathrm operatorname coloneqq quad qquad left right
""".split())
MAX_TOKENS = 18


@dataclass(frozen=True)
class MathPage:
    name: str
    family: str
    columns: int
    tex: str
    truth: str


def inline_formulas(limit: int = 4000) -> list[str]:
    """Short one-line formulas of the corpus that every family typesets."""
    found: list[str] = []
    for source in SOURCES:
        path = CORPUS / source
        if not path.is_file():
            continue
        for line in path.read_text(encoding="utf-8").splitlines()[:limit]:
            latex = line.strip().rstrip(".,; ").strip()
            commands = set(re.findall(r"\\([A-Za-z]+)", latex))
            if (not latex or "\\\\" in latex or "&" in latex or "%" in latex or "$" in latex
                    or not commands <= ALLOWED or "\\left" in latex and "\\right" not in latex):
                continue
            tokens = normalized(latex)
            if 2 <= len(tokens) <= MAX_TOKENS and latex.count("{") == latex.count("}"):
                found.append(latex)
    return found


def _sentences(paragraph: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.])\s+", paragraph) if s]


def _dollars(text: str) -> str:
    """Prose for the truth Markdown: its own dollar signs cannot open a formula."""
    return text.replace("$", "\\$")


def _escape(text: str) -> str:
    return re.sub(r"([&%$#_{}~^\\])", lambda m: "\\" + m.group(1)
                  if m.group(1) not in "~^\\" else " ", text)


def _paragraphs(rng: random.Random, prose, formulas: list[str], count: int
                ) -> tuple[list[str], list[str]]:
    """`count` paragraphs as TeX and as truth Markdown, each sentence followed now and then by
    an inline formula."""
    tex_paragraphs, truth_paragraphs = [], []
    for paragraph in prose.sample(rng, count):
        tex_parts, truth_parts = [], []
        for sentence in _sentences(paragraph)[:4]:
            words = sentence.split()
            if len(words) > 6 and rng.random() < 0.7:
                cut = rng.randrange(3, len(words) - 2)
                formula = rng.choice(formulas)
                head, tail = " ".join(words[:cut]), " ".join(words[cut:])
                tex_parts.append(f"{_escape(head)} ${formula}$ {_escape(tail)}")
                truth_parts.append(f"{_dollars(head)} ${formula}$ {_dollars(tail)}")
            else:
                tex_parts.append(_escape(sentence))
                truth_parts.append(_dollars(sentence))
        tex_paragraphs.append(" ".join(tex_parts))
        truth_paragraphs.append(" ".join(truth_parts))
    return tex_paragraphs, truth_paragraphs


def _preamble(family: str, columns: int) -> str:
    options = "twocolumn," if columns == 2 else ""
    return (f"\\documentclass[{options}11pt]{{article}}\n\\usepackage[T1]{{fontenc}}\n"
            f"\\usepackage{{amsmath,amssymb,mathtools}}\n{FAMILIES[family]}\n"
            "\\usepackage[margin=2.5cm]{geometry}\n\\pagestyle{empty}\n")


def page(name: str, rng: random.Random, prose, formulas: list[str], family: str,
         columns: int) -> MathPage:
    """One page: a few paragraphs, each sentence followed now and then by an inline formula."""
    tex_paragraphs, truth_paragraphs = _paragraphs(rng, prose, formulas,
                                                   5 if columns == 2 else 4)
    tex = (_preamble(family, columns) + "\\begin{document}\n"
           + "\n\n".join(tex_paragraphs) + "\n\\end{document}\n")
    return MathPage(name, family, columns, tex, "\n\n".join(truth_paragraphs) + "\n")


SECTIONS = ("section", "subsection", "subsubsection")
OUTLINE = ((1,), (1, 1), (1, 1, 1), (1, 1, 2), (1, 2), (2,), (2, 1), (2, 1, 1), (2, 2),
           (2, 2, 1), (3,))
"""The numbered titles of a sectioned document, in order: three depths (1, 1.1, 1.1.1)."""


def sectioned(name: str, rng: random.Random, prose, formulas: list[str], family: str
              ) -> MathPage:
    """A document of a few pages as an article is written: a title, then numbered sections,
    subsections and subsubsections (OUTLINE), each followed by paragraphs with inline formulas.
    The truth has the title at level 1 and a title numbered n.n at level 3 (its depth + 1)."""
    title = prose.title(rng)
    tex = [_preamble(family, 1), f"\\title{{{_escape(title)}}}\n\\author{{}}\n\\date{{}}\n",
           "\\begin{document}\n\\maketitle\n\\thispagestyle{empty}\n"]
    truth = [f"# {_dollars(title)}"]
    for number in OUTLINE:
        heading = prose.title(rng)
        tex.append(f"\\{SECTIONS[len(number) - 1]}{{{_escape(heading)}}}\n")
        truth.append(f"{'#' * (len(number) + 1)} {'.'.join(map(str, number))} "
                     f"{_dollars(heading)}")
        tex_paragraphs, truth_paragraphs = _paragraphs(rng, prose, formulas, rng.randint(1, 2))
        tex.append("\n\n".join(tex_paragraphs) + "\n\n")
        truth.extend(truth_paragraphs)
    tex.append("\\end{document}\n")
    return MathPage(name, family, 1, "".join(tex), "\n\n".join(truth) + "\n")


def _materials(out: Path, seed: int) -> tuple[list[str], random.Random, Prose]:
    """What every generated document is drawn from: the corpus's inline formulas, the seeded
    draw and the prose; `out` made. Stops with what to install when pdfLaTeX is missing."""
    if shutil.which("pdflatex") is None:
        raise SystemExit("pdflatex is needed: make formula-sysdeps (TeX Live)")
    formulas = inline_formulas()
    if not formulas:
        raise SystemExit(f"no formulas found in {CORPUS}")
    out.mkdir(parents=True, exist_ok=True)
    return formulas, random.Random(seed), load_prose()


def generate(out: Path, seed: int, count: int, scans: bool = True) -> list[Path]:
    """`count` pages per family and column count; each as <name>.pdf beside <name>.md (truth)
    and <name>.json (family, columns), and with `scans` its scanned variant <name>-scan.jpg
    (tools/structure/scans.py: 150-300 dpi, turned, blurred, noisy, JPEG). Pages whose TeX
    fails are left out and said."""
    formulas, rng, prose = _materials(out, seed)
    made = []
    for family in FAMILIES:
        for columns in (1, 2):
            for index in range(count):
                name = f"math-{family}-{columns}col-{seed}-{index:02d}"
                built = page(name, rng, prose, formulas, family, columns)
                pdf = _typeset(built, out)
                if pdf is None:
                    print(f"{name}: TeX failed; left out")
                    continue
                (out / f"{name}.md").write_text(built.truth, encoding="utf-8")
                (out / f"{name}.json").write_text(json.dumps(
                    {"family": family, "columns": columns}), encoding="utf-8")
                if scans:
                    (out / f"{name}{SCAN_SUFFIX}").write_bytes(
                        scan(pdf.read_bytes(), random.Random(f"{seed}-{name}")))
                made.append(pdf)
    return made


def _typeset(built: MathPage, out: Path) -> Path | None:
    with tempfile.TemporaryDirectory() as work:
        source = Path(work) / f"{built.name}.tex"
        source.write_text(built.tex, encoding="utf-8")
        run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                              source.name], cwd=work, capture_output=True, timeout=120)
        pdf = Path(work) / f"{built.name}.pdf"
        if run.returncode != 0 or not pdf.is_file():
            return None
        target = out / pdf.name
        shutil.copyfile(pdf, target)
        return target


def generate_sectioned(out: Path, seed: int, count: int) -> list[Path]:
    """`count` sectioned documents per family (`sectioned`), written as `generate` writes
    pages. Documents whose TeX fails are left out and said."""
    formulas, rng, prose = _materials(out, seed)
    made = []
    for family in FAMILIES:
        for index in range(count):
            name = f"sections-{family}-{seed}-{index:02d}"
            built = sectioned(name, rng, prose, formulas, family)
            pdf = _typeset(built, out)
            if pdf is None:
                print(f"{name}: TeX failed; left out")
                continue
            (out / f"{name}.md").write_text(built.truth, encoding="utf-8")
            (out / f"{name}.json").write_text(json.dumps({"family": family, "columns": 1}),
                                              encoding="utf-8")
            made.append(pdf)
    return made
