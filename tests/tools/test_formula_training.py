"""The formula training pipeline: corpus -> renders -> pack -> train -> export, in miniature.

Rendering needs TeX Live (``latex``, ``dvipng``) and training/export need PyTorch (the optional
``train`` extra); those tests skip where the tools are missing, everything else always runs."""

import importlib.util
import json
import shutil

import cv2
import numpy as np
import pytest

from tools.formula import corpus, pack, render

HAS_TEX = shutil.which("latex") is not None and shutil.which("dvipng") is not None
HAS_TORCH = importlib.util.find_spec("torch") is not None


def _write_corpus(folder):
    folder.mkdir()
    (folder / "a.txt").write_text("x^2+y^2\nx_1 + y_1\n{x}^{2}+{y}^{2}\n" + "q" * 300 + "\n")
    (folder / "b.txt").write_text("\\frac12 x\n\\frac21 y\n\\weird x\n")


def test_corpus_normalises_splits_and_builds_a_vocabulary(tmp_path):
    _write_corpus(tmp_path / "corpus")
    stats = corpus.build(tmp_path / "corpus", tmp_path / "out", tmp_path / "vocab.txt",
                         excluded=(), min_count=2)
    vocab = (tmp_path / "vocab.txt").read_text().splitlines()
    assert vocab[:4] == corpus.SPECIALS
    assert "\\weird" not in vocab  # seen once: below min_count, and its formula is dropped
    rows = [json.loads(line) for line in (tmp_path / "out" / "formulas.jsonl").open()]
    texts = [" ".join(r["tokens"]) for r in rows]
    # Two spellings of one formula are one formula; the over-long line is dropped.
    assert texts.count("x ^ { 2 } + y ^ { 2 }") == 1
    assert all(len(r["tokens"]) <= corpus.MAX_TOKENS for r in rows)
    assert "\\frac { 1 } { 2 } x" in texts
    assert stats["kept"] == len(rows) == 4
    assert {r["split"] for r in rows} <= {"train", "val"}
    assert all(r["split"] == corpus.split_of(r["tokens"]) for r in rows)


def test_source_weights_shape_the_selection(tmp_path):
    path = tmp_path / "formulas.jsonl"
    with path.open("w") as fh:
        for source, n in (("stacks_project", 500), ("crohme2014_captions", 500)):
            for i in range(n):
                fh.write(json.dumps({"source": source, "latex": f"x_{i}",
                                     "tokens": ["x", "_", str(i)], "split": "train"}) + "\n")
    picked = render.select(path, 440, seed=1)
    share = sum(r["source"] == "stacks_project" for r in picked) / len(picked)
    want = render.SOURCE_WEIGHTS["stacks_project"] / (
        render.SOURCE_WEIGHTS["stacks_project"] + render.SOURCE_WEIGHTS["crohme2014_captions"])
    assert abs(share - want) < 0.02


