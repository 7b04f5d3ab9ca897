"""The formula evaluation: token scores, corpus BLEU-4, the LaTeX compile check, the evaluator."""

import json
import math
import shutil
from pathlib import Path

import pytest

from tools.eval.formula_eval import (
    DEV_GROUP,
    FORMULA_SET_DIR,
    OVERALL,
    compile_outcome,
    load_formula_set,
    main,
    summarise,
)
from tools.eval.formula_scores import corpus_bleu, latex_corpus_bleu, token_exact, token_similarity
from tools.eval.latex_compile import (
    CompileCheckUnavailable,
    build_document,
    check_formulas,
    read_log,
)



def _latex_missing() -> str | None:
    """Why the compile check cannot run on this machine (no LaTeX, or a LaTeX without the
    preamble's packages, such as a TeX Live without texlive-latex-extra), or None."""
    if shutil.which("latex") is None:
        return "no latex binary: TeX Live comes with make formula-sysdeps"
    try:
        check_formulas(["x"])
    except CompileCheckUnavailable as exc:
        return f"LaTeX here cannot run the compile check ({exc}); make formula-sysdeps"
    return None


LATEX_MISSING = _latex_missing()
needs_latex = pytest.mark.skipif(LATEX_MISSING is not None, reason=str(LATEX_MISSING))


# --- token similarity and exact match -----------------------------------------------------------

def test_similarity_counts_normalised_tokens():
    # x^2 is x ^ { 2 }: five tokens, one substituted.
    assert token_similarity("x^2", "x^3") == pytest.approx(1 - 1 / 5)
    # a+b against a+b+c: two insertions over five tokens.
    assert token_similarity("a+b", "a+b+c") == pytest.approx(1 - 2 / 5)
    assert token_similarity("", "") == 1.0
    assert token_similarity("", "x") == 0.0


def test_equivalent_spellings_are_exact():
    assert token_exact(r"\frac12", r"\frac{1}{2}")
    assert token_exact(r"a+\left(x+y\right)-x", "a + ( x + y ) - x")
    assert token_similarity(r"a \le b", r"a\leq b") == 1.0
    assert not token_exact("x^2", "x^3")


# --- corpus BLEU-4 ------------------------------------------------------------------------------

def test_bleu_of_identical_corpus_is_one():
    assert corpus_bleu([list("abcde")], [list("abcde")]) == pytest.approx(1.0)


def test_bleu_hand_computed_one_substitution():
    # a b c d e against a b c d f: p1..p4 = 4/5, 3/4, 2/3, 1/2, equal lengths (no penalty).
    expected = (4 / 5 * 3 / 4 * 2 / 3 * 1 / 2) ** 0.25
    assert corpus_bleu([list("abcde")], [list("abcdf")]) == pytest.approx(expected)
    assert expected == pytest.approx(0.668740, abs=1e-6)


def test_bleu_clips_repeated_ngrams():
    # a a b c d against a b c d e: the second "a" finds no second "a" in the reference, so
    # p1 = 4/5 (not 5/5), p2 = 3/4, p3 = 2/3, p4 = 1/2.
    assert corpus_bleu([list("aabcd")], [list("abcde")]) == pytest.approx(0.2**0.25)


def test_bleu_sums_over_the_corpus_and_penalises_brevity():
    # Every n-gram of both candidates matches (p_n = 1), but the candidates have 6 tokens
    # against 9 in the references: BP = exp(1 - 9/6).
    candidates = [list("wxyz"), list("wx")]
    references = [list("wxyz"), list("wxyzv")]
    assert corpus_bleu(candidates, references) == pytest.approx(math.exp(-0.5))


def test_bleu_is_zero_without_any_matching_4gram():
    assert corpus_bleu([list("abcxd")], [list("abcyd")]) == 0.0
    assert corpus_bleu([[]], [list("ab")]) == 0.0


def test_latex_bleu_uses_normalised_tokens():
    assert latex_corpus_bleu([r"\frac12+x^2"], [r"\frac{1}{2}+x^{2}"]) == pytest.approx(1.0)


# --- the compile check: reading the log (no LaTeX needed) ---------------------------------------

