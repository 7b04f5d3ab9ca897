"""The training corpus leaves out every formula the evaluation scores, however it is spelled."""

import json

import pytest

from engine.formulas.latex_tokens import detokenize, normalized
from tools.eval.formula_eval import DEV_MANIFEST, FORMULA_SET_DIR
from tools.formula import corpus

HAS_EVAL = ((corpus.DEFAULT_EVAL / "formula" / "manifest.json").is_file()
            and (corpus.DEFAULT_EVAL / "dev" / "manifest.json").is_file())
HAS_CORPUS = HAS_EVAL and corpus.DEFAULT_CORPUS.is_dir()
needs_eval = pytest.mark.skipif(not HAS_EVAL, reason="no ../shared/eval beside the checkout")


def _write_eval(folder):
    """A formula set of one im2latex truth and a dev set of one formula crop and one text page."""
    (folder / "formula").mkdir(parents=True)
    (folder / "formula" / "manifest.json").write_text(json.dumps([
        {"id": "im2latex-smallocr-1", "input": "images/1.png", "truth": "a \\leq b ^ { 2 }",
         "truth_format": "latex", "group": "im2latex-100k (pdflatex)", "multiline": False}]))
    dev = folder / "dev"
    for item in ("im2latex-x", "ocr-page"):
        (dev / "items" / item).mkdir(parents=True)
        (dev / "items" / item / "input.png").write_bytes(b"")
    (dev / "items" / "im2latex-x" / "truth.tex").write_text("\\frac12 + x_i^2\n")
    (dev / "items" / "ocr-page" / "truth.md").write_text("\\frac12 y\n")
    (dev / "manifest.json").write_text(json.dumps([
        {"id": "im2latex-x", "category": "formula_image", "input": "items/im2latex-x/input.png",
         "truth": "items/im2latex-x/truth.tex", "truth_format": "latex"},
        {"id": "ocr-page", "category": "scanned_image", "input": "items/ocr-page/input.png",
         "truth": "items/ocr-page/truth.md", "truth_format": "markdown"}]))


def _rows(out):
    return [json.loads(line) for line in (out / "formulas.jsonl").open()]


def test_eval_truths_are_left_out_of_every_split_in_any_spelling(tmp_path):
    _write_eval(tmp_path / "eval")
    (tmp_path / "corpus").mkdir()
    # The two eval truths spelled differently from the truth files, but canonically equal;
    # formulas that only look alike stay.
    (tmp_path / "corpus" / "a.txt").write_text(
        "{a}\\le{b}^2\n"                      # = a \leq b ^ { 2 } (the formula set)
        "\\dfrac{1}{2}+x^{2}_{i}\n"           # = \frac12 + x_i^2 (a dev crop)
        "\\tfrac 1 2 + {x}_i^{2}\n"           # the same dev crop, a third spelling
        "a \\leq b^3\n"
        "\\frac12 y\n")                       # the text page's "truth" is no formula truth
    stats = corpus.build(tmp_path / "corpus", tmp_path / "out", tmp_path / "vocab.txt",
                         excluded=corpus.eval_keys(tmp_path / "eval"), min_count=1)
    keys = {" ".join(r["tokens"]) for r in _rows(tmp_path / "out")}
    assert corpus.canonical_key("a \\leq b ^ { 2 }") not in keys
    assert corpus.canonical_key("\\frac12 + x_i^2") not in keys
    assert keys == {"a \\leq b ^ { 3 }", "\\frac { 1 } { 2 } y"}
    assert stats["eval_formulas"] == 2
    assert stats["excluded_formulas"] == 2 and stats["excluded_lines"] == 3


