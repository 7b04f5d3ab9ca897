"""Turning one input document into Markdown: the pluggable converter, by default the engine CLI."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Conversion:
    """Markdown of one document plus the warnings the converter printed while making it, and
    the document JSON it wrote beside the Markdown (None when it wrote none: another converter,
    or `--format md`)."""

    markdown: str
    warnings: tuple[str, ...] = ()
    document: dict | None = None


# A converter takes an input document and returns its Markdown (a plain string, or a
# Conversion that also carries warnings), or raises ConversionError.
Converter = Callable[[Path], "str | Conversion"]

INPUT_PLACEHOLDER = "{input}"
OUTDIR_PLACEHOLDER = "{outdir}"


class ConversionError(Exception):
    """The converter could not produce Markdown for one input; the message says why."""


def default_command(repo_root: Path) -> list[str]:
    """The engine CLI: the venv's `paperlens-cli` if installed, else `python -m engine.cli.main`."""
    installed = repo_root / ".venv" / "bin" / "paperlens-cli"
    if installed.exists():
        program = [str(installed)]
    else:
        program = [sys.executable, "-m", "engine.cli.main"]
    return [*program, "convert", INPUT_PLACEHOLDER, "-o", OUTDIR_PLACEHOLDER]


def _last_lines(text: str, count: int = 3) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return " | ".join(lines[-count:]) if lines else "(no output)"


def cli_converter(command: Sequence[str], cwd: Path, timeout_s: float) -> Converter:
    """A converter that runs `command` once per input, in a fresh temporary output folder.

    `{input}` and `{outdir}` in the command are replaced by the input path and the folder;
    the command must write `<outdir>/<input stem>.md`. Lines of its stderr that start with
    "warning" are kept as the conversion's warnings.
    """
    if not any(INPUT_PLACEHOLDER in part for part in command):
        raise ValueError(f"the converter command needs an {INPUT_PLACEHOLDER} placeholder")

    def convert(input_path: Path) -> Conversion:
        with tempfile.TemporaryDirectory(prefix="paperlens-eval-") as outdir:
            argv = [
                part.replace(INPUT_PLACEHOLDER, str(input_path)).replace(OUTDIR_PLACEHOLDER, outdir)
                for part in command
            ]
            try:
                finished = subprocess.run(
                    argv, cwd=cwd, capture_output=True, text=True, timeout=timeout_s, check=False
                )
            except subprocess.TimeoutExpired as error:
                raise ConversionError(f"timed out after {timeout_s:g} s") from error
            except OSError as error:
                raise ConversionError(f"could not start {argv[0]}: {error}") from error
            if finished.returncode != 0:
                detail = _last_lines(finished.stderr or finished.stdout)
                raise ConversionError(f"exit status {finished.returncode}: {detail}")
            markdown_path = Path(outdir) / f"{input_path.stem}.md"
            if not markdown_path.is_file():
                written = sorted(p.name for p in Path(outdir).iterdir()) or ["nothing"]
                raise ConversionError(
                    f"expected {markdown_path.name} in the output folder, "
                    f"found {', '.join(written)}"
                )
            _check_json(Path(outdir))
            document = _document_json(markdown_path.with_suffix(".json"))
            warnings = tuple(
                line.strip()
                for line in (finished.stderr or "").splitlines()
                if line.strip().lower().startswith("warning")
            )
            return Conversion(markdown_path.read_text(encoding="utf-8"), warnings, document)

    return convert


def _document_json(path: Path) -> dict | None:
    """The document JSON at `path` when there is one (its shape: pages with blocks)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("pages"), list) else None


def _check_json(outdir: Path) -> None:
    """The document JSON and content list the converter wrote (when it is Paperlens) answer to
    their JSON Schemas (engine/output/schema); another converter's JSON is not ours to judge."""
    from tools.json_schemas import check_folder

    found = check_folder(outdir)
    if found:
        shown = "; ".join(p.rpartition("/")[2] for p in found[:3])
        raise ConversionError(f"the JSON written departs from its schema ({len(found)} "
                              f"problem(s)): {shown}")
