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

/** The key to look up in `base` (the English strings): `key`, or for a counted string its
 * `key_one` / `key_other` form by `params.n`. */
function formOf(base, lang, key, params) {
  if (Object.hasOwn(base, key) || typeof params.n !== "number") return key;
  const form = `${key}_${plural(lang, params.n)}`;
  return Object.hasOwn(base, form) ? form : `${key}_other`;
}

/** The number a pupil reads for the seat with code index `index` (0 -> 1); seats count from 1
 * in every word a pupil reads, from 0 in code (Python: i18n.seat_number). */
export function seatNumber(/** @type {unknown} */ index) {
  return Number.isInteger(index) ? Number(index) + 1 : index;
}

/**
 * The one lookup of strings: `say(lang, key, params)` over one set of locale files
 * (`tables`: {en, nl, de}, English the fallback). A counted string has `key_one` and
 * `key_other` forms; `params.n` chooses. Its {placeholders} are filled in from `params`;
 * `{player}` receives a seat index and shows it counted from 1 (`seatNumber`). A key none
 * of the files holds goes to `next` (another lookup), else shows as itself.
 * @param {Record<string, Record<string, string>>} tables
 * @param {(lang: string, key: string, params?: any) => string} [next]
 * @returns {(lang: string, key: string, params?: any) => string}
 */
export function strings(tables, next) {
  const base = tables.en;
  return (lang, key, params = {}) => {
    const k = formOf(base, lang, key, params);
    const text = (tables[lang] || base)[k] ?? base[k];
    if (text === undefined) return next ? next(lang, key, params) : key;
    return text.replace(/\{(\w+)\}/g, (m, name) => {
      if (!Object.hasOwn(params, name)) return m;
      return String(name === "player" ? seatNumber(params[name]) : params[name]);
    });
  };
}

/** A string of the widget (mindwidget/locales) in `lang` (Python: i18n.translate). */
export const tr = /* @__PURE__ */ strings(LOCALES);
