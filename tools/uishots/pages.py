"""One screenshot's page: its HTML, the viewport it is drawn in (CSS pixels) and its truth (the
HTML's text, as the Markdown a reader should get). Every size in the CSS is fixed, so the
viewport's height follows from the content."""

from __future__ import annotations

import html
import random
import re
from dataclasses import dataclass

from tools.uishots.snippets import ARTICLES, CODE, MESSAGES, PEOPLE, SETTINGS

CODE_FONTS = ("DejaVu Sans Mono", "Liberation Mono", "Nimbus Mono PS")
UI_FONTS = ("DejaVu Sans", "Liberation Sans", "Noto Sans")
THEMES = {"dark": ("#1e1f22", "#d4d4d4", "#c586c0", "#ce9178"),
          "light": ("#ffffff", "#24292f", "#cf222e", "#0a3069")}
"""Theme -> background, text, keyword and string colours."""
_KEYWORDS = re.compile(r"\b(def|class|return|import|from|for|in|if|while|with|as|function|const|"
                       r"let|async|await|throw|new|int|char|struct|size_t|void|include)\b")
_STRING = re.compile(r"(\"[^\"\n]*\"|`[^`\n]*`)")

FAMILIES = ("code_python", "code_javascript", "code_c", "code_shell", "chat", "settings",
            "article")
UI_FAMILIES = ("chat", "settings")
"""Screenshots of user interfaces: no line of them is a heading."""


@dataclass(frozen=True)
class Shot:
    html: str
    width: int
    height: int
    truth: str
    code: str = ""
    """Code pages: the code exactly as shown."""
    language: str = ""


def _page(body: str, css: str) -> str:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><style>html,body{{margin:0}}"
            f"{css}</style></head><body>{body}</body></html>")


def _highlight(line: str, keyword: str, string: str) -> str:
    """A line of code with its keywords and strings coloured, the text unchanged."""
    out, last = [], 0
    for match in sorted([*_STRING.finditer(line), *_KEYWORDS.finditer(line)],
                        key=lambda m: m.start()):
        if match.start() < last:
            continue
        colour = string if match.re is _STRING else keyword
        out.append(html.escape(line[last:match.start()]))
        out.append(f"<span style='color:{colour}'>{html.escape(match.group())}</span>")
        last = match.end()
    out.append(html.escape(line[last:]))
    return "".join(out)


def code_shot(language: str, rng: random.Random) -> Shot:
    code = rng.choice(CODE[language])
    font, size = rng.choice(CODE_FONTS), rng.choice((13, 14, 15, 16))
    theme = rng.choice(sorted(THEMES))
    background, ink, keyword, string = THEMES[theme]
    line_height = round(size * 1.5)
    lines = code.split("\n")
    body = "<pre>" + "\n".join(_highlight(ln, keyword, string) for ln in lines) + "</pre>"
    css = (f"body{{background:{background};color:{ink}}}pre{{margin:0;padding:18px 24px;"
           f"font:{size}px/{line_height}px '{font}'}}")
    width = 48 + round(size * 0.62 * max(len(ln) for ln in lines)) + rng.randrange(20, 120)
    height = 36 + line_height * len(lines) + rng.randrange(10, 60)
    hint = "" if language == "shell" else language
    return Shot(_page(body, css), width, height, f"```\n{code}\n```\n", code, hint)


