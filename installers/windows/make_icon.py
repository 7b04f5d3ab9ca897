"""Renders resources/icons/paperlens.svg into a multi-size .ico for the Windows executables."""

import sys
from pathlib import Path

from PySide6.QtGui import QGuiApplication, QIcon, QImageWriter

SIZE_PX = 256  # Windows scales the smaller sizes down from it


def main(out: Path) -> int:
    app = QGuiApplication(["make_icon", "-platform", "offscreen"])  # noqa: F841 (Qt needs one)
    svg = Path(__file__).resolve().parents[2] / "resources" / "icons" / "paperlens.svg"
    icon = QIcon(str(svg))
    out.parent.mkdir(parents=True, exist_ok=True)
    writer = QImageWriter(str(out), b"ico")
    if not writer.write(icon.pixmap(SIZE_PX, SIZE_PX).toImage()):
        print(f"cannot write {out}: {writer.errorString()}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("build/windows/paperlens.ico")))
