/**
 * The command table and the argument reader both tools share: commands and flags live in one
 * table that `--help` and parsing read alike (docs/design/chobo.md#commands,
 * docs/design/dandori.md#commands).
 *
 * Only words starting with `--` are flags; `--flag=value` and `--flag value` both work; a flag
 * value never starts with `--`. An unknown flag, a value outside a closed set, a missing value
 * and a repeated flag are usage errors (exit 2): silently ignoring them would let a caller
 * believe a request took effect.
 * @module
 */

import { withGuess } from "../lang/common/nearest.ts";
import { type Lang, LANGS, type Text, tr } from "../lang/common/text.ts";
import type { Io } from "./io.ts";

/** A flag of a command: boolean when `value` is null, else it takes one value. */
export interface FlagSpec {
  readonly name: string;
  /** The placeholder shown in usage (`<dir>`), or null for a flag without a value. */
  readonly value: string | null;
  /** The closed set of values, when there is one. */
  readonly choices?: readonly string[];
  /** A flag the command cannot run without (`run --scenario <file>`). */
  readonly required?: boolean;
  readonly help: Text;
}

/**
 * What a command's `run` reads of one flag, by its spec: a boolean for a flag without a value,
 * one of the choices for a closed set, a string otherwise; `undefined` when an optional one is
 * not given.
 */
export type FlagValue<F extends FlagSpec> = F["value"] extends null ? boolean
  :
    | (F["choices"] extends readonly (infer C)[] ? C : string)
    | (F["required"] extends true ? never : undefined);

/** The flags of a command as its `run` reads them: each by name, typed by its spec. */
export type FlagValues<Fs extends readonly FlagSpec[]> = {
  readonly [N in Fs[number]["name"]]: FlagValue<Extract<Fs[number], { readonly name: N }>>;
};

/** The positional arguments of a command. */
export interface ArgsSpec {
  readonly placeholder: string;
  readonly min: number;
  /** null for any number. */
  readonly max: number | null;
  readonly help: Text;
}

/** What a command's `run` is given: its arguments, its flags by name, the outside world, the language. */
export interface Invocation<Fs extends readonly FlagSpec[]> {
  readonly args: readonly string[];
  readonly flags: FlagValues<Fs>;
  readonly io: Io;
  readonly lang: Lang;
}

/** What a command returns: its exit code, or a usage error for the caller to print with its usage (exit 2). */
export type Outcome = number | { readonly usage: Text };

/**
 * What a command's `run` gives back: its outcome, or a promise of it for a command that waits on
 * the outside world (`chobo verify` plays on a database; `chobo check --watch` waits for changes).
 */
export type Ran = Outcome | Promise<Outcome>;

/** One command as its tool's table writes it, with the flags typed for its `run`. */
export interface CommandDef<Fs extends readonly FlagSpec[]> {
  readonly name: string;
  readonly summary: Text;
  readonly args: ArgsSpec;
  readonly flags: Fs;
  readonly exits: readonly { readonly code: number; readonly meaning: Text }[];
  readonly examples: readonly string[];
  readonly run: (c: Invocation<Fs>) => Ran;
}

/** One command of a tool: its table entry, and `run` over the flags the parser read. */
export interface CommandSpec {
  readonly name: string;
  readonly summary: Text;
  readonly args: ArgsSpec;
  readonly flags: readonly FlagSpec[];
  readonly exits: readonly { readonly code: number; readonly meaning: Text }[];
  readonly examples: readonly string[];
  readonly run: (
    args: readonly string[],
    flags: ReadonlyMap<string, string | true>,
    io: Io,
    lang: Lang,
  ) => Ran;
}

/**
 * A command of the table: `def.run` reads its flags by name and type (no casts where they are
 * used); the parser has already refused unknown flags, values outside a closed set and missing
 * required ones, so the values it gives are what the types say.
 *
 * @example
 * ```ts
 * const api = command({ name: "api", …, flags: [] as const, run: ({ args, io }) => … });
 * ```
 */
export function command<const Fs extends readonly FlagSpec[]>(def: CommandDef<Fs>): CommandSpec {
  return {
    ...def,
    run: (args, raw, io, lang) => def.run({ args, flags: flagValues(def.flags, raw), io, lang }),
  };
}

function flagValues<Fs extends readonly FlagSpec[]>(
  specs: Fs,
  raw: ReadonlyMap<string, string | true>,
): FlagValues<Fs> {
  const values: Record<string, string | boolean | undefined> = {};
  for (const f of specs) values[f.name] = raw.get(f.name) ?? (f.value === null ? false : undefined);
  // The parser checked every value against its spec, which is what `FlagValues` states.
  return values as FlagValues<Fs>;
}

