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
  for (const name of [`${tool.toUpperCase()}_LANG`, "RITSU_LANG"]) {
    const value = env[name];
    if (value !== undefined && value !== "") return value.toLowerCase().startsWith("ja") ? "ja" : "en";
  }
  return "en";
}