def test_read_log_attributes_errors_to_their_block():
    log = "\n".join([
        "(./f.tex", "PLFORMULA-BEGIN 0", "PLFORMULA-END 0",
        "PLFORMULA-BEGIN 1", "! Undefined control sequence.", "l.12 \\foo", "PLFORMULA-END 1",
        "PLFORMULA-BEGIN 2", "Runaway argument?",
    ])
    read = read_log(log, 3)
    assert read.verdicts == [True, False, None]
    assert read.last_begun == 2


def test_read_log_refuses_a_broken_preamble_or_an_empty_log():
    with pytest.raises(CompileCheckUnavailable, match="preamble"):
        read_log("! LaTeX Error: File `mathtools.sty' not found.\n", 2)
    with pytest.raises(CompileCheckUnavailable):
        read_log("This is pdfTeX\n", 1)


def test_each_formula_sits_on_its_own_line():
    source = build_document(["a % b", "c"])
    assert "\na % b\n$}" in source
    assert source.count("\\typeout{PLFORMULA-BEGIN") == 2


def test_without_latex_the_share_is_null_with_the_reason(monkeypatch):
    monkeypatch.setattr("tools.eval.latex_compile.find_compiler", lambda: None)
    with pytest.raises(CompileCheckUnavailable, match="on PATH"):
        check_formulas(["x"])
    outcome = compile_outcome(["x", None], ["x", "y"])
    assert outcome.predictions is None and outcome.truths is None
    assert "on PATH" in outcome.reason


# --- the compile check with LaTeX ---------------------------------------------------------------

@needs_latex
def test_compile_check_accepts_good_and_rejects_broken_formulas():
    formulas = [
        r"\frac{a}{b} + \sqrt[3]{x}",
        r"\frac{a",  # a runaway argument that swallows what follows
        r"x^2",
        r"\undefinedcommand x",
        r"a}b",
        r"\begin{array}{c} a",  # leaves a group open
        r"\coloneqq \nicefrac{1}{2} \mathscr{L} \cancel{x} \upalpha",  # Tier-B packages
        r"\left( x",
        r"\begin{cases} a & b \\ c & d \end{cases}",
        r"$\egroup\begingroup\hbox\bgroup$",  # no error of its own, but a group left open
        r"\iffalse",  # stops the run
        r"y",
    ]
    assert check_formulas(formulas, batch_size=4) == [
        True, False, True, False, False, False, True, False, True, False, False, True,
    ]


@needs_latex
def test_compile_check_survives_a_formula_that_hangs():
    assert check_formulas(["y", r"\def\a{\a}\a", "z"], timeout_s=1.0) == [True, False, True]


@needs_latex
def test_a_missing_reading_does_not_compile():
    outcome = compile_outcome([None, "x^2"], ["x", r"\frac{1"])
    assert outcome.predictions == [False, True]
    assert outcome.truths == [True, False]
    assert outcome.reason is None


# --- summaries and the evaluator ----------------------------------------------------------------

def _row(group, exact, confidence=0.9, multiline=False, compiles=True):
    return {"id": f"{group}-{exact}", "group": group, "multiline": multiline, "truth": "x",
            "prediction": "x" if exact else "y", "similarity": 1.0 if exact else 0.0,
            "exact": exact, "confidence": confidence, "compiles": compiles,
            "truth_compiles": True}


def test_summary_per_group_with_dev_crops_beside_the_set():
    rows = [_row("im2latex", True, 0.9), _row("katex", False, 0.5, multiline=True),
            _row(DEV_GROUP, False, 0.7, compiles=None)]
    summary = summarise(rows)
    assert list(summary) == ["im2latex", "katex", "single_line", "multi_line", OVERALL, DEV_GROUP]
    assert summary[OVERALL]["n"] == 2
    assert summary[OVERALL]["similarity"] == 0.5
    assert summary[OVERALL]["confidence_right"] == 0.9
    assert summary[OVERALL]["confidence_wrong"] == 0.5
    assert summary[DEV_GROUP]["compiles"] is None


def test_unknown_group_is_refused(tmp_path):
    record = {"id": "x", "input": "images/x.png", "truth": "x", "group": "somewhere else",
              "multiline": False}
    (tmp_path / "manifest.json").write_text(json.dumps([record]), encoding="utf-8")
    with pytest.raises(ValueError, match="unknown group"):
        load_formula_set(tmp_path)


@pytest.fixture
def formula_set_dir() -> Path:
    if not (FORMULA_SET_DIR / "manifest.json").is_file():
        pytest.skip(f"formula evaluation set not found at {FORMULA_SET_DIR}")
    return FORMULA_SET_DIR


