/**
 * `chobo verify <book>… [--target postgres|pglite|tigerbeetle]`: every generated and hand-written
 * (`<book>.more.json`) scenario of the books played for real and compared with the reference
 * interpreter, step by step and in the final balances and holds (docs/targets.md#chobo-verify).
 *
 * The books are read and checked first, and each must pass the target's own check (E060, E061),
 * before anything starts. Then the store starts (`verify/chobo/stores.ts`): `postgres` is a
 * disposable server, or PGlite when this machine has no server binaries; `pglite` is PGlite;
 * `tigerbeetle` a disposable replica of the binary `CHOBO_TIGERBEETLE` names. Progress goes to
 * stderr; every disagreement (the scenario, the step, both answers) and the summary to stdout.
 * @module
 */

import type { Book } from "../lang/chobo/model.ts";
import { readScenarios, type Scenario, ScenarioError } from "../lang/chobo/scenario.ts";
import { renderDiagnostic, summaryLine } from "../lang/common/diagnostic.ts";
import { type Lang, type Text, tr } from "../lang/common/text.ts";
import { VERSION } from "../lang/common/version.ts";
import { buildTarget } from "../targets/chobo/target.ts";
import { type ChoboTargetName, targetNamed } from "../targets/chobo/targets.ts";
import { VerifyError } from "../verify/differential.ts";
import {
  type ChoboReport,
  type Subject,
  subjectOf,
  TEST_EXPIRY_SECONDS,
} from "../verify/chobo/differential.ts";
import type { Store, Stores } from "../verify/chobo/stores.ts";
import { readBook } from "./books.ts";
import { type Io, readInput } from "./io.ts";

/** Where `chobo verify` plays, as `--target` names it. */
export const VERIFY_TARGETS = ["postgres", "pglite", "tigerbeetle"] as const;
export type VerifyTarget = typeof VERIFY_TARGETS[number];

/** The build target whose check must pass before a store plays a book. */
const BUILT_AS: Record<VerifyTarget, ChoboTargetName> = {
  postgres: "postgres",
  pglite: "postgres",
  tigerbeetle: "tigerbeetle-typescript",
};

function say(io: Io, lang: Lang, t: Text): void {
  io.stderr(`chobo verify: ${t[lang]}\n`);
}

/** The hand-written scenarios beside a book (`<book>.more.json`): none when there is no such file. */
function moreScenarios(path: string, book: Book, io: Io, lang: Lang): Scenario[] | null {
  const more = path.replace(/\.book$/, ".more.json");
  if (more === path) return [];
  const input = readInput(io, more);
  if ("error" in input) {
    if (input.missing) return [];
    say(io, lang, input.error);
    return null;
  }
  try {
    return readScenarios(book, input.bytes);
  } catch (e) {
    if (!(e instanceof ScenarioError)) throw e;
    io.stderr(`chobo verify: ${more}: ${e.text[lang]}\n`);
    return null;
  }
}

/** Every book read, checked and with its scenarios, or null when one cannot be (said on stderr). */
function readSubjects(paths: readonly string[], target: VerifyTarget, io: Io, lang: Lang): Subject[] | null {
  const list: Subject[] = [];
  let ok = true;
  for (const path of new Set(paths)) {
    const read = readBook(path, "verify", io, lang);
    if (read === null) {
      ok = false;
      continue;
    }
    const more = moreScenarios(path, read.book, io, lang);
    if (more === null) {
      ok = false;
      continue;
    }
    const text = new TextDecoder().decode(read.bytes);
    const stop = buildTarget(targetNamed(BUILT_AS[target]), read.book, {
      file: path.split("/").pop() ?? path,
      text,
      sha: "verify",
      version: VERSION,
    });
    if ("diagnostics" in stop) {
      io.stderr(stop.diagnostics.map((d) => renderDiagnostic(d, lang)).join(""));
      io.stderr(`${summaryLine(path, stop.diagnostics.map((d) => d.severity), lang)}\n`);
      ok = false;
      continue;
    }
    const same = list.find((s) => s.book.name === read.book.name);
    if (same !== undefined) {
      say(
        io,
        lang,
        tr(
          `${path} and ${same.path} are both book ${read.book.name}; one run holds one book of a name, so verify them one at a time`,
          `${path} と ${same.path} はどちらも帳簿 ${read.book.name} です。一度に流せるのは同じ名前の帳簿一つなので、一つずつ確かめてください`,
        ),
      );
      ok = false;
      continue;
    }
    try {
      list.push(subjectOf(path, read.book, text, more));
    } catch (e) {
      if (!(e instanceof VerifyError)) throw e;
      say(io, lang, e.text);
      ok = false;
    }
  }
  return ok ? list : null;
}

