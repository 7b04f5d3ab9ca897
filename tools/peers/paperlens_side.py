"""Paperlens's side of the comparison: the engine in this process, loaded and timed like a peer."""

from __future__ import annotations

import time
from importlib import metadata
from pathlib import Path


class PaperlensConverter:
    """engine.api.Engine with the options `paperlens-cli convert` builds from the settings,
    except that nothing is written: the Markdown is taken from the result, as from the peers."""

    def __init__(self, warm_input: Path) -> None:
        started = time.perf_counter()
        from engine.api import Engine
        from engine.options import ConvertOptions, parse_layout
        from settings import SettingsStore

        settings = SettingsStore().load()
        self._engine = Engine(settings)
        self._options = ConvertOptions(
            layout_model=parse_layout(str(settings.model.layout)),
            table_format=str(settings.output.table_format))
        self.convert(warm_input)
        self.load_s = time.perf_counter() - started
        import onnxruntime

        self.versions = {"paperlens": metadata.version("paperlens"),
                         "onnxruntime": onnxruntime.__version__}

    @property
    def ort_threads(self) -> int | None:
        return self._engine.models.sessions.threads

    def convert(self, path: Path) -> tuple[str, int]:
        result = self._engine.convert(path, self._options)
        return result.markdown, len(result.pages)