def test_evaluator_on_real_images(formula_set_dir, tmp_path, capsys):
    # Both images were checked by eye; the recogniser reads them exactly.
    exact_ids = ["katex-ss-LeftRightListStyling-chrome", "im2latex-smallocr-195"]
    ids = [*exact_ids, "katex-ss-Cases-chrome", "katex-ss-Sqrt-firefox"]
    out = tmp_path / "formula.json"
    assert main(["--no-dev", "--ids", *ids, "--out", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    rows = {row["id"]: row for row in report["items"]}
    assert sorted(rows) == sorted(ids)
    for row in rows.values():
        assert {"id", "truth", "prediction", "similarity", "exact", "confidence",
                "compiles"} <= set(row)
        assert 0.0 <= row["similarity"] <= 1.0
    for item_id in exact_ids:
        assert rows[item_id]["similarity"] == 1.0
        assert rows[item_id]["exact"] is True
    assert rows["katex-ss-Cases-chrome"]["group"] == "katex"
    assert rows["katex-ss-Cases-chrome"]["multiline"] is True
    if LATEX_MISSING is None:
        assert rows["katex-ss-LeftRightListStyling-chrome"]["compiles"] is True
        # The manifest says this truth does not compile as one math expression.
        assert rows["katex-ss-Cases-chrome"]["truth_compiles"] is False
    assert report["summary"][OVERALL]["n"] == 4
    # The same images through a plain conversion, scored the same way.
    converted = {row["id"]: row for row in report["through_convert"]["items"]}
    assert sorted(converted) == sorted(ids)
    assert report["through_convert"]["summary"][OVERALL]["n"] == 4
    for row in converted.values():
        assert 0.0 <= row["similarity"] <= 1.0
    assert "through a plain conversion" in capsys.readouterr().out


def test_a_candidate_model_folder_is_scored_in_place_of_the_shipped_one(formula_set_dir, tmp_path,
                                                                         capsys):
    # An export's folder (here a copy of the shipped graphs) is read like the shipped model.
    candidate = tmp_path / "candidate"
    shutil.copytree(Path(__file__).resolve().parents[2] / "resources" / "formula", candidate)
    out = tmp_path / "formula.json"
    ids = ["katex-ss-LeftRightListStyling-chrome"]
    assert main(["--no-dev", "--no-compile", "--ids", *ids, "--model-dir", str(candidate),
                 "--out", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["model"]["id"] == f"candidate {candidate}"
    assert report["items"][0]["exact"] is True
    (candidate / "vocab.txt").unlink()
    assert main(["--no-dev", "--ids", *ids, "--model-dir", str(candidate), "--out", str(out)]) == 2
    assert "lacks vocab.txt" in capsys.readouterr().err


def test_held_out_renders_are_scored_from_their_chunk_files(formula_set_dir, tmp_path, capsys):
    # A chunk as tools.formula.render writes it, made of two formula-set images read exactly.
    records = {r["id"]: r for r in json.loads((formula_set_dir / "manifest.json").read_text())}
    renders = tmp_path / "renders-val"
    renders.mkdir()
    blobs, items, offset = [], [], 0
    for item_id in ["im2latex-smallocr-195", "katex-ss-LeftRightListStyling-chrome"]:
        png = (formula_set_dir / records[item_id]["input"]).read_bytes()
        items.append({"offset": offset, "size": len(png), "tokens": records[item_id]["truth"]})
        blobs.append(png)
        offset += len(png)
    (renders / "chunk-00000.bin").write_bytes(b"".join(blobs))
    (renders / "chunk-00000.json").write_text(json.dumps({"setup": {}, "items": items}))
    out = tmp_path / "renders.json"
    assert main(["--renders", str(renders), "--no-compile", "--out", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert [row["id"] for row in report["items"]] == ["chunk-00000/0", "chunk-00000/1"]
    assert all(row["group"] == "renders" and row["exact"] for row in report["items"])
    assert report["summary"][OVERALL]["n"] == 2 and DEV_GROUP not in report["summary"]
    # A chunk cut short: the evaluator says which file, instead of scoring a blank image.
    (renders / "chunk-00000.bin").write_bytes(b"".join(blobs)[:-100])
    assert main(["--renders", str(renders), "--no-compile", "--out", str(out)]) == 2
    assert "chunk-00000.bin at" in capsys.readouterr().err
