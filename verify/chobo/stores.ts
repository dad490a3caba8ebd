/**
 * The stores `chobo verify` plays a user's books on, each started for one run and removed after:
 * a disposable PostgreSQL cluster (`verify/services/pg_cluster.ts`), embedded PGlite, or a
 * disposable replica of the TigerBeetle binary a user names (`verify/services/tb_replica.ts`).
 * On PostgreSQL and PGlite the generated SQL is called directly, as `deno task verify postgres`'s
 * first combination does; on TigerBeetle through the generated TypeScript client, its runner.
 *
 * `pg` and PGlite are imported only when a store of theirs starts, so a command that plays on no
 * database never loads them.
 * @module
 */

import { fileURLToPath } from "node:url";
import { type Text, tr } from "../../lang/common/text.ts";
import { postgresSql } from "../../targets/chobo/postgres/sql.ts";
import { VerifyError } from "../differential.ts";
import { findPgBin, startCluster } from "../services/pg_cluster.ts";
import type { Db } from "../services/pg_db.ts";
import { checkVersion, startReplica, TIGERBEETLE_VERSION } from "../services/tb_replica.ts";
import { TB_TYPESCRIPT_RUNNER } from "./client_runners.ts";
import type { ChoboReport, Subject } from "./differential.ts";
import { entriesAddUp, verifyScenarios } from "./postgres.ts";
import { verifyOnTigerBeetle, type Where } from "./tigerbeetle.ts";

/** A store started for one run. */
export interface Store {
  /** What it is, with its version: `PostgreSQL 15.14`, `PGlite 0.5.16 (PostgreSQL 18.6)`. */
  readonly name: string;
  /** Makes what the books need there (their SQL); throws `VerifyError` when it cannot. */
  load(list: readonly Subject[]): Promise<void>;
  /** Plays every scenario of every book at once, a tenant each, compared with the interpreter. */
  play(list: readonly Subject[], run: string): Promise<ChoboReport>;
  /** What must hold after the play besides (on PostgreSQL: every balance is the sum of its entries). */
  after(list: readonly Subject[]): Promise<Text[]>;
  /** Stops the store and removes what it made. */
  stop(): Promise<void>;
}

/** How `chobo verify` starts each store; tests give their own. */
export interface Stores {
  /** A disposable PostgreSQL server, or null when this machine has no server binaries. */
  postgres(): Promise<Store | null>;
  pglite(): Promise<Store>;
  /** A disposable replica of the TigerBeetle binary `bin`; throws `VerifyError` when it cannot start. */
  tigerbeetle(bin: string): Promise<Store>;
}

/** The stores as this machine starts them. */
export const STORES: Stores = {
  postgres: async () => {
    const bin = findPgBin();
    if (bin === null) return null;
    // The drivers first: a server started for nothing would be left running.
    const { serverDb } = await dbDrivers();
    const cluster = await failsAs(
      startCluster(bin),
      tr(
        "the disposable PostgreSQL server did not start",
        "使い捨ての PostgreSQL サーバーが起動しませんでした",
      ),
    );
    const db = serverDb(cluster.socketDir);
    return sqlStore(db, await serverName(db, "server"), async () => {
      await db.end();
      await cluster.stop();
    });
  },
  pglite: async () => {
    const { pgliteDb } = await dbDrivers();
    const db = await pgliteDb();
    return sqlStore(db, await serverName(db, "pglite"), () => db.end());
  },
  tigerbeetle: async (bin) => {
    await failsAs(checkVersion(bin), tr("CHOBO_TIGERBEETLE", "CHOBO_TIGERBEETLE"));
    const replica = await failsAs(
      startReplica(bin),
      tr(
        "the disposable TigerBeetle replica did not start",
        "使い捨ての TigerBeetle レプリカが起動しませんでした",
      ),
    );
    return tigerBeetleStore(
      { addresses: replica.address },
      `TigerBeetle ${TIGERBEETLE_VERSION}`,
      replica.stop,
    );
  },
};

