"""Every relative link in README.md and docs/**/*.md leads somewhere: to a file or a
folder of the repository, and to a heading of it when the link names an anchor
(GitHub's anchors: the heading in lower case, punctuation dropped, spaces as hyphens)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
_CODE = re.compile(r"`[^`\n]*`")
_INLINE = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.M)
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)


def prose(text: str) -> str:
    """The text without code blocks and code spans (a link shown as code is no link)."""
    return _CODE.sub("", _FENCE.sub("", text))


def links(text: str) -> list[str]:
    body = prose(text)
    return _INLINE.findall(body) + _REFERENCE.findall(body)


def slug(heading: str) -> str:
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading: its text
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text: str) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, heading in _HEADING.findall(_FENCE.sub("", text)):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    found.update(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", text))
    return found


def broken(page: Path) -> list[str]:
    """The links of ``page`` that lead nowhere, each with the reason."""
    out = []
    for target in links(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            out.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest.read_text(encoding="utf-8")):
            out.append(f"{target}: no heading #{anchor} in {os.path.relpath(dest, page.parent)}")
    return out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    assert broken(page) == []


def test_the_checker_finds_a_missing_file_and_a_missing_heading(tmp_path):
    (tmp_path / "other.md").write_text("# A title\n\n## The `balance.toml` file!\n\n## Again\n\n## Again\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md) [ok](other.md#a-title) [ok](other.md#the-balancetoml-file) [ok](other.md#again-1)\n"
        "![img](missing.png) [bad](other.md#nowhere) [web](https://example.com/x) `[code](nope.md)`\n"
        "```\n[fenced](nope.md)\n```\n[self](#nothing-here) [dir](.)\n\n[ref]: gone.md\n"
    )
    assert broken(page) == [
        "missing.png: no such file",
        "other.md#nowhere: no heading #nowhere in other.md",
        "#nothing-here: no heading #nothing-here in page.md",
        "gone.md: no such file",
    ]


def test_the_readme_stays_short_and_keeps_its_two_commands():
    """README.md: at most 200 lines, the two commands, the worked example's picture and a
    findings page per game (the findings themselves live in docs/findings/)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    assert "make demo" in text and "make test" in text
    assert "](docs/images/carnage-car_cost.png)" in text
    shipped = sorted(p.parent.name for p in (ROOT / "sims").glob("*/RULES.md"))
    assert len(shipped) == 5
    for game in shipped:
        assert f"](docs/findings/{game}.md)" in text
