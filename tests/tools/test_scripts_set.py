"""The multi-script set's variants, its bar and its speed block (tools/scripts), without models."""

from __future__ import annotations

from tools.scripts.__main__ import (VARIANT_SPECS, VARIANTS, merge_draws, sample_seed,
                                    short_of_acceptance, variant_sample)
from tools.scripts.readme import bench_markdown, readme_markdown
from tools.scripts.texts import SAMPLES


def sample(key: str):
    return next(s for s in SAMPLES if s.key == key)


def test_the_set_has_every_resolution_and_two_columns_clean_and_degraded():
    scans = {(dpi, columns, degraded) for dpi, columns, degraded in VARIANT_SPECS.values()
             if dpi is not None}
    assert {(dpi, 1, degraded) for dpi in (150, 200, 300) for degraded in (False, True)} <= scans
    assert {(200, 2, False), (200, 2, True)} <= scans
    assert "digital" in VARIANTS


def test_a_two_column_page_cuts_its_paragraph_at_a_sentence_end_and_keeps_its_text():
    for key in ("russian", "hindi", "japanese", "thai"):
        one = sample(key)
        two = variant_sample(one, "two-column")
        assert len(two.paragraphs) == 2
        assert "".join(two.paragraphs).replace(" ", "") == one.paragraphs[0].replace(" ", "")
    assert variant_sample(sample("russian"), "two-column").paragraphs[0].endswith(".")
    # A sample of several paragraphs keeps them.
    mixed = sample("english_russian")
    assert variant_sample(mixed, "two-column") == mixed


def row(key, variant, paperlens, tesseract=None):
    out = {"sample": key, "script": "Cyrillic", "variant": variant, "paperlens": paperlens,
           "status": "ok", "scripts": ["Cyrillic"]}
    if tesseract is not None:
        out["tesseract"] = tesseract
    return out


def test_pages_short_of_the_bar_are_named():
    rows = [row("russian", "clean", 0.96, 1.0), row("tamil", "clean", 0.944, 0.944),
            row("korean", "degraded", 0.97, 0.98), row("korean", "degraded-300", 0.99, 0.98),
            row("hindi", "digital", 0.97)]
    short = short_of_acceptance(rows)
    assert short == ["tamil clean: 0.944 < 0.95", "korean degraded: 0.970 < Tesseract 0.980",
                     "hindi digital: 0.970 < 0.98"]
    table = readme_markdown({"pages": rows, "summary": {"short_of_acceptance": short}})
    assert "0.970 / 0.980" in table and "tamil clean: 0.944 < 0.95" in table


def test_the_speed_block_gives_each_page_against_both_tesseract_runs():
    results = {"repeat": 3, "cpu_count": 2, "load_average_1m": {"start": 1.0, "end": 2.0},
               "same_script_pages": [{"page": "german", "ratio": 1.01}],
               "other_script_pages": [{"page": "russian", "language": "rus", "paperlens_s": 2.0,
                                       "tesseract_command_s": 2.5, "tesseract_warm_s": 0.2,
                                       "ratio_command": 0.8, "ratio_warm": 10.0}],
               "median_ratio_same_script": 1.01, "max_ratio_same_script": 1.01,
               "median_ratio_command": 0.8, "median_ratio_warm": 10.0}
    block = bench_markdown(results)
    assert "| russian | rus | 2.00 | 2.50 | 0.20 | 0.80 | 10.00 |" in block
    assert "median 1.010" in block
    results |= {"median_scripts_share": 0.012, "max_scripts_share": 0.031,
                "median_step_shares": {"text_detector": 0.55, "layout_model": 0.15}}
    block = bench_markdown(results)
    assert "median 1.2% of the page reader's time, at most 3.1%" in block
    assert "text detector 55%, layout model 15%, the rest 30%" in block


def test_the_bench_reads_the_steps_shares_from_the_engines_step_chains():
    """The script reader's own time holds what ran inside it; each written step counts its
    seconds wherever it ran, once."""
    from tools.scripts.bench import STEP_SHARES, script_reading_seconds, step_seconds

    steps = {"det": 2.0, "layout": 0.5, "rec": 0.75, "script_reading": 0.125,
             "script_reading.rec": 0.25, "script_reading.tesseract_osd": 0.5,
             "script_reading.tesseract_lines": 1.0, "tesseract_lines": 0.25}
    assert script_reading_seconds(steps) == 1.875
    shares = {share: step_seconds(steps, step) for share, step in STEP_SHARES.items()}
    assert shares == {"text_detector": 2.0, "layout_model": 0.5, "pp_ocr_recogniser": 1.0,
                      "tesseract_lines": 1.25, "tesseract_script_detection": 0.5}
    assert sum(shares.values()) + steps["script_reading"] == sum(steps.values())


def draw(paperlens, tesseract, status="ok", scripts=("Hangul",)):
    return {"paperlens": paperlens, "paperlens_s": 1.0, "tesseract": tesseract,
            "tesseract_s": 0.2, "status": status, "scripts": list(scripts),
            "text_source": "ocr", "errors": [], "math_faults": []}


def test_a_degraded_variant_is_the_mean_of_its_draws_and_keeps_the_worst_status():
    merged = merge_draws([draw(0.97, 0.98), draw(0.98, 0.97), draw(0.97, 0.98, "partial")])
    assert merged["paperlens"] == 0.9733 and merged["tesseract"] == 0.9767
    assert merged["status"] == "partial"
    assert [d["paperlens"] for d in merged["draws"]] == [0.97, 0.98, 0.97]
    # one draw: the row is the draw itself
    assert merge_draws([draw(0.97, 0.98)]) == draw(0.97, 0.98)
    rows = [dict(row("korean", "degraded-150", 0), **merged)]
    assert short_of_acceptance(rows) == ["korean degraded-150: 0.973 < Tesseract 0.977"]
    table = readme_markdown({"set": {"degraded_draws": 3}, "pages": rows,
                             "summary": {"short_of_acceptance": []}})
    assert "mean of 3 draws" in table


def test_a_draw_under_the_bar_is_counted_though_the_mean_is_over_it():
    from tools.scripts.__main__ import summarise

    merged = merge_draws([draw(0.99, 0.98), draw(0.99, 0.98), draw(0.93, 0.98)])
    rows = [dict(row("persian", "degraded", 0), **merged)]
    summary = summarise(rows)["degraded"]
    assert summary["at_least_095"] == 1 and summary["pages"] == 1
    assert summary["scans"] == 3 and summary["scans_at_least_095"] == 2


def test_a_run_of_some_samples_draws_the_pages_of_the_full_run():
    korean = sample("korean")
    assert sample_seed(49, korean) == 49 + SAMPLES.index(korean)
