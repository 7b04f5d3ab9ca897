"""The runner's side of a peer worker: start it, ask it to time items, stop it."""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path

from tools.peers.timing import ItemTiming

LOAD_TIMEOUT_S = 300.0


class PeerFailed(RuntimeError):
    """The worker could not load its tool, died, or answered too late."""


class PeerProcess:
    """One running `python -m tools.peers.worker TOOL` in the peers' environment."""

    def __init__(self, python: Path, tool: str, warm_input: Path, languages: Sequence[str],
                 cwd: Path, log_path: Path, timeout_s: float) -> None:
        self.tool = tool
        self.timeout_s = timeout_s
        self.log_path = log_path
        log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = log_path.open("w", encoding="utf-8")
        argv = [str(python), "-m", "tools.peers.worker", tool, "--warm-input", str(warm_input),
                "--languages", *languages]
        self._process = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=self._log, text=True,
                                         encoding="utf-8", bufsize=1)
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        ready = self._receive(LOAD_TIMEOUT_S)
        if not ready.get("ready"):
            self.close()
            raise PeerFailed(f"{tool} did not load: {ready.get('error', 'no reason given')}")
        self.load_s = float(ready["load_s"])
        self.versions = dict(ready["versions"])

    def _pump(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _log_tail(self) -> str:
        if not self._log.closed:
            self._log.flush()
        lines = self.log_path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
        return " | ".join(lines[-3:]) or "(nothing on stderr)"

    def _receive(self, timeout_s: float) -> dict:
        try:
            line = self._lines.get(timeout=timeout_s)
        except queue.Empty:
            self.close()
            raise PeerFailed(f"{self.tool} gave no answer within {timeout_s:g} s") from None
        if line is None:
            tail = self._log_tail()
            self.close()
            raise PeerFailed(f"{self.tool} stopped: {tail}")
        return json.loads(line)

    def time_item(self, inputs: Sequence[Path], language: str, runs: int, warmup: int,
                  budget_s: float | None) -> ItemTiming:
        request = {"inputs": [str(p) for p in inputs], "language": language, "runs": runs,
                   "warmup": warmup, "budget_s": budget_s}
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(json.dumps(request) + "\n")
            self._process.stdin.flush()
        except OSError as error:
            tail = self._log_tail()
            self.close()
            raise PeerFailed(f"{self.tool} stopped: {tail}") from error
        return ItemTiming.from_json(self._receive(self.timeout_s * (runs + warmup)))

    def close(self) -> None:
        if self._process.poll() is None:
            try:
                if self._process.stdin is not None:
                    self._process.stdin.close()
                self._process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()
        self._log.close()