/** The checkout this module is in: where `deno install` makes `node_modules`. */
const CHECKOUT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * `verify/services/pg_db.ts` and the drivers it imports (`pg`, PGlite), imported now; in a checkout
 * where `deno install` has not run they are not there, and the error says to run it.
 */
async function dbDrivers(): Promise<typeof import("../services/pg_db.ts")> {
  try {
    return await import("../services/pg_db.ts");
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).split(/\.\s|\n/)[0];
    throw new VerifyError(
      tr(
        `the PostgreSQL drivers (npm:pg, npm:@electric-sql/pglite) cannot be loaded (${why}): run \`deno install\` in ${CHECKOUT}, which puts the packages deno.json names into node_modules, then run chobo verify again`,
        `PostgreSQL のドライバー(npm:pg、npm:@electric-sql/pglite)を読み込めません(${why})。${CHECKOUT} で \`deno install\` を走らせて、deno.json にあるパッケージを node_modules に入れてから、もう一度 chobo verify を走らせてください`,
      ),
    );
  }
}

/** `p`, its failure said as `what` with the reason after it. */
async function failsAs<T>(p: Promise<T>, what: Text): Promise<T> {
  try {
    return await p;
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new VerifyError(tr(`${what.en}: ${why}`, `${what.ja}: ${why}`));
  }
}

/** `PostgreSQL 15.14`, or `PGlite 0.5.16 (PostgreSQL 18.6)`, from the database's `version()`. */
async function serverName(db: Db, kind: "server" | "pglite"): Promise<string> {
  const [row] = await db.query({ text: "select version() as v", values: [] });
  const version = String(row.v);
  const postgres = version.split(" ").slice(0, 2).join(" ");
  if (kind === "server") return postgres;
  const lite = /PGlite [0-9.]+/.exec(version)?.[0] ?? "PGlite";
  return `${lite} (${postgres})`;
}

/** Loads each book's SQL (its test copy); a part the database lacks is named in the error. */
async function loadSql(db: Db, name: string, list: readonly Subject[]): Promise<void> {
  for (const s of list) {
    const sql = postgresSql(s.copy, s.path, "verify", "verify");
    try {
      await db.exec(sql);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw new VerifyError(
        tr(
          `${s.path}: the SQL does not load on ${name}: ${why}${lacking(why, name).en}`,
          `${s.path}: SQL を ${name} に読み込めません: ${why}${lacking(why, name).ja}`,
        ),
      );
    }
  }
}

/** What a load error says the database lacks (an extension, a function), in words; empty when neither. */
function lacking(why: string, name: string): Text {
  const extension = /extension "([^"]+)"/.exec(why)?.[1];
  if (extension !== undefined) {
    return tr(
      ` (${name} lacks the extension ${extension}, which the SQL needs)`,
      `(SQL が要る拡張 ${extension} が ${name} にありません)`,
    );
  }
  const fn = /function ([^ ]+) does not exist/.exec(why)?.[1];
  if (fn !== undefined) {
    return tr(
      ` (${name} lacks the function ${fn}, which the SQL needs)`,
      `(SQL が要る関数 ${fn} が ${name} にありません)`,
    );
  }
  return tr("", "");
}

/**
 * A store on a PostgreSQL database `db` named `name` (a server, PGlite, or a test's wrapper of
 * one); `stop` ends it.
 */
export function sqlStore(db: Db, name: string, stop: () => Promise<void>): Store {
  return {
    name,
    load: (list) => loadSql(db, name, list),
    play: (list, run) => verifyScenarios(db, list, run, name),
    after: async (list) =>
      (await entriesAddUp(db, list)).map((w) =>
        tr(`entries do not add up to the balance: ${w}`, `仕訳の合計が残高と合いません: ${w}`)
      ),
    stop,
  };
}

/** A store on TigerBeetle at `where` (a replica, or a test's double), played through the TypeScript client. */
export function tigerBeetleStore(where: Where, name: string, stop: () => Promise<void>): Store {
  return {
    name,
    load: () => Promise.resolve(),
    play: (list, run) => verifyOnTigerBeetle(where, list, TB_TYPESCRIPT_RUNNER, run),
    after: () => Promise.resolve([]),
    stop,
  };
}
