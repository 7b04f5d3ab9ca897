"""Run by tests/test_architecture.py: each named module imported as the first of ours, in a child
forked from this interpreter, which holds only what our modules import from outside the
project (their loading is most of the cost and says nothing about the order of our own
imports). Prints the modules that failed, with their error's last line; exits 1 if any did.

    python tests/fresh_imports.py OUR_PACKAGES OUTSIDE_MODULES MODULE...
    python tests/fresh_imports.py engine,gui numpy,cv2 engine.recipe gui.app

A child importing one module imports others on the way. One of those that began while nothing
of ours had finished but its parent packages (only the imports that led to it still running,
which it cannot import back: there is no import circle, a test checks it) was imported exactly
as it would be first in an interpreter of its own, so it needs no child of its own. Children
run side by side, one per CPU core (at most four)."""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import select
import sys
import traceback

class FirstImports(importlib.abc.MetaPathFinder):
    """Notes which of our modules begin their import while nothing of ours but their parent
    packages has finished."""

    def __init__(self, ours: tuple[str, ...]) -> None:
        self.ours = ours
        self.finished: set[str] = set()
        self.as_if_first: list[str] = []

    def find_spec(self, name, path, target=None):
        if name.split(".")[0] not in self.ours:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        run = spec.loader.exec_module

        def exec_module(module, name=name, run=run):
            parents = {name.rsplit(".", depth)[0] for depth in range(1, name.count(".") + 1)}
            if self.finished <= parents:
                self.as_if_first.append(name)
            run(module)
            self.finished.add(name)

        spec.loader.exec_module = exec_module
        return spec


def import_first(name: str, ours: tuple[str, ...], write_end: int) -> None:
    """In a forked child: import `name`, write what was imported as if first (or the error),
    and end."""
    watch = FirstImports(ours)
    sys.meta_path.insert(0, watch)
    try:
        __import__(name)
    except BaseException:
        last = traceback.format_exc().strip().splitlines()[-1]
        os.write(write_end, last.encode())
        os._exit(1)
    os.write(write_end, "\n".join(watch.as_if_first).encode())
    os._exit(0)


def main(argv: list[str]) -> int:
    ours, preloaded, names = tuple(argv[0].split(",")), argv[1].split(","), argv[2:]
    for lib in preloaded:
        try:
            __import__(lib)
        except Exception:  # noqa: BLE001 - an optional library missing: its importer says so
            pass
    done: set[str] = set()
    failed, children = [], 0
    running: dict[int, tuple[str, int]] = {}  # read end -> (module, child's pid)
    said: dict[int, bytes] = {}
    workers = max(1, min(4, os.cpu_count() or 1))

    def reap() -> None:
        """Read the children's pipes until one ends; note what it imported as if first."""
        while True:
            ready, _, _ = select.select(list(running), [], [])
            for read_end in ready:
                chunk = os.read(read_end, 65536)
                if chunk:
                    said[read_end] = said.get(read_end, b"") + chunk
                    continue
                name, pid = running.pop(read_end)
                os.close(read_end)
                text = said.pop(read_end, b"").decode(errors="replace")
                _, status = os.waitpid(pid, 0)
                if status:
                    failed.append(f"{name}: {text or status}")
                else:
                    done.update(text.splitlines())
                return

    for name in names:
        if name in done:
            continue
        while len(running) >= workers:
            reap()
        if name in done:  # a child that ended meanwhile imported it as if first
            continue
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            import_first(name, ours, write_end)
        children += 1
        os.close(write_end)
        running[read_end] = (name, pid)
    while running:
        reap()
    print("\n".join(failed))
    print(f"{len(names)} modules, {children} children", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
