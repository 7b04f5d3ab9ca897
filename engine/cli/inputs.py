"""What `convert` is given: the input files and the PDF password (the output name of each:
engine/output/run_names.py)."""

from __future__ import annotations

import getpass
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
