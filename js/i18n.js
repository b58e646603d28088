// @ts-check
// Every user-visible string, from the same JSON files Python reads
// (mindwidget/locales/*.json); esbuild inlines them into the bundle.
import de from "../mindwidget/locales/de.json";
import en from "../mindwidget/locales/en.json";
import nl from "../mindwidget/locales/nl.json";

export const LOCALES = Object.freeze({ en, nl, de });
export const LANGS = Object.freeze(Object.keys(LOCALES));

/** The string `key` in `lang` with its {placeholders} filled in (English, then the key, as fallback). */
export function tr(lang, key, params = {}) {
  const table = LOCALES[lang] || en;
  const text = table[key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (Object.hasOwn(params, name) ? String(params[name]) : m));
}
