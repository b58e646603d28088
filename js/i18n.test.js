import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LANGS, LOCALES, tr } from "./i18n.js";

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
    for (const key of used) expect(LOCALES.en, key).toHaveProperty(key);
  });

  it("fills placeholders and falls back to English, then the key", () => {
    expect(tr("nl", "level", { n: 3, of: 10 })).toBe("Level 3 van 10");
    expect(tr("xx", "btn_play")).toBe("Play");
    expect(tr("de", "no_such_key")).toBe("no_such_key");
    expect(tr("en", "level", { n: 1 })).toBe("Level 1 of {of}");
  });
});
