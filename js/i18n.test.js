import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LANGS, LOCALES, decimal, plural, tr } from "./i18n.js";

const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("locales", () => {
  it("has en, nl and de with the same keys and placeholders", () => {
    expect(LANGS).toEqual(["en", "nl", "de"]);
    for (const lang of LANGS) {
      expect(Object.keys(LOCALES[lang]).sort()).toEqual(Object.keys(LOCALES.en).sort());
      for (const [key, text] of Object.entries(LOCALES.en)) {
        expect(placeholders(LOCALES[lang][key]), `${lang}.${key}`).toEqual(placeholders(text));
      }
    }
  });

  it("has every key the front end uses", () => {
    const dir = new URL(".", import.meta.url);
    const used = new Set();
    for (const f of readdirSync(dir)) {
      if (!f.endsWith(".js") || f.endsWith(".test.js")) continue;
      const src = readFileSync(new URL(f, dir), "utf8");
      for (const m of src.matchAll(/tr\([^,]+,\s*"(\w+)"/g)) used.add(m[1]);
      for (const m of src.matchAll(/"((?:btn|vote|reward|say|won|phase)_\w+)"/g)) used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(40);
    for (const key of used) {
      const counted = Object.hasOwn(LOCALES.en, `${key}_other`);
      if (!counted) expect(LOCALES.en, key).toHaveProperty(key);
    }
  });

  it("chooses singular or plural with Intl.PluralRules, as Python's i18n.plural does", () => {
    expect(tr("en", "cards_left", { n: 1 })).toBe("1 card");
    expect(tr("en", "cards_left", { n: 3 })).toBe("3 cards");
    expect(tr("nl", "mistake_life", { n: 1 })).toBe("Eén leven kwijt; nog 1 leven over.");
    expect(tr("de", "check_lost", { n: 2 })).toBe("2 Leben verloren.");
    // Python mirrors Intl for en, nl, de: "one" for exactly 1, "other" for every other count
    for (const lang of LANGS) {
      for (const n of [0, 1, 2, 5, 21, 100]) expect(plural(lang, n)).toBe(n === 1 ? "one" : "other");
    }
    // every counted string has both forms in every language
    for (const lang of LANGS) {
      for (const key of Object.keys(LOCALES[lang])) {
        const m = key.match(/^(\w+)_(one|other)$/);
        if (m) expect(LOCALES[lang], key).toHaveProperty(`${m[1]}_${m[2] === "one" ? "other" : "one"}`);
      }
    }
  });

  it("fills placeholders and falls back to English, then the key", () => {
    expect(tr("nl", "level", { n: 3, of: 10 })).toBe("Level 3 van 10");
    expect(tr("xx", "btn_play")).toBe("Play");
    expect(tr("de", "no_such_key")).toBe("no_such_key");
    expect(tr("en", "level", { n: 1 })).toBe("Level 1 of {of}");
  });
});

describe("decimal", () => {
  it("writes a decimal comma in Dutch and German, a point in English (Intl.NumberFormat)", () => {
    expect(decimal("nl", 0.5)).toBe("0,5");
    expect(decimal("de", 24.44)).toBe("24,4");
    expect(decimal("en", 1234.5, 2)).toBe("1234.50");
    expect(decimal("xx", 2)).toBe("2.0");
  });
});
