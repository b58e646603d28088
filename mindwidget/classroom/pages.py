"""The class server's HTML: the join page, the connection check, the teacher's view.

Every page is plain HTML with its words filled in on the server, in the
page's language (`words.say`), and one external module script
(``/static/class.js``) with no inline script, so the content security policy
(`HEADERS`) can forbid inline script. Nothing a pupil's page holds comes
from the teacher's side: the teacher's token appears only in the teacher's page
(`teacher.teacher_page`, which loads it from its own address).
"""

from __future__ import annotations

import html
from typing import Any

from ..i18n import seat_number
from .words import LANGS, NAME_MAX, say

__all__ = ["HEADERS", "check_page", "join_page", "teacher_html"]

#: Headers of every page and bundle: no inline script, no framing, nothing cached.
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; "
        "style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
LANG_NAMES = {"en": "English", "nl": "Nederlands", "de": "Deutsch"}


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _head(lang: str, title: str) -> str:
    return (
        "<!doctype html>\n"
        f'<html lang="{_e(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)}</title>\n"
        '<link rel="stylesheet" href="/static/class.css">\n'
        '<script type="module" src="/static/class.js"></script>\n</head>\n'
    )


def _lang_menu(lang: str) -> str:
    options = "".join(
        f'<option value="{code}"{" selected" if code == lang else ""}>{LANG_NAMES[code]}</option>'
        for code in LANGS
    )
    return (
        f'<label for="lang">{_e(say("language", lang))}</label>'
        f'<select id="lang" name="lang" data-testid="lang">{options}</select>'
    )


def join_page(lang: str, class_lang: str, code: str = "") -> str:
    """The page a pupil opens: the join form, then (drawn by class.js) their table."""

    def s(key: str) -> str:
        return _e(say(key, lang))

    return (
        _head(lang, say("page_title", lang))
        + f'<body class="mwc" data-page="join" data-lang="{_e(lang)}" '
        f'data-class-lang="{_e(class_lang)}">\n'
        '<main id="join" class="mwc-join">\n'
        f"<h1>{s('join_title')}</h1>\n"
        '<form id="join-form" class="mwc-form" data-testid="join-form" novalidate>\n'
        f'<label for="code">{s("code")}</label>\n'
        f'<input id="code" name="code" inputmode="numeric" autocomplete="off" maxlength="8" '
        f'value="{_e(code)}" aria-describedby="code-hint" required data-testid="code">\n'
        f'<p id="code-hint" class="mwc-hint">{s("code_hint")}</p>\n'
        f'<label for="name">{s("name")}</label>\n'
        f'<input id="name" name="name" maxlength="{NAME_MAX}" autocomplete="nickname" '
        'aria-describedby="name-hint" required data-testid="name">\n'
        f'<p id="name-hint" class="mwc-hint">{s("name_hint")}</p>\n'
        f'<button type="button" id="make-name" class="mwc-secondary" data-testid="make-name">'
        f"{s('make_name')}</button>\n"
        f'<div class="mwc-lang">{_lang_menu(lang)}</div>\n'
        '<p id="error" class="mwc-error" role="alert" data-testid="error"></p>\n'
        f'<button type="submit" id="join-btn" class="mwc-primary" data-testid="join">'
        f"{s('join')}</button>\n"
        "</form>\n"
        f'<p class="mwc-foot"><a href="/check?lang={_e(lang)}" data-testid="check-link">'
        f"{s('check_link')}</a></p>\n"
        "</main>\n"
        '<div id="play" class="mwc-play" hidden></div>\n'
        "</body>\n</html>\n"
    )


def check_page(lang: str) -> str:
    """The connection check: is the class server reachable, and how long a round trip takes."""

    def s(key: str) -> str:
        return _e(say(key, lang))

    return (
        _head(lang, say("check_title", lang))
        + f'<body class="mwc" data-page="check" data-lang="{_e(lang)}">\n'
        '<main class="mwc-join">\n'
        f"<h1>{s('check_title')}</h1>\n"
        f'<p id="check" class="mwc-check" role="status" data-testid="check" '
        f'data-state="running">{s("check_running")}</p>\n'
        f'<p class="mwc-foot"><a href="/?lang={_e(lang)}">{s("back_link")}</a></p>\n'
        "</main>\n</body>\n</html>\n"
    )


def teacher_html(snap: dict[str, Any], lang: str) -> str:
    """The address, the code, the QR code and the tables with who sits where.

    Inline styles only (it is shown in a notebook's output as well as on the
    teacher's page): projector-size address and code.
    """

    def s(key: str, **kw: Any) -> str:
        return _e(say(key, lang, **kw))

    url = str(snap["url"])
    short = url.split("/?")[0]
    parts = [
        '<div class="mindwidget-classroom" data-testid="classroom" '
        'style="font-family: system-ui, sans-serif; color: #1b1b1b; background: #fff; '
        'padding: 12px; max-width: 1200px">',
        '<div style="display: flex; gap: 32px; align-items: center; flex-wrap: wrap">',
        f'<div style="width: 260px; height: 260px">{snap.get("qr_svg", "")}</div>',
        "<div>",
        f'<div style="font-size: 28px">{s("teacher_go_to")}</div>',
        f'<div data-testid="classroom-url" style="font-size: 44px; font-weight: 700; '
        f'word-break: break-all">{_e(short)}</div>',
        f'<div style="font-size: 28px; margin-top: 12px">{s("teacher_code")}</div>',
        f'<div data-testid="classroom-code" style="font-size: 96px; font-weight: 800; '
        f'letter-spacing: 0.1em; line-height: 1">{_e(snap["code"])}</div>',
        "</div></div>",
        '<div style="display: flex; gap: 16px; flex-wrap: wrap; margin-top: 16px">',
    ]
    if not snap["tables"] and not snap["waiting_room"]:
        parts.append(f'<p style="font-size: 20px">{s("teacher_nobody")}</p>')
    for t in snap["tables"]:
        status = s(f"teacher_status_{t['status']}")
        level = s("teacher_level", n=t["level"], of=t["levels"]) if t["level"] else ""
        rows = []
        for seat in t["seats"]:
            who = {
                "person": _e(seat.get("name", "")),
                "bot": s("teacher_bot"),
                "empty": f"<i>{s('teacher_empty')}</i>",
            }[seat["kind"]]
            if seat["kind"] == "person" and not seat.get("connected", True):
                who += f" <i>({s('teacher_gone')})</i>"
            rtt = seat.get("rtt_ms")
            ms = f" <small>{rtt:.0f} ms</small>" if isinstance(rtt, (int, float)) else ""
            rows.append(f"<li>{s('teacher_player', n=seat_number(seat['seat']))}: {who}{ms}</li>")
        parts.append(
            f'<div data-testid="classroom-table-{t["id"]}" style="border: 1px solid #888; '
            'border-radius: 8px; padding: 8px 14px; min-width: 200px; font-size: 18px">'
            f"<b>{s('teacher_table', n=t['id'])}</b> · {status} {level}"
            f'<ul style="margin: 6px 0; padding-left: 18px">{"".join(rows)}</ul></div>'
        )
    if snap["waiting_room"]:
        names = ", ".join(_e(p["name"]) for p in snap["waiting_room"])
        parts.append(
            '<div data-testid="classroom-waiting" style="font-size: 18px">'
            f"<b>{s('teacher_waiting_room')}</b>: {names}</div>"
        )
    parts.append("</div></div>")
    return "".join(parts)