def test_the_command_reads_the_eval_sets_and_reports_the_exclusions(tmp_path, capsys):
    _write_eval(tmp_path / "eval")
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "a.txt").write_text("{a}\\le{b}^2\nb \\leq a\n")
    assert corpus.main(["--corpus", str(tmp_path / "corpus"), "--eval", str(tmp_path / "eval"),
                        "--out", str(tmp_path / "out"),
                        "--vocab", str(tmp_path / "vocab.txt")]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["excluded_formulas"] == 1 and stats["read"] == 2
    assert not any(r["latex"] == "{a}\\le{b}^2" for r in _rows(tmp_path / "out"))


def test_without_the_eval_sets_the_corpus_is_not_built(tmp_path, capsys):
    (tmp_path / "corpus").mkdir()
    with pytest.raises(SystemExit) as stopped:
        corpus.main(["--corpus", str(tmp_path / "corpus"), "--eval", str(tmp_path / "none"),
                     "--out", str(tmp_path / "out")])
    assert stopped.value.code == 2
    assert "evaluation manifest" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@needs_eval
def test_the_real_eval_truths_are_the_ones_the_evaluation_scores():
    """The corpus reads the same folders `python -m tools.eval formula` scores: all 196
    formula-set truths and the dev set's 10 formula crops."""
    assert corpus.DEFAULT_EVAL / "formula" == FORMULA_SET_DIR
    assert corpus.DEFAULT_EVAL / "dev" / "manifest.json" == DEV_MANIFEST
    formula_set = json.loads((FORMULA_SET_DIR / "manifest.json").read_text(encoding="utf-8"))
    dev = json.loads(DEV_MANIFEST.read_text(encoding="utf-8"))
    dev_formulas = [entry for entry in dev if entry["truth_format"] == "latex"]
    assert len(corpus.eval_truths()) == len(formula_set) + len(dev_formulas)
    assert dev_formulas and formula_set


@needs_eval
def test_every_real_eval_truth_is_excluded_and_other_formulas_kept(tmp_path):
    """Each real truth as written and in its canonical spelling (where the canon gives itself
    back), beside a sample of the real corpus and a few made-up formulas, through the build."""
    truths = corpus.eval_truths()
    keys = corpus.eval_keys()
    respelled = [detokenize(normalized(t)) for t in truths]
    respelled = [t for t in respelled if corpus.canonical_key(t) in keys]
    assert len(respelled) > 0.9 * len(truths)
    sample = ["x ^ { 2 } + y ^ { 2 } = z ^ { 2 }", "\\int _ { 0 } ^ { 1 } f ( x ) d x",
              "e ^ { i \\pi } + 1 = 0"]
    if HAS_CORPUS:
        for path in sorted(corpus.DEFAULT_CORPUS.glob("*.txt")):
            with path.open(encoding="utf-8") as fh:
                sample += [next(fh, "").strip() for _ in range(100)]
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "mixed.txt").write_text("\n".join(truths + respelled + sample) + "\n",
                                                    encoding="utf-8")
    stats = corpus.build(tmp_path / "corpus", tmp_path / "out", tmp_path / "vocab.txt",
                         excluded=keys, min_count=1)
    kept = {" ".join(r["tokens"]) for r in _rows(tmp_path / "out")}
    assert not kept & keys
    wanted = {corpus.canonical_key(f) for f in sample if f}
    wanted = {k for k in wanted if k and len(k.split()) <= corpus.MAX_TOKENS} - keys
    assert kept == wanted
    assert stats["excluded_formulas"] == len({corpus.canonical_key(t) for t in truths} - {""})


@pytest.mark.slow
@pytest.mark.skipif(not HAS_CORPUS, reason="no ../shared/formula/corpus beside the checkout")
def test_the_real_corpus_as_built_holds_no_eval_truth(tmp_path):
    """The whole corpus step as `make formula-corpus` runs it (about 15 s on two cores)."""
    assert corpus.main(["--out", str(tmp_path), "--vocab", str(tmp_path / "vocab.txt")]) == 0
    eval_keys = corpus.eval_keys()
    rows = _rows(tmp_path)
    assert {r["split"] for r in rows} == {"train", "val"}
    assert not [r["latex"] for r in rows if " ".join(r["tokens"]) in eval_keys]