def _synthetic_renders(folder, count=24, texts=("x+y", "x-y", "y+x")):
    """Chunk files as render.py writes them, from drawn text (no TeX needed)."""
    folder.mkdir(parents=True)
    blobs, items, offset = [], [], 0
    for i in range(count):
        text = texts[i % len(texts)]
        img = np.full((40, 90), 255, np.uint8)
        cv2.putText(img, text, (4, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.9, 0, 2)
        png = cv2.imencode(".png", img)[1].tobytes()
        blobs.append(png)
        items.append({"offset": offset, "size": len(png), "tokens": " ".join(text)})
        offset += len(png)
    (folder / "chunk-00000.bin").write_bytes(b"".join(blobs))
    (folder / "chunk-00000.json").write_text(json.dumps({"setup": {}, "items": items}))


def test_pack_round_trip_keeps_images_and_tokens(tmp_path):
    _synthetic_renders(tmp_path / "renders")
    stats = pack.pack(tmp_path / "renders", tmp_path / "pack", budget_mib=1, workers=1,
                      max_height=32)
    assert stats["images"] == 24
    import lzma
    index = json.loads(lzma.decompress((tmp_path / "pack" / "index.json.xz").read_bytes()))
    part = index["parts"][0]
    raw = lzma.decompress((tmp_path / "pack" / part["file"]).read_bytes())
    assert len(raw) == sum(h * w for h, w in part["shapes"])
    assert max(h for h, _ in part["shapes"]) <= 32  # taller renders were scaled down
    assert set(raw) <= set(range(pack.LEVELS))
    assert part["tokens"][:3] == ["x + y", "x - y", "y + x"]


def test_pack_writes_tokens_in_todays_canon(tmp_path):
    _synthetic_renders(tmp_path / "renders", count=3)
    meta_path = tmp_path / "renders" / "chunk-00000.json"
    meta = json.loads(meta_path.read_text())
    meta["items"][0]["tokens"] = "x ^ { 2 } _ { i }"  # rendered before scripts were ordered
    meta_path.write_text(json.dumps(meta))
    assert [tokens for _, tokens in pack.read_chunks(tmp_path / "renders")][0] == "x _ { i } ^ { 2 }"


def test_pack_leaves_out_formulas_with_tokens_its_vocabulary_lacks(tmp_path):
    _synthetic_renders(tmp_path / "renders", count=6)  # x + y, x - y, y + x, ...
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("<pad>\n<bos>\n<eos>\n<unk>\nx\ny\n+\n", encoding="utf-8")
    stats = pack.pack(tmp_path / "renders", tmp_path / "pack", budget_mib=1, workers=1,
                      max_height=46, vocab=vocab)
    assert stats["images"] == 4 and stats["unknown_tokens_dropped"] == 2


def test_rare_structures_are_selected_each_time_they_occur_repeated(tmp_path):
    formulas = tmp_path / "formulas.jsonl"
    rows = [{"source": "a", "latex": f, "tokens": f.split(), "split": split}
            for f, split in [("\\binom { n } { k }", "train"), ("x + y", "train"),
                             ("\\begin{cases} a \\\\ b \\end{cases}", "train"),
                             ("\\binom { a } { b }", "val")]]
    formulas.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    picked = render.select_structures(formulas, repeats=3, seed=0)
    assert sorted(r["latex"] for r in picked) == sorted(
        ["\\binom { n } { k }"] * 3 + ["\\begin{cases} a \\\\ b \\end{cases}"] * 3)


def test_several_render_folders_pack_in_order(tmp_path):
    _synthetic_renders(tmp_path / "first", count=5)
    _synthetic_renders(tmp_path / "second", count=7)
    stats = pack.pack([tmp_path / "first", tmp_path / "second"], tmp_path / "pack", budget_mib=1,
                      workers=1, max_height=46)
    assert stats["images"] == 12


def test_pack_respects_its_budget(tmp_path):
    _synthetic_renders(tmp_path / "renders", count=10)
    stats = pack.pack(tmp_path / "renders", tmp_path / "pack", budget_mib=0, workers=1,
                      max_height=46)
    assert stats["images"] == 0 and not list((tmp_path / "pack").glob("part-*"))


@pytest.mark.skipif(not HAS_TEX, reason="rendering needs TeX Live (latex, dvipng)")
def test_render_typesets_crops_and_resumes(tmp_path):
    rows = [{"source": "a", "latex": f, "tokens": f.split(), "split": "train"}
            for f in (r"x^{2}", r"\frac{a}{b}", r"\int_0^1 f")]
    out = tmp_path / "renders"
    out.mkdir()
    assert render.render_chunk((0, rows, out, 1, "tex")) == 3
    meta = json.loads((out / "chunk-00000.json").read_text())
    blob = (out / "chunk-00000.bin").read_bytes()
    for item in meta["items"]:
        img = cv2.imdecode(np.frombuffer(blob, np.uint8, item["size"], item["offset"]), 0)
        assert render.STORE_HEIGHT[0] <= img.shape[0] <= render.STORE_HEIGHT[1]
        assert img.min() < 100 and img.max() == 255  # ink on paper
    # An existing chunk is never rendered again.
    assert render.render_chunk((0, rows, out, 1, "tex")) == 0


HAS_BROWSER = all(shutil.which(t) for t in ("node", "npm")) and shutil.which("chromium")


@pytest.mark.skipif(not HAS_BROWSER, reason="KaTeX renders need Node, npm and Chromium")
def test_katex_renders_are_stored_like_tex_renders_and_refusals_left_out(tmp_path):
    from tools.formula import katex
    from tools.formula import browser

    try:
        browser.prepare(katex.NODE_DIR)
    except browser.BrowserUnavailable as error:  # npm could not fetch KaTeX: says why
        pytest.skip(str(error))
    rows = [{"source": "a", "latex": f, "tokens": f.split(), "split": "train"}
            for f in (r"x^{2}+\frac{a}{b}", r"\slashed{p}", r"\begin{aligned} a&=1 \\ b&=2 \end{aligned}")]
    out = tmp_path / "renders"
    out.mkdir()
    assert render.render_chunk((0, rows, out, 1, "katex")) == 2  # KaTeX has no \slashed
    meta = json.loads((out / "chunk-00000.json").read_text())
    assert meta["setup"]["renderer"] == "katex"
    assert [item["tokens"] for item in meta["items"]] == [" ".join(rows[i]["tokens"])
                                                          for i in (0, 2)]
    blob = (out / "chunk-00000.bin").read_bytes()
    heights = []
    for item in meta["items"]:
        img = cv2.imdecode(np.frombuffer(blob, np.uint8, item["size"], item["offset"]), 0)
        assert render.STORE_HEIGHT[0] <= img.shape[0] <= render.STORE_HEIGHT[1]
        assert img.min() < 100 and img.max() == 255  # ink on paper, cropped and padded
        heights.append(img.shape)
    assert heights[0][1] > heights[0][0]  # a one-line formula is wider than high


@pytest.mark.slow
@pytest.mark.skipif(not HAS_TORCH, reason="training needs PyTorch (the optional train extra)")
def test_train_then_export_agrees_with_onnx_runtime(tmp_path):
    from pathlib import Path

    from tools.formula import export, train

    _synthetic_renders(tmp_path / "renders")
    pack.pack(tmp_path / "renders", tmp_path / "pack", budget_mib=1, workers=1, max_height=46)
    assert train.main(["--data", str(tmp_path / "pack"), "--out", str(tmp_path / "run"),
                       "--minutes", "0.05", "--max-batch", "4", "--workers", "1",
                       "--device", "cpu", "--save-every", "1"]) == 0
    assert (tmp_path / "run" / "last.pt").exists()
    log = [json.loads(line) for line in (tmp_path / "run" / "log.jsonl").open()]
    assert log[-1]["final"] and log[-1]["step"] >= 1
    model, vocab, meta = export.load_weights(Path(tmp_path / "run"))
    encoder, decoder = export.export(model, tmp_path / "onnx")
    result = export.check(model, vocab, encoder, decoder, export.sample_images()[:2])
    assert result["ok"], result


@pytest.mark.slow
@pytest.mark.skipif(not HAS_TORCH, reason="training needs PyTorch (the optional train extra)")
def test_training_can_start_from_trained_weights_with_a_grown_vocabulary(tmp_path):
    import torch

    from tools.formula import train
    from tools.formula.model import load_weights

    _synthetic_renders(tmp_path / "renders")
    pack.pack(tmp_path / "renders", tmp_path / "pack", budget_mib=1, workers=1, max_height=46)
    common = ["--minutes", "0.02", "--max-batch", "4", "--workers", "1", "--device", "cpu"]
    assert train.main(["--data", str(tmp_path / "pack"), "--out", str(tmp_path / "run1"),
                       *common]) == 0
    first, first_vocab, _ = load_weights(tmp_path / "run1")
    # The corpus step gained a token since: the second run's pack says so in its vocab.txt.
    grown = [*first_vocab, "\\newtoken"]
    shutil.copytree(tmp_path / "pack", tmp_path / "pack2")
    (tmp_path / "pack2" / "vocab.txt").write_text("\n".join(grown) + "\n", encoding="utf-8")
    assert train.main(["--data", str(tmp_path / "pack2"), "--out", str(tmp_path / "run2"),
                       "--init", str(tmp_path / "run1"), *common[:1], "0", *common[2:]]) == 0
    second, second_vocab, _ = load_weights(tmp_path / "run2")
    assert second_vocab == grown
    theirs, mine = first.state_dict(), second.state_dict()
    assert mine["embed.weight"].shape[0] == len(grown)
    assert torch.equal(mine["embed.weight"][:len(first_vocab)], theirs["embed.weight"])
    for name, tensor in theirs.items():
        if name != "embed.weight":
            assert torch.equal(mine[name], tensor), name


@pytest.mark.slow
@pytest.mark.skipif(not HAS_TORCH, reason="training needs PyTorch (the optional train extra)")
def test_the_shipped_graphs_rebuild_into_the_model_they_came_from():
    import onnxruntime as ort
    import torch

    from tools.formula import export
    from tools.formula.from_onnx import DECODER, ENCODER, load_onnx

    folder = export.ROOT / "resources" / "formula"
    from engine.formulas.model import batch_images, prepare

    images = torch.from_numpy(batch_images([prepare(img) for img in export.sample_images()]))
    model, vocab = load_onnx(folder, images)  # checks the encoder side itself
    assert vocab == (folder / "vocab.txt").read_text(encoding="utf-8").splitlines()
    # The decoder side: the first step's logits through ONNX Runtime and through the model.
    encoder = ort.InferenceSession(str(folder / ENCODER), providers=["CPUExecutionProvider"])
    decoder = ort.InferenceSession(str(folder / DECODER), providers=["CPUExecutionProvider"])
    cross = encoder.run(None, {"image": images.numpy()})
    feeds = {"token": np.ones((len(images), 1), np.int64), "step": np.array([0], np.int64)}
    for spec in decoder.get_inputs():
        if spec.name.startswith("past_"):
            feeds[spec.name] = np.zeros((len(images), model.cfg.heads, 0,
                                         model.cfg.dim // model.cfg.heads), np.float32)
    feeds.update({spec.name: c for spec, c in zip(encoder.get_outputs(), cross)})
    expected = decoder.run(["logits"], feeds)[0]
    with torch.no_grad():
        got = model(images, torch.ones(len(images), 1, dtype=torch.long))[:, 0].numpy()
    assert np.abs(got - expected).max() < 0.05
    assert (got.argmax(1) == expected.argmax(1)).all()


@pytest.mark.slow
@pytest.mark.skipif(not HAS_TORCH, reason="training needs PyTorch (the optional train extra)")
def test_fine_tuning_keeps_the_backbone_and_trains_the_rest(tmp_path):
    import torch

    from tools.formula import train
    from tools.formula.model import load_weights

    _synthetic_renders(tmp_path / "renders")
    pack.pack(tmp_path / "renders", tmp_path / "pack", budget_mib=1, workers=1, max_height=46)
    common = ["--max-batch", "4", "--workers", "1", "--device", "cpu"]
    assert train.main(["--data", str(tmp_path / "pack"), "--out", str(tmp_path / "run1"),
                       "--minutes", "0", *common]) == 0
    assert train.main(["--data", str(tmp_path / "pack"), "--out", str(tmp_path / "run2"),
                       "--init", str(tmp_path / "run1"), "--minutes", "0.05", "--warmup", "1",
                       "--lr", "1e-2", "--ema", "0", "--freeze-backbone", "--dropout", "0",
                       "--cpu-bf16", *common]) == 0
    before, _, _ = load_weights(tmp_path / "run1")
    after, _, meta = load_weights(tmp_path / "run2")
    assert meta["config"]["dropout"] == 0
    old, new = before.state_dict(), after.state_dict()
    backbone = [name for name in old if name.startswith("backbone.")]
    assert any(name.endswith("running_mean") for name in backbone)
    for name in backbone:  # weights and batch-norm statistics alike
        assert torch.equal(old[name], new[name]), name
    changed = [name for name in old if not name.startswith("backbone.")
               and not torch.equal(old[name], new[name])]
    assert any(name.startswith("decoder.") for name in changed)
    assert any(name.startswith("encoder.") for name in changed)


@pytest.mark.skipif(not HAS_TORCH, reason="training needs PyTorch (the optional train extra)")
def test_a_batch_holds_formulas_of_similar_length(tmp_path):
    import torch

    from tools.formula import train

    texts = ["x", "x+y", "x+y+z", "x+y+z+w+v", "x+y+z+w+v+u+t"]
    _synthetic_renders(tmp_path / "renders", count=60, texts=texts)
    pack.pack(tmp_path / "renders", tmp_path / "pack", budget_mib=1, workers=1, max_height=46)
    buckets = train.Buckets(tmp_path / "pack", train.load_vocab(), torch.device("cpu"), 1)
    assert len(buckets.buckets) == 1
    rng = np.random.default_rng(0)
    for _ in range(20):
        _, _, tokens = buckets.batch(rng, limit=8)
        lengths = (tokens != train.PAD).sum(1).tolist()
        # 12 formulas of each length: a window of 8 spans at most two neighbouring lengths.
        assert max(lengths) - min(lengths) <= 4, lengths