def chat_shot(rng: random.Random) -> Shot:
    font, size = rng.choice(UI_FONTS), rng.choice((13, 14, 15))
    people = rng.sample(PEOPLE, 3)
    start = rng.randrange(len(MESSAGES) - 6)
    messages = MESSAGES[start:start + rng.randrange(4, 7)]
    hour, minute = rng.randrange(8, 18), rng.randrange(0, 50)
    # The sender's name in bold beside the time, or alone above the message, a size larger.
    stacked = rng.random() < 0.5
    rows, truth = [], []
    for n, text in enumerate(messages):
        name, stamp = people[n % 3], f"{hour}:{minute + n:02d}"
        head = (f"<b style='font-size:1.15em'>{html.escape(name)}</b>" if stacked else
                f"<b>{html.escape(name)}</b><span class='t'>{stamp}</span>")
        rows.append(f"<div class='m'><div class='a'></div><div><div>{head}</div>"
                    f"<div>{html.escape(text)}</div></div></div>")
        truth += [name if stacked else f"{name} {stamp}", text]
    css = (f"body{{background:#1a1d21;color:#d1d2d3;font:{size}px/{round(size * 1.45)}px "
           f"'{font}'}}.m{{display:flex;gap:10px;padding:8px 18px}}.a{{width:36px;height:36px;"
           "border-radius:6px;background:#4a7;flex:none}b{color:#fff}.t{color:#8b8d90;"
           "font-size:0.8em;margin-left:8px}")
    height = 20 + len(messages) * (16 + 2 * round(size * 1.45)) + rng.randrange(10, 40)
    return Shot(_page("<div style='padding:10px 0'>" + "".join(rows) + "</div>", css),
                rng.randrange(520, 700), height, "\n\n".join(truth) + "\n")


def settings_shot(rng: random.Random) -> Shot:
    font, size = rng.choice(UI_FONTS), rng.choice((12, 13, 14))
    sections = rng.sample(SETTINGS, 2)
    parts, truth, rows = [], ["Settings"], 0
    for title, items in sections:
        parts.append(f"<div class='s'>{html.escape(title)}</div>")
        truth.append(title)
        for label, value in items:
            parts.append(f"<div class='r'><span>{html.escape(label)}</span>"
                         f"<span class='v'>{html.escape(value)}</span></div>")
            truth += [label, value]
            rows += 1
    css = (f"body{{background:#f3f3f3;color:#6b6b6b;font:{size}px/{round(size * 1.4)}px "
           f"'{font}'}}.w{{margin:14px;background:#fff;border:1px solid #ddd;padding:12px 20px}}"
           ".h{font-weight:bold;color:#333;margin-bottom:8px}.s{font-weight:bold;color:#444;"
           "margin:14px 0 6px}.r{display:flex;justify-content:space-between;padding:7px 0;"
           "border-bottom:1px solid #eee}.v{color:#888}")
    body = f"<div class='w'><div class='h'>Settings</div>{''.join(parts)}</div>"
    height = 80 + rows * (15 + round(size * 1.4)) + len(sections) * (20 + round(size * 1.4))
    return Shot(_page(body, css), rng.randrange(420, 560), height + rng.randrange(10, 30),
                "\n\n".join(truth) + "\n")


def article_shot(rng: random.Random) -> Shot:
    title, sections = rng.choice(ARTICLES)
    font, size = rng.choice(("DejaVu Serif", "Liberation Serif", "DejaVu Sans")), rng.choice(
        (15, 16, 17))
    width = rng.randrange(640, 760)
    body = [f"<h1>{html.escape(title)}</h1>"]
    truth = [f"# {title}"]
    for heading, text in sections:
        body += [f"<h2>{html.escape(heading)}</h2>", f"<p>{html.escape(text)}</p>"]
        truth += [f"## {heading}", text]
    css = (f"body{{background:#fff;color:#222;font:{size}px/{round(size * 1.6)}px '{font}';"
           f"padding:8px 32px}}h1{{font-size:1.9em;line-height:1.2}}h2{{font-size:1.3em}}")
    chars_per_line = (width - 64) / (size * 0.5)
    text_lines = sum(1 + len(text) // chars_per_line for _, text in sections)
    height = 140 + len(sections) * 70 + round(text_lines * size * 1.6)
    return Shot(_page("".join(body), css), width, height, "\n\n".join(truth) + "\n")


def shot(family: str, rng: random.Random) -> Shot:
    if family.startswith("code_"):
        return code_shot(family[len("code_"):], rng)
    return {"chat": chat_shot, "settings": settings_shot, "article": article_shot}[family](rng)