/** The store `target` names, started; null (and why, on stderr) when it cannot be. */
async function startStore(target: VerifyTarget, stores: Stores, io: Io, lang: Lang): Promise<Store | null> {
  switch (target) {
    case "postgres": {
      say(
        io,
        lang,
        tr("starting a disposable PostgreSQL server", "使い捨ての PostgreSQL サーバーを起動します"),
      );
      const server = await stores.postgres();
      if (server !== null) return server;
      say(
        io,
        lang,
        tr(
          "no PostgreSQL server binaries (initdb, pg_ctl) on this machine: playing on PGlite, the same SQL in this process",
          "この機械には PostgreSQL サーバーのプログラム(initdb、pg_ctl)がありません。同じ SQL をこのプロセスの中の PGlite で流します",
        ),
      );
      return await stores.pglite();
    }
    case "pglite":
      say(io, lang, tr("starting PGlite in this process", "このプロセスの中で PGlite を起動します"));
      return await stores.pglite();
    case "tigerbeetle": {
      const bin = io.env.CHOBO_TIGERBEETLE ?? "";
      if (bin === "") {
        say(
          io,
          lang,
          tr(
            "CHOBO_TIGERBEETLE is not set: --target tigerbeetle plays on a disposable replica of the tigerbeetle binary (0.17.9) it names; nothing was verified",
            "CHOBO_TIGERBEETLE がありません。--target tigerbeetle は、この変数が指す tigerbeetle(0.17.9)の使い捨てレプリカで流します。何も確かめていません",
          ),
        );
        return null;
      }
      say(io, lang, tr(`starting a disposable replica of ${bin}`, `${bin} の使い捨てレプリカを起動します`));
      return await stores.tigerbeetle(bin);
    }
  }
}

function bookLine(s: Subject, report: ChoboReport): Text {
  const ids = s.scenarios.map((_, i) => `${s.book.name}#${i + 1}`);
  const agreed = ids.filter((id) => report.agreedJobs.has(id)).length;
  return tr(
    `${s.path}: ${agreed}/${ids.length} scenarios agree`,
    `${s.path}: ${ids.length} 個のシナリオのうち ${agreed} 個が一致`,
  );
}

/** Loads and plays the books on a started store; the failures, each a disagreement or a check that failed. */
async function playOn(store: Store, list: readonly Subject[], io: Io, lang: Lang): Promise<Text[]> {
  say(io, lang, tr(`loading the books into ${store.name}`, `帳簿を ${store.name} に読み込みます`));
  await store.load(list);
  const scenarios = list.reduce((n, s) => n + s.scenarios.length, 0);
  say(
    io,
    lang,
    tr(
      `playing ${scenarios} scenarios at once, a tenant each, holds expiring after ${TEST_EXPIRY_SECONDS} s`,
      `${scenarios} 個のシナリオを一度に流します(テナントはシナリオごと、仮押さえの期限は ${TEST_EXPIRY_SECONDS} 秒)`,
    ),
  );
  const report = await store.play(list, `verify-${Date.now()}`);
  for (const s of list) say(io, lang, bookLine(s, report));
  for (const again of report.ranAgain) {
    say(io, lang, tr(`ran again (late the first time): ${again}`, `遅れたのでもう一度流した: ${again}`));
  }
  return [...report.failures, ...await store.after(list)];
}

/**
 * `chobo verify`: the books of `paths` played on `target` and compared with the interpreter; 0
 * when every scenario agrees, 1 when one does not, a book cannot be read or has errors, or the
 * store cannot start. `stores` starts the stores (tests give a wrapped one).
 */
export async function verifyBooks(
  paths: readonly string[],
  target: VerifyTarget,
  io: Io,
  lang: Lang,
  stores: Stores,
): Promise<number> {
  const list = readSubjects(paths, target, io, lang);
  if (list === null) return 1;
  const scenarios = list.reduce((n, s) => n + s.scenarios.length, 0);
  let store: Store | null = null;
  let failures: Text[];
  try {
    store = await startStore(target, stores, io, lang);
    if (store === null) return 1;
    failures = await playOn(store, list, io, lang);
  } catch (e) {
    if (!(e instanceof VerifyError)) throw e;
    io.stdout(`chobo verify: ${e.text[lang]}\n`);
    return 1;
  } finally {
    await store?.stop();
  }
  const books = tr(`${list.length} ${list.length === 1 ? "book" : "books"}`, `帳簿 ${list.length} 冊`);
  if (failures.length === 0) {
    io.stdout(
      `chobo verify: ${
        tr(
          `every scenario agrees with the interpreter on ${store.name}: ${scenarios} scenarios of ${books.en}`,
          `${store.name} で、どのシナリオも参照インタプリタと一致しました(${books.ja}、シナリオ ${scenarios} 個)`,
        )[lang]
      }\n`,
    );
    return 0;
  }
  for (const f of failures) io.stdout(`${f[lang]}\n`);
  io.stdout(
    `chobo verify: ${
      tr(
        `${failures.length} ${
          failures.length === 1 ? "failure" : "failures"
        } on ${store.name} (${scenarios} scenarios of ${books.en})`,
        `${store.name} で食い違いが ${failures.length} 件ありました(${books.ja}、シナリオ ${scenarios} 個)`,
      )[lang]
    }\n`,
  );
  return 1;
}
