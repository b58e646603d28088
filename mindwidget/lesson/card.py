"""The rules card: the rules a class needs before its first game, on one A4 page."""

from __future__ import annotations

import html
from typing import Any

from ..i18n import translate
from ..rules import Rules
from .kit import check_lang, text


def rules_card(lang: str) -> str:
    """The rules a class needs before its first game, as one printable A4 page (HTML)."""
    check_lang(lang)
    rules = Rules()

    def say(key: str, **kw: Any) -> str:
        return html.escape(text(f"card.{key}", lang, **kw))

    rows = "".join(
        f"<tr><td>{n}</td><td>{r.n_levels}</td><td>{r.start_lives}</td><td>{r.stars}</td></tr>"
        for n, r in ((n, Rules(players=n)) for n in (2, 3, 4))
    )
    rewards = "".join(
        f"<li><b>{html.escape(text('level_n', lang, n=level))}</b>: "
        f"{html.escape(translate(kind + '_card', lang))}</li>"
        for level, kind in sorted(Rules().rewards.items())
    )
    head = "".join(
        f"<th>{w}</th>"
        for w in (
            say("players"),
            say("levels"),
            html.escape(translate("lives", lang)),
            html.escape(translate("stars", lang)),
        )
    )
    reward_text = say("rewards", max_lives=rules.max_lives, max_stars=rules.max_stars)
    sections = "".join(
        f"<section><h2>{say(f'{k}_title')}</h2><p>{say(k)}</p></section>"
        for k in ("goal", "silence", "lives", "mistake", "stop", "star")
    )
    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<title>{say("title")}</title>
<style>
@page {{ size: A4; margin: 14mm; }}
* {{ box-sizing: border-box; }}
body {{ font-family: "DejaVu Sans", Arial, sans-serif; font-size: 11.5pt; line-height: 1.3;
  color: #111; margin: 0 auto; max-width: 182mm; }}
h1 {{ font-size: 22pt; margin: 0 0 1mm; }}
.lead {{ font-size: 13pt; margin: 0 0 3mm; }}
h2 {{ font-size: 14pt; margin: 0 0 1mm; color: #0b4f8a; }}
section {{ border-left: 4px solid #0072B2; padding: 0.5mm 0 0.5mm 3.5mm; margin: 0 0 2.5mm;
  break-inside: avoid; }}
section p {{ margin: 0; }}
.grid {{ display: grid; grid-template-columns: 1fr 1fr; gap: 0 6mm; }}
table {{ border-collapse: collapse; margin: 1mm 0 0; }}
td, th {{ border-bottom: 1px solid #999; padding: 0.6mm 3mm; text-align: center; }}
ul {{ margin: 1mm 0 0; padding: 0; list-style: none; columns: 2; column-gap: 3mm; }}
li {{ font-size: 11pt; break-inside: avoid; }}
.tip {{ background: #fff3d6; border: 2px solid #E69F00; border-radius: 3mm; padding: 3mm 4mm;
  font-size: 13.5pt; margin-top: 2mm; }}
footer {{ margin-top: 4mm; font-size: 9pt; color: #555; }}
</style>
</head>
<body>
<h1>{say("title")}</h1>
<p class="lead">{say("lead")}</p>
<div class="grid">
<section><h2>{say("setup_title")}</h2>
<table><tr>{head}</tr>{rows}</table>
<p>{say("setup")}</p></section>
<section><h2>{say("rewards_title")}</h2><p>{reward_text}</p><ul>{rewards}</ul></section>
</div>
<div class="grid">{sections}</div>
<p class="tip">{say("tip")}</p>
<footer>{say("footer")}</footer>
</body>
</html>
"""
