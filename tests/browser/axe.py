"""axe-core (npm devDependency) in a Playwright page: an audit of WCAG 2.2 A and AA.

`audit` injects ``node_modules/axe-core/axe.min.js`` (the page's context needs
``bypass_csp=True``: the class server's pages forbid scripts from elsewhere)
and runs it on the page or one part of it; `assert_accessible` fails with
each violation's rule, impact, help and the elements it found.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
#: WCAG 2.0, 2.1 and 2.2, levels A and AA (axe's tags).
TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa")


def audit(page: Page, include: str | None = None) -> list[dict[str, Any]]:
    """axe's violations on ``page`` (only inside the CSS selector ``include`` if given)."""
    if not AXE.exists():
        raise RuntimeError(f"{AXE} is missing: run `npm ci` (axe-core is a devDependency).")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    # colours at rest (a spinner's endless animation cannot finish: left as it is)
    page.evaluate("() => document.getAnimations().forEach(a => { try { a.finish(); } catch {} })")
    result = page.evaluate(
        """async ([include, tags]) => {
          const context = include ? { include: [include] } : document;
          const r = await axe.run(context, { runOnly: { type: "tag", values: tags } });
          return r.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map((n) => n.target.join(" ") + ": " + n.failureSummary),
          }));
        }""",
        [include, list(TAGS)],
    )
    return list(result)


def assert_accessible(page: Page, what: str, include: str | None = None) -> None:
    violations = audit(page, include)
    assert violations == [], f"{what}: " + json.dumps(violations, indent=1, ensure_ascii=False)
