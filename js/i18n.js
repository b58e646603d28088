// @ts-check
// Every user-visible string, from the same JSON files Python reads
// (mindwidget/locales/*.json); esbuild inlines them into the bundle.
import de from "../mindwidget/locales/de.json";
import en from "../mindwidget/locales/en.json";
import nl from "../mindwidget/locales/nl.json";

export const LOCALES = Object.freeze({ en, nl, de });
export const LANGS = Object.freeze(Object.keys(LOCALES));

const RULES = new Map();

/** The plural category of `n` in `lang` ("one", "other", ...), from Intl.PluralRules. */
export function plural(lang, n) {
  const code = LOCALES[lang] ? lang : "en";
  if (!RULES.has(code)) RULES.set(code, new Intl.PluralRules(code));
  return RULES.get(code).select(n);
}

const NUMBERS = new Map();

/** `x` with `digits` decimals as `lang` writes it (0.5 in English, 0,5 in Dutch and German),
 * from Intl.NumberFormat; Python's plots use i18n.decimal, the same per language. */
export function decimal(lang, x, digits = 1) {
  const code = LOCALES[lang] ? lang : "en";
  const key = `${code}:${digits}`;
  if (!NUMBERS.has(key))
    NUMBERS.set(
      key,
      new Intl.NumberFormat(code, {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
        useGrouping: false,
      }),
    );
  return NUMBERS.get(key).format(x);
}

/** The key to look up: `key`, or for a counted string its `key_one` / `key_other` form by `n`. */
function formOf(lang, key, params) {
  if (Object.hasOwn(en, key) || typeof params.n !== "number") return key;
  const form = `${key}_${plural(lang, params.n)}`;
  return Object.hasOwn(en, form) ? form : `${key}_other`;
}

/** The number a pupil reads for the seat with code index `index` (0 -> 1); seats count from 1
 * in every word a pupil reads, from 0 in code (Python: i18n.seat_number). */
export function seatNumber(/** @type {unknown} */ index) {
  return Number.isInteger(index) ? Number(index) + 1 : index;
}

/** The string `key` in `lang` with its {placeholders} filled in (English, then the key, as fallback).
 * A counted string has `key_one` and `key_other` forms; `params.n` chooses (Python: i18n.translate).
 * `{player}` receives a seat index and shows it counted from 1 (`seatNumber`). */
export function tr(lang, key, params = {}) {
  const table = LOCALES[lang] || en;
  const k = formOf(lang, key, params);
  const text = table[k] ?? en[k] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => {
    if (!Object.hasOwn(params, name)) return m;
    return String(name === "player" ? seatNumber(params[name]) : params[name]);
  });
}
