"""The house style of every page a designer shares: the sweep report, the run
page (``balance run --report``), the check page (``balance check --html``) and
the tournament page.

One stylesheet, and the parts every page has in the same order: a title with
its lede, a **summary box** (the answer in one or two sentences, naming its
players; coloured by its verdict), a **table of contents**, the sections, and a
footer to reproduce.  Colours follow verdicts, never the kind of a statement:

=============  ===================================================  ==========
verdict        meaning                                              colour
=============  ===================================================  ==========
``good``       inside its band or target, no regression             green
``bad``        outside its band or target, a regression             red
``unsure``     the interval cannot tell, or the run is incomplete   amber
``info``       a fact without a verdict (players, lengths, power)   ink
=============  ===================================================  ==========

Every page is self-contained: inline CSS and SVG, no script, no other file or host.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from balance.summary import CANNOT_TELL, INSIDE, OUTSIDE

GOOD, BAD, UNSURE, INFO = "good", "bad", "unsure", "info"
VERDICTS = (GOOD, BAD, UNSURE, INFO)
COLOURS = {GOOD: "#1b6e34", BAD: "#b3261e", UNSURE: "#8a5300", INFO: "#1d1d1f"}
BAND_VERDICT = {INSIDE: GOOD, OUTSIDE: BAD, CANNOT_TELL: UNSURE}

CSS = f"""
:root {{ --ink: #1d1d1f; --muted: #5f6368; --rule: #d9d9de; --accent: #1f77b4;
  --good: {COLOURS[GOOD]}; --bad: {COLOURS[BAD]}; --unsure: {COLOURS[UNSURE]}; --warn: {COLOURS[BAD]}; }}
* {{ box-sizing: border-box; }}
body {{ margin: 0; color: var(--ink); background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }}
main {{ max-width: 1180px; margin: 0 auto; padding: 24px 28px 40px; }}
h1 {{ font-size: 26px; margin: 0 0 4px; }}
h2 {{ font-size: 20px; margin: 32px 0 8px; border-bottom: 1px solid var(--rule); padding-bottom: 4px; }}
h3 {{ font-size: 16px; margin: 20px 0 4px; }}
p.lede {{ color: var(--muted); margin: 0 0 12px; }}
p.rule {{ color: var(--muted); font-size: 13px; margin: 4px 0 12px; }}
.summary {{ border-left: 6px solid var(--ink); background: #f5f5f7; padding: 10px 16px; margin: 14px 0 8px; }}
.summary p {{ margin: 4px 0; font-size: 16px; }}
.summary.verdict-good {{ border-left-color: var(--good); background: #eef6f0; }}
.summary.verdict-bad {{ border-left-color: var(--bad); background: #fbeeed; }}
.summary.verdict-unsure {{ border-left-color: var(--unsure); background: #fbf4e6; }}
nav.toc {{ font-size: 14px; margin: 8px 0 0; }}
nav.toc h2 {{ font-size: 15px; margin: 12px 0 2px; border: 0; padding: 0; }}
nav.toc ol {{ margin: 0; padding-left: 20px; columns: 2 18em; }}
ul.findings {{ padding-left: 20px; }}
ul.findings li {{ margin: 4px 0; }}
.verdict-good {{ color: var(--good); }}
.verdict-bad {{ color: var(--bad); }}
.verdict-unsure {{ color: var(--unsure); }}
.verdict-info {{ color: var(--ink); }}
.summary.verdict-good, .summary.verdict-bad, .summary.verdict-unsure, .summary.verdict-info {{ color: var(--ink); }}
tr.verdict-good, tr.verdict-bad, tr.verdict-unsure {{ color: var(--ink); }}
td.verdict-good, td.verdict-bad, td.verdict-unsure {{ font-weight: 600; }}
tr.verdict-bad td {{ background: #fbeeed; }}
tr.verdict-unsure td {{ background: #fbf4e6; }}
tr.verdict-good td {{ background: #eef6f0; }}
figure {{ margin: 12px 0 20px; break-inside: avoid; page-break-inside: avoid; }}
figure svg {{ display: block; width: 100%; height: auto; max-height: 560px; }}
figcaption {{ color: var(--muted); font-size: 13px; }}
figcaption b {{ color: var(--ink); }}
.scroll {{ overflow-x: auto; }}
table {{ border-collapse: collapse; font-size: 12.5px; font-variant-numeric: tabular-nums; }}
th, td {{ padding: 3px 8px; border-bottom: 1px solid var(--rule); text-align: right; white-space: nowrap; }}
th {{ background: #f5f5f7; position: sticky; top: 0; }}
td.l, th.l {{ text-align: left; }}
td.wrap {{ white-space: normal; text-align: left; min-width: 16em; }}
footer {{ margin-top: 36px; border-top: 1px solid var(--rule); padding-top: 10px; color: var(--muted); font-size: 13px; }}
code, pre {{ font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }}
pre {{ white-space: pre-wrap; word-break: break-all; background: #f5f5f7; padding: 8px; margin: 4px 0; }}
@media (max-width: 900px) {{ main {{ padding: 16px 14px 32px; }} nav.toc ol {{ columns: 1; }} }}
@media print {{
  body {{ font-size: 11pt; }}
  main {{ max-width: none; padding: 0; }}
  h2 {{ break-after: avoid; page-break-after: avoid; }}
  .scroll {{ overflow: visible; }}
  table {{ font-size: 8pt; }}
  th {{ position: static; }}
  nav.toc {{ display: none; }}
}}
"""


def e(text: Any) -> str:
    """Text escaped for HTML (attributes included)."""
    return html.escape(str(text), quote=True)


def head(title: str) -> list[str]:
    """The page up to ``<main>``: charset, viewport, title and the stylesheet."""
    return [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(title)}</title>",
        f"<style>{CSS}</style></head><body><main>",
    ]


def tail() -> str:
    return "</main></body></html>\n"


def worst(verdicts: Iterable[str]) -> str:
    """The verdict a box of several statements takes: bad over unsure over good; info alone stays info."""
    seen = set(verdicts)
    for v in (BAD, UNSURE, GOOD):
        if v in seen:
            return v
    return INFO


def summary_box(sentences: Sequence[str], verdict: str, box_id: str = "summary") -> str:
    """The answer in one or two sentences, coloured by its verdict."""
    body = "".join(f"<p>{e(s)}</p>" for s in sentences)
    return f'<section id="{e(box_id)}" class="summary verdict-{e(verdict)}" aria-label="summary">{body}</section>'


def toc(entries: Sequence[tuple[str, str]], toc_id: str = "contents") -> str:
    """A table of contents: ``(id, title)`` of each section, in page order."""
    items = "".join(f'<li><a href="#{e(i)}">{e(t)}</a></li>' for i, t in entries)
    return f'<nav id="{e(toc_id)}" class="toc"><h2>Contents</h2><ol>{items}</ol></nav>'


def findings_list(found: Sequence[Mapping[str, Any]]) -> str:
    """Findings as a list, each item classed by its kind and coloured by its verdict."""
    items = [
        f'<li class="{e(f.get("kind", "note"))} verdict-{e(f.get("verdict", INFO))}">{e(f["text"])}</li>' for f in found
    ]
    return '<ul class="findings">' + "".join(items) + "</ul>"
