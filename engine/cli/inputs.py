"""What `convert` is given: the input files, the output name of each, and the PDF password."""

from __future__ import annotations

import getpass
import os
import sys
from pathlib import Path
from typing import Callable, Mapping, TextIO

from engine.errors import InvalidOptions
from engine.input.suffixes import SUPPORTED_SUFFIXES

PASSWORD_ENV = "PAPERLENS_PASSWORD"
MAX_PASSWORD_FILE_BYTES = 64 * 1024

PasswordPrompt = Callable[[Path], str]


def expand_inputs(inputs: list[str]) -> list[Path]:
    """Files as given; folders contribute their supported files (by extension, sorted)."""
    paths: list[Path] = []
    for raw in inputs:
        path = Path(raw)
        if path.is_dir():
            paths.extend(sorted(p for p in path.rglob("*")
                                if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES))
        else:
            paths.append(path)
    return paths


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


def given_password(password: str | None, password_file: str | None,
                   environ: Mapping[str, str]) -> str | None:
    """The password from --password, --password-file or PAPERLENS_PASSWORD, in that order."""
    if password is not None:
        return password
    if password_file is not None:
        return read_password_file(password_file)
    return environ.get(PASSWORD_ENV) or None


def read_password_file(name: str) -> str:
    """The first line of the file ('-': standard input), without its line end."""
    try:
        if name == "-":
            text = sys.stdin.read(MAX_PASSWORD_FILE_BYTES)
        else:
            with open(name, encoding="utf-8") as fh:
                text = fh.read(MAX_PASSWORD_FILE_BYTES)
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise InvalidOptions(f"Cannot read the password file {name}: {reason}.") from None
    line = text.splitlines()[0] if text else ""
    if not line:
        raise InvalidOptions(f"The password file {name} is empty.")
    return line


def terminal_prompt(err: TextIO) -> PasswordPrompt | None:
    """Asks for a document's password on the terminal; None when there is no terminal (a
    pipe, a service), where asking would hang."""
    if not sys.stdin or not sys.stdin.isatty():
        return None

    def ask(path: Path) -> str:
        return getpass.getpass(f"Password for {path.name} (Enter to skip it): ", stream=err)

    return ask
