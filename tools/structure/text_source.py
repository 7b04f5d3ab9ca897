"""Real English prose for generated pages: the docstrings of CPython's standard library (PSF
License 2.0, which allows copying and derived works), taken from the interpreter that runs the
generator, so nothing is downloaded and nothing is committed."""

from __future__ import annotations

import importlib
import inspect
import random
import re
from dataclasses import dataclass

MODULES = (
    "abc argparse array ast asyncio base64 bisect bz2 calendar cmath cmd codecs collections "
    "colorsys concurrent.futures configparser contextlib copy csv dataclasses datetime decimal "
    "difflib dis doctest email enum faulthandler filecmp fileinput fnmatch fractions ftplib "
    "functools gc gettext glob graphlib gzip hashlib heapq hmac html html.parser http.client "
    "imaplib importlib inspect io ipaddress itertools json linecache locale logging lzma "
    "mailbox math mimetypes mmap modulefinder multiprocessing netrc numbers operator os "
    "pathlib pdb pickle pkgutil plistlib poplib pprint queue quopri random re reprlib runpy "
    "sched secrets selectors shelve shlex shutil signal smtplib socket socketserver sqlite3 "
    "ssl stat statistics string subprocess sysconfig tarfile tempfile textwrap threading time "
    "timeit tokenize trace traceback tracemalloc types typing unittest urllib.request uuid "
    "venv warnings wave weakref webbrowser xml.etree.ElementTree xmlrpc.client zipapp zipfile "
    "zlib zoneinfo").split()
_PROSE = re.compile(r"[A-Z][^{}\[\]<>|=_*#`\\]*[.]")
_TITLE = re.compile(r"[A-Z][A-Za-z ,'-]{12,56}")


@dataclass(frozen=True)
class Prose:
    paragraphs: tuple[str, ...]
    titles: tuple[str, ...]

    def sample(self, rng: random.Random, count: int) -> list[str]:
        return [rng.choice(self.paragraphs) for _ in range(count)]

    def title(self, rng: random.Random) -> str:
        return rng.choice(self.titles)


def load_prose() -> Prose:
    """Paragraphs of 120-700 characters that read as prose (no code, no markup), and short
    first lines usable as headings, in a stable order."""
    paragraphs: dict[str, None] = {}
    titles: dict[str, None] = {}
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        for obj in [module] + [getattr(module, n) for n in sorted(dir(module))
                               if not n.startswith("_")]:
            try:
                doc = inspect.getdoc(obj)
            except Exception:  # some objects raise on attribute access
                continue
            if not doc:
                continue
            first = doc.split("\n", 1)[0].strip().rstrip(".")
            if _TITLE.fullmatch(first) and first.isascii():
                titles[first] = None
            for block in re.split(r"\n\s*\n", doc):
                text = " ".join(block.split())
                if (120 <= len(text) <= 700 and text.isascii() and ">>>" not in text
                        and text.count("(") <= 2 and _PROSE.fullmatch(text)):
                    paragraphs[text] = None
    return Prose(tuple(paragraphs), tuple(titles))
