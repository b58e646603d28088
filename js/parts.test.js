import { describe, expect, it } from "vitest";
import { button, card, discards, esc, langMenu, pile, tokens } from "./parts.js";

describe("the pieces both boards share", () => {
  it("one escape for text and attributes", () => {
    expect(esc(`<a href="x">'&'</a>`)).toBe("&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;");
  });

  it("a card names who played it in their colour; an unknown card is face down", () => {
    const s = card(42, { by: 1, who: "Bot 1" });
    expect(s).toContain('<span class="mw-num">42</span>');
    expect(s).toContain("--mw-pc:#56B4E9");
    expect(s).toContain("Bot 1");
    expect(card(null)).toContain("mw-back");
  });

  it("a button says its action, its key, and whether it may be pressed", () => {
    const s = button("propose_star", "Throwing star", { enabled: false, testid: "btn-star", kbd: "T" });
    expect(s).toMatch(/data-action="propose_star" data-testid="btn-star" disabled/);
    expect(s).toContain('<kbd class="mw-kbd" aria-hidden="true">T</kbd>');
  });

  it("tokens keep the width of the most there can be", () => {
    const s = tokens("stars", 1, 3, "en");
    expect(s).toContain("--mw-slots:3");
    expect((s.match(/mw-token /g) || []).length).toBe(1);
    expect(s).toContain('aria-label="Throwing stars: 1"');
  });

  it("no stars left: one empty slot shows where a star would be", () => {
    const none = tokens("stars", 0, 3, "nl");
    expect(none).toContain('data-testid="empty-slot"');
    expect((none.match(/mw-token /g) || []).length).toBe(1);
    expect(none).toContain('data-count="0"');
    expect(none).toContain('aria-label="Werpsterren: 0"');
    expect(tokens("stars", 2, 3, "en")).not.toContain("empty-slot");
    expect(tokens("lives", 0, 3, "en", 1)).not.toContain("empty-slot"); // the broken heart shows
  });

  it("the empty pile keeps the place of a card", () => {
    expect(pile({ pile: [], pile_by: [] }, [], "de")).toContain("mw-big mw-outline");
  });

  it("cards put aside: by whom and how, the latest mistake's marked", () => {
    const list = [
      { player: 0, card: 5, k: "star" },
      { player: 2, card: 9, k: "lost" },
    ];
    const s = discards(list, ["You", "Bot 1", "Bot 2"], "en", { marked: new Set([1]) });
    expect(s).toContain('title="You, by a throwing star"');
    expect(s).toMatch(/data-card="9" data-player="2" data-kind="lost" data-marked="true"/);
    expect(s).not.toMatch(/data-card="5"[^>]*data-marked/);
  });

  it("the language menu names each language in itself", () => {
    const s = langMenu("nl", "lang");
    expect(s).toContain('<option value="nl" selected>Nederlands</option>');
    expect(s).toContain(">Deutsch<");
  });
});