/** A tool: its name, version, summary and commands. */
export interface ToolSpec {
  readonly name: string;
  readonly version: string;
  readonly summary: Text;
  readonly commands: readonly CommandSpec[];
}

/** The flags every command takes, after its own. */
export function commonFlags(tool: string): readonly FlagSpec[] {
  return [
    {
      name: "lang",
      value: "lang",
      choices: LANGS,
      help: tr(
        `the language of the text: --lang, else ${tool.toUpperCase()}_LANG, else RITSU_LANG, else English`,
        `文の言語。--lang、なければ ${tool.toUpperCase()}_LANG、次に RITSU_LANG、どれもなければ英語`,
      ),
    },
    { name: "help", value: null, help: tr("print this help", "この説明を出す") },
  ];
}

/** What the command line asked for. */
export type Parsed =
  | { readonly kind: "tool-help" }
  | { readonly kind: "version" }
  | { readonly kind: "help"; readonly command: CommandSpec }
  | {
    readonly kind: "run";
    readonly command: CommandSpec;
    readonly args: readonly string[];
    readonly flags: ReadonlyMap<string, string | true>;
  }
  | { readonly kind: "usage"; readonly command: CommandSpec | null; readonly message: Text };

/**
 * Reads a tool's command line (the words after the tool's name) against its table.
 *
 * @example
 * ```ts
 * parseCommandLine(CHOBO, ["check", "a.book", "--format=json"]);
 * // { kind: "run", command: <check>, args: ["a.book"], flags: Map { "format" => "json" } }
 * ```
 */
export function parseCommandLine(tool: ToolSpec, argv: readonly string[]): Parsed {
  const [first, ...rest] = argv;
  // `--lang` before the command: the caller has read it already.
  if (first?.startsWith("--lang")) return parseCommandLine(tool, withoutLang(argv));
  if (first === undefined || first === "--help") return { kind: "tool-help" };
  if (first === "--version") return { kind: "version" };
  if (first === "help") {
    const words = withoutLang(rest);
    if (words.length === 0) return { kind: "tool-help" };
    const command = tool.commands.find((c) => c.name === words[0]);
    if (command === undefined || words.length > 1) return unknownCommand(tool, words.join(" "));
    return { kind: "help", command };
  }
  const command = tool.commands.find((c) => c.name === first);
  if (command === undefined) return unknownCommand(tool, first);
  const specs = [...command.flags, ...commonFlags(tool.name)];
  const flags = new Map<string, string | true>();
  const args: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i];
    if (!word.startsWith("--")) {
      args.push(word);
      continue;
    }
    const eq = word.indexOf("=");
    const name = word.slice(2, eq < 0 ? undefined : eq);
    const spec = specs.find((f) => f.name === name);
    if (spec === undefined) {
      return usage(command, tr(`unknown flag --${name}`, `知らないフラグです: --${name}`));
    }
    if (flags.has(name)) return usage(command, tr(`--${name} is given twice`, `--${name} が二度あります`));
    if (spec.value === null) {
      if (eq >= 0) return usage(command, tr(`--${name} takes no value`, `--${name} は値を取りません`));
      flags.set(name, true);
      continue;
    }
    let value: string | undefined;
    if (eq >= 0) value = word.slice(eq + 1);
    else if (i + 1 < rest.length && !rest[i + 1].startsWith("--")) value = rest[++i];
    if (value === undefined || value === "") {
      return usage(
        command,
        tr(`--${name} needs a value (${valueText(spec)})`, `--${name} に値がありません(${valueText(spec)})`),
      );
    }
    if (spec.choices !== undefined && !spec.choices.includes(value)) {
      return usage(
        command,
        tr(
          `--${name} is one of ${spec.choices.join(", ")}, not ${value}`,
          `--${name} は ${spec.choices.join("、")} のどれかです(${value} ではありません)`,
        ),
      );
    }
    flags.set(name, value);
  }
  if (flags.has("help")) return { kind: "help", command };
  const missing = command.flags.find((f) => f.required === true && !flags.has(f.name));
  if (missing !== undefined) {
    return usage(
      command,
      tr(
        `--${missing.name} ${valueText(missing)} is required`,
        `--${missing.name} ${valueText(missing)} が要ります`,
      ),
    );
  }
  if (args.length < command.args.min) {
    return usage(
      command,
      tr(`${command.args.placeholder} is missing`, `${command.args.placeholder} がありません`),
    );
  }
  if (command.args.max !== null && args.length > command.args.max) {
    return usage(
      command,
      tr(
        `too many arguments: ${args.slice(command.args.max).join(" ")}`,
        `引数が多すぎます: ${args.slice(command.args.max).join(" ")}`,
      ),
    );
  }
  return { kind: "run", command, args, flags };
}

