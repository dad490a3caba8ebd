/**
 * The one entry point: `ritsu <chobo|dandori> <command> …`. Started through a link named `chobo`
 * (or `dandori`), it is that tool. Exit codes: 0 fine (or warnings only), 1 errors, 2 usage or internal error.
 * @module
 */

import process from "node:process";
import {
  type Outcome,
  parseCommandLine,
  renderCommandHelp,
  renderToolHelp,
  renderUsageError,
  type ToolSpec,
} from "./commands/table.ts";
import { denoIo, type Io, shownIo } from "./commands/io.ts";
import { chooseLang, type Lang, langWarning, tr } from "./lang/common/text.ts";
import { VERSION } from "./lang/common/version.ts";
import { CHOBO } from "./commands/chobo.ts";
import { DANDORI } from "./commands/dandori.ts";
import { RITSU } from "./commands/playground.ts";

const TOOLS: readonly ToolSpec[] = [CHOBO, DANDORI];

/** The `--lang` a command line gives, read before it is fully parsed (for usage errors too). */
function langFlag(argv: readonly string[]): string | undefined {
  let flag: string | undefined;
  argv.forEach((w, i) => {
    if (w === "--lang") flag = argv[i + 1];
    else if (w.startsWith("--lang=")) flag = w.slice("--lang=".length);
  });
  return flag;
}

function ritsuHelp(lang: Lang): string {
  const lines = [
    `ritsu ${VERSION}: ${
      tr("a toolchain for small business languages", "業務のための小さな言語の処理系")[lang]
    }`,
    "",
    `${tr("usage", "使い方")[lang]}: ritsu <tool> <command> … [--lang en|ja]`,
    "",
    `${tr("tools", "ツール")[lang]}:`,
    ...TOOLS.map((t) => `  ${t.name.padEnd(8)}${t.summary[lang]}`),
    "",
    `${tr("commands", "コマンド")[lang]}:`,
    ...RITSU.commands.map((c) => `  ${c.name.padEnd(12)}${c.summary[lang]}`),
  ];
  return lines.join("\n") + "\n";
}

/**
 * Runs one command line (the words after `ritsu`) and returns the exit code, or a promise of it
 * for a command that waits (`chobo verify`, `chobo check --watch`). Never throws nor rejects: an
 * unexpected exception is reported in one line as an internal error, exit 2. Everything it prints
 * goes through `shownIo`: no key and no terminal control reaches the output.
 */
export function main(argv: readonly string[], world: Io): number | Promise<number> {
  const io = shownIo(world);
  const [toolName, ...words] = argv;
  // `ritsu playground …` is ritsu's own command: read against ritsu's table, from its name on.
  const own = RITSU.commands.some((c) => c.name === toolName || (toolName === "help" && c.name === words[0]));
  const tool = own ? RITSU : TOOLS.find((t) => t.name === toolName);
  const rest = own ? argv : words;
  const flag = langFlag(argv);
  const lang = chooseLang(flag, tool?.name ?? "ritsu", io.env);
  const warning = langWarning(flag, tool?.name ?? "ritsu", io.env);
  if (warning !== null) {
    io.stderr(
      `${tool?.name ?? "ritsu"}: warning: ${warning.en}\n${tool?.name ?? "ritsu"}: 警告: ${warning.ja}\n`,
    );
  }
  if (tool === undefined) {
    if (toolName === undefined || toolName === "--help" || toolName === "help") {
      io.stdout(ritsuHelp(lang));
      return 0;
    }
    if (toolName === "--version") {
      io.stdout(`ritsu ${VERSION}\n`);
      return 0;
    }
    io.stderr(
      `ritsu: ${tr(`unknown tool ${toolName}`, `知らないツールです: ${toolName}`)[lang]}\n${ritsuHelp(lang)}`,
    );
    return 2;
  }
  try {
    const parsed = parseCommandLine(tool, rest);
    switch (parsed.kind) {
      case "tool-help":
        io.stdout(renderToolHelp(tool, lang));
        return 0;
      case "version":
        io.stdout(`${tool.name} ${tool.version}\n`);
        return 0;
      case "help":
        io.stdout(renderCommandHelp(tool, parsed.command, lang));
        return 0;
      case "usage":
        io.stderr(renderUsageError(tool, parsed, lang));
        return 2;
      case "run": {
        const finish = (result: Outcome): number => {
          if (typeof result === "number") return result;
          io.stderr(renderUsageError(tool, { command: parsed.command, message: result.usage }, lang));
          return 2;
        };
        const result = parsed.command.run(parsed.args, parsed.flags, io, lang);
        return result instanceof Promise
          ? result.then(finish, (e) => internalError(tool, e, io, lang))
          : finish(result);
      }
    }
  } catch (e) {
    return internalError(tool, e, io, lang);
  }
}

/** Says in one line that a command failed in a way it should not have; exit 2. */
function internalError(tool: ToolSpec, e: unknown, io: Io, lang: Lang): number {
  const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  io.stderr(`${tool.name}: ${tr("internal error", "内部の異常")[lang]}: ${what}\n`);
  return 2;
}

/** `chobo` when started through a link of that name, else the words as given. */
function commandLine(): string[] {
  const self = process.argv0.split("/").pop() ?? "";
  const tool = TOOLS.find((t) => t.name === self);
  return tool === undefined ? Deno.args : [tool.name, ...Deno.args];
}

if (import.meta.main) Deno.exit(await main(commandLine(), denoIo()));
