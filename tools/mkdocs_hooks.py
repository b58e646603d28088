"""MkDocs hooks of the documentation site (mkdocs.yml: ``hooks``).

Two things the i18n plugin (mkdocs-static-i18n, suffix structure) leaves to us:

* **Links to another language's page.** The guides open with a line of links
  to their other languages (``[Nederlands](teaching.nl.md)``). Each language is
  built as a site of its own that holds only its own pages, so MkDocs would
  call such a link broken. `language_links` points it at that language's page
  (``../nl/teaching/``, as HTML: MkDocs checks a Markdown link against the
  pages of the language being built); a link to the page's own language is left to the
  plugin, and a link whose page does not exist stays as it is, for the strict
  build to fail on.
* **A page not yet translated.** The Dutch site shows the English page where
  there is no Dutch one; `on_page_content` marks its text ``lang="en"``, so a
  screen reader reads it in English.
* **The gallery.** `docs/gallery/` holds the pictures the browser tests take;
  `gallery.md` shows them with words. Any picture there that the page does not
  name yet is added at its end, so a new picture is on the site at once.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

#: ``[text](NAME.LANG.md#anchor)`` or ``[text](NAME.md#anchor)`` in a page's Markdown.
LINK = re.compile(
    r"\[(?P<text>[^\[\]]*)\]"
    r"\((?P<path>[^()\s#:]+?)(?:\.(?P<lang>[a-z]{2}))?\.md(?P<anchor>#[^()\s]*)?\)"
)
GALLERY = "gallery"


def _i18n(config: Any) -> tuple[str, str, list[str]]:
    """(the language being built, the default language, every language)."""
    plugin = config.plugins["i18n"]
    languages = [lang.locale for lang in plugin.config.languages]
    return plugin.current_language, plugin.default_language, languages


def _page_url(stem: str, lang: str, default: str) -> str:
    """The site path of page ``stem`` (``teaching``, ``sub/page``) in ``lang``."""
    prefix = "" if lang == default else f"{lang}/"
    if stem == "index" or stem.endswith("/index"):
        return prefix + stem[: -len("index")]
    return f"{prefix}{stem}/"


def language_links(markdown: str, page: Any, config: Any) -> str:
    current, default, languages = _i18n(config)
    docs = Path(config.docs_dir)
    src = page.file.src_uri  # e.g. teaching.nl.md
    src_dir = posixpath.dirname(src)
    own = re.sub(r"(\.[a-z]{2})?\.md$", "", src)  # the page's stem, without its language

    def replace(match: re.Match[str]) -> str:
        text, rel, lang = match["text"], match["path"], match["lang"]
        anchor = match["anchor"] or ""
        if lang is not None and lang not in languages:
            return match[0]
        stem = posixpath.normpath(posixpath.join(src_dir, rel))
        if lang is None:
            # an unsuffixed link means "this page in the reader's language", except
            # the link from a translation to its own original: the default language
            if stem != own or current == default:
                return match[0]
            lang = default
        if lang == current:
            return f"[{text}]({rel}.md{anchor})"  # the plugin finds this language's page
        name = f"{stem}.md" if lang == default else f"{stem}.{lang}.md"
        if not (docs / name).is_file():
            return match[0]  # left for the strict build to report
        base = page.url if page.url.endswith("/") else posixpath.dirname(page.url) + "/"
        href = posixpath.relpath(_page_url(stem, lang, default) or ".", base.rstrip("/") or ".")
        return f'<a href="{href.rstrip("/")}/{anchor}" hreflang="{lang}">{text}</a>'

    return LINK.sub(replace, markdown)


def gallery_rest(markdown: str, config: Any) -> str:
    folder = Path(config.docs_dir) / "gallery"
    named = set(re.findall(r"gallery/([\w.-]+\.png)", markdown))
    rest = sorted(p.name for p in folder.glob("*.png") if p.name not in named)
    if not rest:
        return markdown
    lines = ["", "## More pictures", ""]
    for name in rest:
        words = name.removesuffix(".png").replace("-", " ")
        lines.append(f"![{words}](gallery/{name}){{ loading=lazy }}")
        lines.append("")
    return markdown.rstrip("\n") + "\n" + "\n".join(lines)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    markdown = language_links(markdown, page, config)
    if re.sub(r"(\.[a-z]{2})?\.md$", "", page.file.src_uri) == GALLERY:
        markdown = gallery_rest(markdown, config)
    return markdown


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    current, _, _ = _i18n(config)
    locale = getattr(page.file, "locale", current)
    if locale != current:
        return f'<div lang="{locale}">\n{html}\n</div>'
    return html
