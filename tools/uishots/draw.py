"""Drawing a screenshot: headless Chromium (Debian's `chromium`) renders a page's HTML at a device
scale factor of 1 or 2; without Chromium, a code listing can be drawn with PIL and a monospaced
font (what the tests do, so they never need a browser)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
CHROMIUM_TIMEOUT_S = 60
# Everything a one-shot headless run does not need, and the sandbox, which a root user
# (containers, CI) cannot start.
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run",
                  "--hide-scrollbars", "--font-render-hinting=none")
MONO_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
SANS_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
SANS_BOLD_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


class NoBrowser(RuntimeError):
    """Chromium is not installed (tools/system_deps.sh installs it in test mode)."""


def chromium() -> str:
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    raise NoBrowser("the screenshot set is drawn by Chromium: apt-get install chromium")


def screenshot(page_html: str, width: int, height: int, scale: int, out: Path) -> None:
    """`page_html` drawn in a `width` x `height` CSS-pixel window at `scale`, as PNG to `out`."""
    browser = chromium()
    with tempfile.TemporaryDirectory(prefix="uishots-") as work:
        page = Path(work) / "page.html"
        page.write_text(page_html, encoding="utf-8")
        command = [browser, *CHROMIUM_FLAGS, f"--user-data-dir={work}/profile",
                   f"--window-size={width},{height}", f"--force-device-scale-factor={scale}",
                   f"--screenshot={out.resolve()}", page.as_uri()]
        done = subprocess.run(command, capture_output=True, timeout=CHROMIUM_TIMEOUT_S)
    if done.returncode != 0 or not out.exists():
        tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        raise RuntimeError(f"chromium drew no screenshot: {tail}")


def draw_code(code: str, scale: int = 1, size: int = 14, dark: bool = False,
              font: Path = MONO_FONT) -> Image.Image:
    """A code listing as an editor shows it: one line per row, spaces kept, at `scale`."""
    face = ImageFont.truetype(str(font), size * scale)
    lines = code.split("\n")
    pitch, leading, pad = face.getlength("M"), round(size * 1.5) * scale, 20 * scale
    width = round(2 * pad + pitch * max(len(ln) for ln in lines)) + 40 * scale
    background, ink = ((30, 31, 34), (212, 212, 212)) if dark else ((255, 255, 255), (36, 41, 47))
    image = Image.new("RGB", (width, 2 * pad + leading * len(lines)), background)
    pen = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        pen.text((pad, pad + row * leading), line, font=face, fill=ink)
    return image


def draw_chat(messages: list[tuple[str, str]], scale: int = 1, size: int = 14) -> Image.Image:
    """A dark chat: for each (sender, text) an avatar, the sender's name in bold, the message."""
    face = ImageFont.truetype(str(SANS_FONT), size * scale)
    bold = ImageFont.truetype(str(SANS_BOLD_FONT), size * scale)
    leading, row = round(size * 1.45) * scale, (2 * round(size * 1.45) + 16) * scale
    image = Image.new("RGB", (560 * scale, 20 * scale + row * len(messages)), (26, 29, 33))
    pen = ImageDraw.Draw(image)
    for n, (name, text) in enumerate(messages):
        top, left = 10 * scale + n * row, 18 * scale
        pen.rounded_rectangle((left, top, left + 36 * scale, top + 36 * scale), 6 * scale,
                              fill=(68, 170, 119))
        pen.text((left + 46 * scale, top), name, font=bold, fill=(255, 255, 255))
        pen.text((left + 46 * scale, top + leading), text, font=face, fill=(209, 210, 211))
    return image
