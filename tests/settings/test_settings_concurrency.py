"""Read-modify-write under the file lock: concurrent writers never lose each other's keys."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

from settings import SettingsStore

REPO_ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 100

# Each process waits for "go" on stdin so that both run their loops at the same time.
WORKER = """
import sys
from pathlib import Path
from settings import SettingsStore

path, home, key, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
store = SettingsStore(Path(path), {"HOME": home})
print("ready", flush=True)
sys.stdin.readline()

def increment(raw):
    counters = raw.setdefault("counters", {})
    counters[key] = counters.get(key, 0) + 1
    # Touch a schema key too, so validation and the typed model run on every round.
    raw.setdefault("ui", {})["language"] = "en" if counters[key] % 2 else "zh_CN"

for _ in range(rounds):
    settings = store.update(increment)
    assert not settings.warnings, settings.warnings
print("done", flush=True)
"""


def test_two_processes_updating_different_keys_lose_nothing(tmp_path: Path) -> None:
    config = tmp_path / "config" / "settings.json"
    config.parent.mkdir()
    config.write_text(json.dumps({"keep": "me"}))
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(config), str(tmp_path / "home"), key, str(ROUNDS)],
            cwd=REPO_ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for key in ("a", "b")
    ]
    try:
        for worker in workers:
            assert worker.stdout.readline().strip() == "ready", worker.stderr.read()
        for worker in workers:
            worker.stdin.write("go\n")
            worker.stdin.flush()
        results = [worker.communicate(timeout=120) for worker in workers]
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
    for worker, (out, err) in zip(workers, results):
        assert worker.returncode == 0, err
        assert out.strip() == "done"

    raw = json.loads(config.read_text())
    assert raw["counters"] == {"a": ROUNDS, "b": ROUNDS}
    assert raw["keep"] == "me"
    assert not [p.name for p in config.parent.iterdir() if p.name.endswith(".tmp")]


def test_threads_with_separate_stores_lose_nothing(tmp_path: Path) -> None:
    config = tmp_path / "settings.json"
    errors: list[BaseException] = []

    def run(key: str) -> None:
        store = SettingsStore(config, {"HOME": str(tmp_path)})
        try:
            for _ in range(30):
                store.update(lambda raw: raw.__setitem__(key, raw.get(key, 0) + 1))
        except BaseException as error:  # reported below, on the test's thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(key,)) for key in ("x", "y", "z")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert json.loads(config.read_text()) == {"x": 30, "y": 30, "z": 30}