/** The words without `--lang <l>` / `--lang=<l>`, which the caller has read already. */
function withoutLang(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (words[i] === "--lang") i++;
    else if (!words[i].startsWith("--lang=")) out.push(words[i]);
  }
  return out;
}

function unknownCommand(tool: ToolSpec, name: string): Parsed {
  const names = tool.commands.map((c) => c.name).join(", ");
  return {
    kind: "usage",
    command: null,
    message: withGuess(
      tr(
        `unknown command ${name}; the commands are ${names}`,
        `知らないコマンドです: ${name}。コマンドは ${names} です`,
      ),
      name,
      tool.commands.map((c) => c.name),
    ),
  };
}

function usage(command: CommandSpec, message: Text): Parsed {
  return { kind: "usage", command, message };
}

function valueText(f: FlagSpec): string {
  return f.choices !== undefined ? f.choices.join("|") : `<${f.value}>`;
}

/** The one-line usage of a command, built from its table entry. */
export function usageLine(tool: ToolSpec, c: CommandSpec): string {
  const args = c.args.max === 0
    ? ""
    : ` ${c.args.min === 0 ? "[" : ""}${c.args.placeholder}${c.args.max === null ? "..." : ""}${
      c.args.min === 0 ? "]" : ""
    }`;
  const flags = [...c.flags, ...commonFlags(tool.name)].filter((f) => f.name !== "help")
    .map((f) => {
      const flag = `--${f.name}${f.value === null ? "" : ` ${valueText(f)}`}`;
      return f.required === true ? ` ${flag}` : ` [${flag}]`;
    }).join("");
  return `${tool.name} ${c.name}${args}${flags}`;
}

/** The text of a usage error: what was wrong, the usage, and where to read more. */
export function renderUsageError(
  tool: ToolSpec,
  p: { command: CommandSpec | null; message: Text },
  lang: Lang,
): string {
  const prefix = p.command === null ? tool.name : `${tool.name} ${p.command.name}`;
  const lines = [`${prefix}: ${p.message[lang]}`];
  if (p.command !== null) {
    lines.push(`${tr("usage", "使い方")[lang]}: ${usageLine(tool, p.command)}`);
    lines.push(
      tr(`more: ${tool.name} help ${p.command.name}`, `詳しくは: ${tool.name} help ${p.command.name}`)[lang],
    );
  } else {
    lines.push(tr(`more: ${tool.name} --help`, `詳しくは: ${tool.name} --help`)[lang]);
  }
  return lines.join("\n") + "\n";
}

function table(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([a]) => a.length));
  return rows.map(([a, b]) => `  ${a.padEnd(width)}  ${b}`);
}

/** The help of a whole tool: its commands. */
export function renderToolHelp(tool: ToolSpec, lang: Lang): string {
  const lines = [
    `${tool.name} ${tool.version}: ${tool.summary[lang]}`,
    "",
    `${tr("usage", "使い方")[lang]}: ${tool.name} <${tr("command", "コマンド")[lang]}> … [--lang en|ja]`,
    "",
    `${tr("commands", "コマンド")[lang]}:`,
    ...table(tool.commands.map((c) => [c.name, c.summary[lang]])),
    "",
    tr(
      `${tool.name} help <command> (or ${tool.name} <command> --help) prints a command's arguments, flags, exit codes and an example`,
      `${tool.name} help <コマンド>(または ${tool.name} <コマンド> --help)で、コマンドの引数、フラグ、終了コード、例を出します`,
    )[lang],
  ];
  return lines.join("\n") + "\n";
}

/** The help of one command, from its table entry. */
export function renderCommandHelp(tool: ToolSpec, c: CommandSpec, lang: Lang): string {
  const flags = [...c.flags, ...commonFlags(tool.name)];
  const lines = [
    `${tool.name} ${c.name}: ${c.summary[lang]}`,
    "",
    `${tr("usage", "使い方")[lang]}: ${usageLine(tool, c)}`,
  ];
  if (c.args.max !== 0) {
    lines.push("", `${tr("arguments", "引数")[lang]}:`, ...table([[c.args.placeholder, c.args.help[lang]]]));
  }
  lines.push(
    "",
    `${tr("flags", "フラグ")[lang]}:`,
    ...table(flags.map((f) => [`--${f.name}${f.value === null ? "" : ` ${valueText(f)}`}`, f.help[lang]])),
    "",
    `${tr("exit codes", "終了コード")[lang]}:`,
    ...table(c.exits.map((e) => [String(e.code), e.meaning[lang]])),
    "",
    `${tr("examples", "例")[lang]}:`,
    ...c.examples.map((e) => `  ${e}`),
  );
  return lines.join("\n") + "\n";
}
