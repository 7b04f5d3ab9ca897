"""The export benchmark's own arithmetic: spaces between CJK characters, means per category."""

from __future__ import annotations

from tools.export_bench import by_category, cjk_gaps


def test_spaces_between_cjk_characters_are_counted_per_line():
    assert cjk_gaps("中 文 测试\nHello world 中文") == 2
    assert cjk_gaps("中文\n测试") == 0  # a line break is not a space
    assert cjk_gaps("OCR 结果 PDF") == 0


def test_a_failed_peer_run_scores_zero_in_its_category():
    rows = [{"category": "chinese", "truth_cjk_gaps": 0,
             "paperlens": {"similarity": 1.0, "cjk_gaps": 0},
             "ocrmypdf": {"similarity": 0.8, "cjk_gaps": 5},
             "ocrmypdf_plugin": {"similarity": 0.96, "cjk_gaps": 0}},
            {"category": "chinese", "truth_cjk_gaps": 1,
             "paperlens": {"similarity": 0.9, "cjk_gaps": 1},
             "ocrmypdf": {"failed": "exit 2"}, "ocrmypdf_plugin": {"failed": "exit 2"}}]
    (entry,) = by_category(rows)
    assert entry == {"category": "chinese", "items": 2, "accepted_by_ocrmypdf": 1,
                     "paperlens": 0.95, "paperlens_accepted": 1.0, "paperlens_cjk_gaps": 1,
                     "ocrmypdf": 0.4, "ocrmypdf_accepted": 0.8, "ocrmypdf_cjk_gaps": 5,
                     "ocrmypdf_plugin": 0.48, "ocrmypdf_plugin_accepted": 0.96,
                     "ocrmypdf_plugin_cjk_gaps": 0, "truth_cjk_gaps": 1}
