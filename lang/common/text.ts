/**
 * Text in the two languages every user-visible message exists in.
 *
 * A `Text` carries both renderings; the language is chosen once, where the text is printed.
 * @module
 */

/** The languages of the text. */
export type Lang = "en" | "ja";

/** The languages `--lang` accepts, in the order `--help` lists them. */
export const LANGS: readonly Lang[] = ["en", "ja"];

/** One message in English and Japanese. */
export interface Text {
  readonly en: string;
  readonly ja: string;
}

/** Makes a `Text`: English first, Japanese second. */
export function tr(en: string, ja: string): Text {
  return { en, ja };
}

/** The same words in both languages (names, codes, numbers). */
export function same(s: string): Text {
  return { en: s, ja: s };
}

/**
 * Chooses the language: the `--lang` flag, else `<TOOL>_LANG`, else `RITSU_LANG`, else English.
 *
 * An environment value counts as Japanese when it starts with `ja` (`ja`, `ja_JP.UTF-8`); the
 * system locale is never read, so the same command prints the same text on every machine.
 *
 * @example
 * ```ts
 * chooseLang(undefined, "chobo", { CHOBO_LANG: "ja_JP.UTF-8" }); // "ja"
 * ```
 */
export function chooseLang(
  flag: string | undefined,
  tool: string,
  env: Readonly<Record<string, string | undefined>>,
): Lang {
  if (flag === "ja" || flag === "en") return flag;
  const read = langVariable(tool, env);
  return read !== null && read.value.toLowerCase().startsWith("ja") ? "ja" : "en";
}

/** The environment variable `chooseLang` reads: the first of `<TOOL>_LANG`, `RITSU_LANG` that is set. */
function langVariable(
  tool: string,
  env: Readonly<Record<string, string | undefined>>,
): { name: string; value: string } | null {
  for (const name of [`${tool.toUpperCase()}_LANG`, "RITSU_LANG"]) {
    const value = env[name];
    if (value !== undefined && value !== "") return { name, value };
  }
  return null;
}

/**
 * Why the language `chooseLang` read from the environment may not be what was meant: the variable
 * it read starts with neither `ja` nor `en` (`CHOBO_LANG=xx`), so English is used; null when
 * `--lang` decides or the value is one of the two. Said in both languages, since the reader's
 * language is what could not be read.
 *
 * @example
 * ```ts
 * langWarning(undefined, "chobo", { CHOBO_LANG: "xx" })?.en;
 * // "CHOBO_LANG=xx is neither ja… nor en…; English is used"
 * ```
 */
export function langWarning(
  flag: string | undefined,
  tool: string,
  env: Readonly<Record<string, string | undefined>>,
): Text | null {
  if (flag === "ja" || flag === "en") return null;
  const read = langVariable(tool, env);
  if (read === null || /^(ja|en)/i.test(read.value)) return null;
  const setting = `${read.name}=${read.value}`;
  return tr(
    `${setting} is neither ja… nor en…; English is used`,
    `${setting} は ja… でも en… でもないので、英語を使います`,
  );
}
