"""The output name of each input of one run: its stem, or the next that no other input of the
run holds and that names no input. The CLI, the cluster run and the service's uploads name
their outputs here."""

from __future__ import annotations

import os
from pathlib import Path


def output_names(paths: list[Path], output_dir: Path) -> list[str]:
    """One output name per input: its stem, or `stem-2`, `stem-3`, ... so that no two inputs
    of the run write the same file and no output file is one of the inputs.

    An input keeps its own stem unless an earlier input already holds it: `a.pdf a.png
    a-2.pdf` gives a, a-3, a-2. Names are compared case-insensitively, as on the file systems
    of Windows and macOS. A name whose files are in the folder already is the writer's to
    change (engine/output/writer.py), when the document is written."""
    from engine.output.writer import OUTPUT_SUFFIXES  # OpenCV with it: only when converting

    folder = Path(os.path.abspath(output_dir))
    inputs = {_path_key(p) for p in paths}
    claimed: dict[str, int] = {}
    for index, path in enumerate(paths):
        claimed.setdefault(path.stem.casefold(), index)
    taken: set[str] = set()
    names = []
    for index, path in enumerate(paths):
        name, count = path.stem, 1
        while True:
            files = {(name + suffix).casefold() for suffix in OUTPUT_SUFFIXES}
            if (claimed.get(name.casefold(), index) == index and not files & taken
                    and not any(_path_key(folder / (name + s)) in inputs for s in OUTPUT_SUFFIXES)):
                break
            count += 1
            name = f"{path.stem}-{count}"
        taken |= files
        names.append(name)
    return names


def _path_key(path: Path) -> str:
    try:
        resolved = path.resolve()
    except OSError:
        resolved = Path(os.path.abspath(path))
    return os.path.normcase(str(resolved)).casefold()
