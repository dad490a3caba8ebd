/**
 * A disposable TigerBeetle replica for one verify run (docs/design/chobo.md#differential-verification):
 * `format --development` of a data file in a temp dir (about 1.1 GB), then `start` of one replica of cluster
 * 0 on a free loopback port, with the temp dir as `TMPDIR` (TigerBeetle keeps its copies there). Stopped and
 * removed even on failure. A run that was killed leaves a record with its pid; the next run stops
 * the replica it names and removes what it left.
 *
 * The binary is the one `CHOBO_TIGERBEETLE` names; none is installed here or committed.
 * @module
 */

import { deadRecords, killRecorded, removeGone, startedAt } from "./procs.ts";

const RECORDS = "/tmp/chobo-tb-runs";

/** The version the clients are generated for (docs/design/chobo.md#tigerbeetle). */
export const TIGERBEETLE_VERSION = "0.17.9";

/** A running replica: its address, and how to stop it. */
export interface Replica {
  readonly address: string;
  stop(): Promise<void>;
}

/** Stops the replicas of runs whose process is gone, and removes their directories. */
function cleanLeftovers(): void {
  for (const record of deadRecords(RECORDS)) {
    const { dir, pid, started } = JSON.parse(record.text) as { dir: string; pid?: number; started?: string };
    if (pid !== undefined) killRecorded(pid, started);
    removeGone(dir);
    record.remove();
  }
}

async function output(bin: string, args: string[], env: Record<string, string>): Promise<string> {
  const out = await new Deno.Command(bin, { args, env, stdout: "piped", stderr: "piped" }).output();
  const text = (new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr)).trim();
  if (!out.success) throw new Error(`${bin} ${args.join(" ")} failed (exit ${out.code}): ${text}`);
  return text;
}

/** What `<bin> version` prints; throws when the binary does not run or is not 0.17.9. */
export async function checkVersion(bin: string): Promise<string> {
  const text = await output(bin, ["version"], {});
  if (!text.includes(TIGERBEETLE_VERSION)) {
    throw new Error(`${bin} is not TigerBeetle ${TIGERBEETLE_VERSION} (it says "${text.split("\n")[0]}")`);
  }
  return text.split("\n")[0];
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Waits until the port takes a connection; throws when `exited` settles first or after a minute. */
async function listening(port: number, exited: Promise<Deno.CommandStatus>, log: string): Promise<void> {
  let ended: Deno.CommandStatus | null = null;
  exited.then((s) => ended = s);
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (ended !== null) {
      throw new Error(`the replica exited (code ${(ended as Deno.CommandStatus).code}): ${readLog(log)}`);
    }
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`the replica did not listen on 127.0.0.1:${port} within a minute: ${readLog(log)}`);
}

function readLog(log: string): string {
  try {
    return Deno.readTextFileSync(log).trim().split("\n").slice(-5).join(" | ");
  } catch {
    return "(no log)";
  }
}

/** Formats a data file and starts one replica; throws (leaving nothing) when it cannot. */
export async function startReplica(bin: string): Promise<Replica> {
  cleanLeftovers();
  const dir = Deno.makeTempDirSync({ prefix: "chobo-tb-replica-" });
  Deno.mkdirSync(RECORDS, { recursive: true });
  // Test files run in parallel in one process: the record names the process, then the replica.
  const record = `${RECORDS}/${Deno.pid}-${dir.split("/").pop()}`;
  Deno.writeTextFileSync(record, JSON.stringify({ dir }));
  const env = { TMPDIR: dir };
  const file = `${dir}/0_0.tigerbeetle`;
  const log = `${dir}/replica.log`;
  let child: Deno.ChildProcess | null = null;
  const stop = async () => {
    try {
      if (child !== null) {
        try {
          child.kill("SIGTERM");
        } catch {
          // Exited already.
        }
        const timer = setTimeout(() => {
          try {
            child?.kill("SIGKILL");
          } catch {
            // Exited meanwhile.
          }
        }, 10_000);
        await child.status;
        clearTimeout(timer);
      }
    } finally {
      Deno.removeSync(dir, { recursive: true });
      Deno.removeSync(record);
    }
  };
  try {
    await output(
      bin,
      ["format", "--cluster=0", "--replica=0", "--replica-count=1", "--development", file],
      env,
    );
    const port = freePort();
    const logFile = Deno.openSync(log, { write: true, create: true });
    child = new Deno.Command(bin, {
      args: ["start", `--addresses=127.0.0.1:${port}`, "--development", file],
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    Deno.writeTextFileSync(
      record,
      JSON.stringify({ dir, pid: child.pid, started: startedAt(child.pid) ?? undefined }),
    );
    const writer = logFile.writable.getWriter();
    const copy = async (stream: ReadableStream<Uint8Array>) => {
      for await (const chunk of stream) await writer.write(chunk);
    };
    Promise.all([copy(child.stdout), copy(child.stderr)]).finally(() => writer.close().catch(() => {}));
    await listening(port, child.status, log);
    return { address: `127.0.0.1:${port}`, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
