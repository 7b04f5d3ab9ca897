"""The fonts the handwriting set is drawn with: handwriting and cursive fonts from Debian
packages and from npm's @fontsource packages (WOFF, turned into TrueType with fontTools, since
MuPDF reads no WOFF), print fonts for the printed pages, and script display fonts for their
headings. Nothing is downloaded except through apt and npm; fonts are never committed."""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

from fontTools.ttLib import TTFont

# Debian package -> its handwriting-like font files (tools/system_deps.sh installs them for the
# tests; `generate` names the missing ones with the apt command).
DEBIAN_HANDWRITING = {
    "fonts-dkg-handwriting": ("truetype/fifthhorseman/dkg.ttf",),
    "fonts-breip": ("truetype/breip/Breip.ttf",),
    "fonts-bwht": ("opentype/bwht/BecauseWeBuild-Regular.otf",
                   "opentype/bwht/BecauseWeCreate-Regular.otf",
                   "opentype/bwht/BecauseWeLearn-Regular.otf",
                   "opentype/bwht/BecauseWeOrganize-Regular.otf"),
    "fonts-dancingscript": ("opentype/dancingscript/DancingScript-Regular.otf",),
    "fonts-ecolier-court": ("truetype/ecolier-court/Ecolier-court.ttf",),
    "fonts-femkeklaver": ("truetype/femkeklaver/femkeklaver.ttf",),
    "fonts-humor-sans": ("truetype/humor-sans/Humor-Sans.ttf",),
    "fonts-kaushanscript": ("opentype/kaushanscript/KaushanScript-Regular.otf",),
    "fonts-kristi": ("truetype/kristi/Kristi.ttf",),
    "fonts-rufscript": ("truetype/rufscript/Rufscript010.ttf",),
}
# Script fonts used only for a printed page's heading (display type, not handwriting).
DEBIAN_DISPLAY = {
    "fonts-lobster": ("opentype/lobster/lobster.otf",),
    "fonts-levien-typoscript": ("opentype/levien/TypoScript.otf",),
    "fonts-urw-base35": ("opentype/urw-base35/Z003-MediumItalic.otf",),
}
# Body fonts of printed pages: serif, sans, mono, italic, condensed, geometric.
DEBIAN_PRINT = {
    "fonts-liberation": ("truetype/liberation/LiberationSerif-Regular.ttf",
                         "truetype/liberation/LiberationSans-Regular.ttf",
                         "truetype/liberation/LiberationMono-Regular.ttf",
                         "truetype/liberation/LiberationSerif-Italic.ttf"),
    "fonts-dejavu-core": ("truetype/dejavu/DejaVuSans.ttf", "truetype/dejavu/DejaVuSerif.ttf"),
    "fonts-urw-base35": ("opentype/urw-base35/NimbusRoman-Regular.otf",
                         "opentype/urw-base35/NimbusSans-Regular.otf",
                         "opentype/urw-base35/NimbusSansNarrow-Regular.otf",
                         "opentype/urw-base35/NimbusMonoPS-Regular.otf",
                         "opentype/urw-base35/P052-Roman.otf",
                         "opentype/urw-base35/C059-Roman.otf",
                         "opentype/urw-base35/URWBookman-Light.otf",
                         "opentype/urw-base35/URWGothic-Book.otf",
                         "opentype/urw-base35/P052-Italic.otf",
                         "opentype/urw-base35/NimbusSans-Italic.otf"),
    "fonts-comic-neue": ("opentype/comic-neue/ComicNeue-Regular.otf",),
}
BOLD_PRINT = ("truetype/liberation/LiberationSans-Bold.ttf",
              "truetype/liberation/LiberationSerif-Bold.ttf",
              "truetype/dejavu/DejaVuSans-Bold.ttf")
FONT_ROOT = Path("/usr/share/fonts")

# @fontsource packages (SIL Open Font License), pinned so the set is the same everywhere.
NPM_HANDWRITING = ("homemade-apple", "cedarville-cursive", "caveat", "indie-flower",
                   "reenie-beanie", "kalam", "shadows-into-light", "covered-by-your-grace")
NPM_VERSION = "5.3.0"


class FontsMissing(RuntimeError):
    """Fonts the set needs are not installed; the message says how to install them."""


@dataclass(frozen=True)
class FontPools:
    handwriting: tuple[Path, ...]
    printed: tuple[Path, ...]
    bold: tuple[Path, ...]
    display: tuple[Path, ...]


def _debian(table: dict[str, tuple[str, ...]]) -> tuple[list[Path], list[str]]:
    found, missing = [], []
    for package, files in table.items():
        paths = [FONT_ROOT / f for f in files]
        if all(p.exists() for p in paths):
            found.extend(paths)
        else:
            missing.append(package)
    return found, missing


def npm_fonts(folder: Path) -> list[Path]:
    """The @fontsource handwriting fonts as TrueType files in `folder`, packed with npm and
    converted on first use."""
    folder.mkdir(parents=True, exist_ok=True)
    wanted = {name: folder / f"{name}.ttf" for name in NPM_HANDWRITING}
    absent = [name for name, path in wanted.items() if not path.exists()]
    if absent:
        npm = shutil.which("npm")
        if npm is None:
            raise FontsMissing("npm is needed for the @fontsource handwriting fonts "
                               "(apt-get install npm), or pass --debian-fonts-only")
        specs = [f"@fontsource/{name}@{NPM_VERSION}" for name in absent]
        subprocess.run([npm, "pack", "--silent", *specs], cwd=folder, check=True,
                       stdout=subprocess.DEVNULL)
        for name in absent:
            archive = folder / f"fontsource-{name}-{NPM_VERSION}.tgz"
            member = f"package/files/{name}-latin-400-normal.woff"
            with tarfile.open(archive) as tar:
                data = tar.extractfile(member).read()
            font = TTFont(io.BytesIO(data))
            font.flavor = None  # WOFF -> plain sfnt
            partial = wanted[name].with_suffix(".part")
            font.save(partial)
            partial.replace(wanted[name])
            archive.unlink()
    return [wanted[name] for name in NPM_HANDWRITING]


def font_pools(npm_folder: Path | None) -> FontPools:
    """Every pool, or FontsMissing naming the packages to install."""
    handwriting, missing = _debian(DEBIAN_HANDWRITING)
    printed, missing_print = _debian(DEBIAN_PRINT)
    display, missing_display = _debian(DEBIAN_DISPLAY)
    missing += missing_print + missing_display
    if missing:
        raise FontsMissing("install the fonts first: apt-get install -y "
                           + " ".join(sorted(set(missing))))
    if npm_folder is not None:
        handwriting += npm_fonts(npm_folder)
    bold = [FONT_ROOT / f for f in BOLD_PRINT]
    return FontPools(tuple(handwriting), tuple(printed), tuple(bold), tuple(display))
