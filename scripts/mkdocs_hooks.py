"""MkDocs hooks for the documentation site (mkdocs.yml): README.md and CHANGELOG.md, which
live at the repository's root, become the site's pages ``readme.md`` and ``changelog.md``
(not copies in docs/: each is read from its one file at build time), and the links between
them and docs/ are rewritten for the site's layout. The docstrings' examples (doctest
lines, ``>>>``, outside any fence) are shown as Python sessions, where Markdown would read
their output (``['3D', '3C']``) as links."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
PAGES = {"readme.md": ROOT / "README.md", "changelog.md": ROOT / "CHANGELOG.md"}
"""The site's page name -> the root file it shows."""


_ROLE = re.compile(r":(?:py:)?(mod|class|func|meth|data|attr|exc|obj):`~?([^`]+)`")
"""A Sphinx cross-reference role in a docstring (``:class:`Game```), shown as code."""


class _Doctests(Preprocessor):
    """Fences each run of doctest lines (a ``>>>`` line, its ``...`` lines and its output,
    to a blank line) that is not already inside a fence, and shows Sphinx roles as code."""

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        fence = ""
        in_doctest = False
        for line in lines:
            bare = line.lstrip()
            if in_doctest and not bare:
                out.append(line[: len(line) - len(bare)] + "```")
                in_doctest = False
            if not in_doctest and bare.startswith(("```", "~~~")):
                fence = "" if fence and bare.startswith(fence) else fence or bare[:3]
            elif not fence and not in_doctest and bare.startswith(">>> "):
                out.append(line[: len(line) - len(bare)] + "```pycon")
                in_doctest = True
            out.append(line if fence or in_doctest else _ROLE.sub(r"`\2`", line))
        if in_doctest:
            out.append("```")
        return out


class DoctestExtension(Extension):
    """The :class:`_Doctests` preprocessor as a Markdown extension."""

    def extendMarkdown(self, md: Markdown) -> None:
        md.preprocessors.register(_Doctests(md), "big2_doctests", 40)


@event_priority(100)  # before mkdocstrings reads the extensions for the docstrings
def on_config(config: Any) -> Any:
    """Add the doctest fences to the site's Markdown (pages and docstrings alike)."""
    config.markdown_extensions.append(DoctestExtension())
    return config


def on_files(files: Files, config: Any) -> Files:
    """Add README.md and CHANGELOG.md as generated pages."""
    for name, path in PAGES.items():
        files.append(File.generated(config, name, content=path.read_text("utf-8")))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Root files link into docs/ (``docs/x.md``): on the site they are beside it; docs/
    links the root files as ``../README.md``: on the site they are pages of their own."""
    if page.file.src_uri in PAGES:
        markdown = re.sub(r"\]\(docs/", "](", markdown)
        markdown = re.sub(r"\]\(CHANGELOG\.md", "](changelog.md", markdown)
    markdown = re.sub(r"\]\(\.\./README\.md", "](readme.md", markdown)
    return re.sub(r"\]\(\.\./CHANGELOG\.md", "](changelog.md", markdown)
