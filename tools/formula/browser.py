"""Screenshots in headless Chromium (Debian `chromium`) of HTML snippets, math typeset by KaTeX:
what a user copies from a web page. Runs shots.mjs with Node; its two npm packages are installed
into a folder under build/ the first time."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import asdict, dataclass, field
from pathlib import Path

# katex: the browser renderer of the KaTeX screenshots users paste (0.16 is what sites serve).
# puppeteer-core 24.43: drives the system's Chromium; the last line that runs on Node 18-20.
NPM_PACKAGES = ("katex@0.16.22", "puppeteer-core@24.43.1")
SCRIPT = Path(__file__).with_name("shots.mjs")
NODE_DIR = Path(__file__).resolve().parents[2] / "build" / "formula_images" / "node"
"""The npm folder (KaTeX, puppeteer-core) the formula renders and the formula-image generator
install and share."""


class BrowserUnavailable(RuntimeError):
    """Node, npm or Chromium is missing, or the npm packages could not be installed."""


@dataclass(frozen=True)
class Shot:
    id: str
    out: str
    html: str
    """Markup; `@@MATH<n>@@` stands for math[n] typeset by KaTeX."""
    style: str
    """CSS of the captured div (font, size, colour, padding, width)."""
    page_background: str
    scale: float
    """Device scale factor (browser zoom)."""
    width: int = 1600
    math: list[dict] = field(default_factory=list)


def prepare(folder: Path) -> Path:
    """The folder holding node_modules with NPM_PACKAGES and a copy of shots.mjs (ES modules
    resolve packages from the script's own folder)."""
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            raise BrowserUnavailable(f"{tool} is not installed (apt-get install nodejs npm)")
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        raise BrowserUnavailable("Chromium is not installed (apt-get install chromium)")
    folder.mkdir(parents=True, exist_ok=True)
    if not all((folder / "node_modules" / name.rsplit("@", 1)[0]).is_dir()
               for name in NPM_PACKAGES):
        run = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent",
                              *NPM_PACKAGES], cwd=folder, capture_output=True, text=True,
                             timeout=600)
        if run.returncode != 0:
            raise BrowserUnavailable(f"npm install failed: {run.stderr.strip()[-500:]}")
    shutil.copyfile(SCRIPT, folder / SCRIPT.name)
    return folder


def take(shots: list[Shot], folder: Path, work: Path | None = None) -> dict[str, str]:
    """Takes every shot in one browser; {id: "ok" or the error} (KaTeX refusing a formula is an
    error of that shot alone). The job and result files go to `work` (default: the npm folder),
    so that several browsers can run at once, each with its own."""
    if not shots:
        return {}
    node_dir = prepare(folder)
    work = node_dir if work is None else work
    jobs, results = work / "jobs.json", work / "results.json"
    jobs.write_text(json.dumps([asdict(s) for s in shots]), encoding="utf-8")
    results.unlink(missing_ok=True)
    run = subprocess.run(["node", SCRIPT.name, str(jobs), str(results)], cwd=node_dir,
                         capture_output=True, text=True, timeout=60 + 10 * len(shots))
    if run.returncode != 0 or not results.is_file():
        raise BrowserUnavailable(f"the browser run failed: {run.stderr.strip()[-800:]}")
    return json.loads(results.read_text(encoding="utf-8"))
