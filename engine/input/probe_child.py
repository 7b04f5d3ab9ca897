"""The child of engine/input/probe.py: limits its own address space, opens one input as the
engine would, and answers its kind and page count (or its typed error) as one JSON line."""

from __future__ import annotations

import json
import sys
from pathlib import Path


# How running out of address space shows when it is not a MemoryError: MuPDF's allocation
# errors, a shared library the loader could not map.
MEMORY_SIGNS = ("memory", "malloc", "cannot allocate", "failed to map segment")


def limit_memory(memory_mib: int) -> None:
    try:
        import resource
    except ImportError:  # Windows: the time limit alone bounds the child
        return
    ceiling = memory_mib * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (ceiling, ceiling))


def main(argv: list[str]) -> int:
    path, memory_mib = Path(argv[0]), int(argv[1])
    limit_memory(memory_mib)
    try:
        request = json.loads(sys.stdin.readline() or "{}")
        from engine.errors import PaperlensError
        from engine.input.damage import quiet_libraries
        from engine.input.kinds import identify
        from engine.input.paged import open_paged

        try:
            quiet_libraries()
            kind = identify(path)
            if kind.is_office:
                from engine.office.reader import read_office

                office = read_office(path, kind.value)
                answer = {"kind": kind.value, "pages": len(office.pages),
                          "office": office.to_json()}
            else:
                document = open_paged(path, kind, request.get("password"))
                answer = {"kind": kind.value, "pages": document.page_count}
                document.close()
        except PaperlensError as exc:
            answer = {"error": type(exc).__name__, "message": exc.message}
    except (MemoryError, ImportError):  # under the limit, a module that cannot be loaded
        answer = {"error": "memory"}
    except Exception as exc:  # MuPDF's own errors once memory is short
        text = str(exc).lower()
        short = any(sign in text for sign in MEMORY_SIGNS)
        answer = {"error": "memory"} if short else \
            {"error": "CorruptDocument",
             "message": f"{path.name} could not be opened ({str(exc).strip()[:160]})."}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
