/**
 * The TypeScript runner of `verify/chobo/runners/README.md` 「TigerBeetle」: plays every job of a
 * `jobs.json` at once through each book's generated `tigerbeetle-typescript` client on
 * tigerbeetle-node 0.17.9 (or, in tests only, on the test double's bridge), and prints what each
 * step answered, what each operation sent, and the accounts and holds at the end.
 *
 * ```sh
 * deno run -A verify/chobo/runners/typescript/tigerbeetle.ts jobs.json
 * ```
 * @module
 */

import {
  callClient,
  type CallStep,
  type ClientBook,
  clientStrings,
  HoldClock,
  loadClients,
  type Members,
  messageOf,
  playAll,
  type StepOutput,
} from "./common.ts";

type Pass = { readonly pass: true; readonly held_out: readonly Readonly<Record<string, string>>[] };
type Step = CallStep | Pass | { readonly together: readonly (readonly CallStep[])[] };

interface Job {
  readonly id: string;
  readonly book: string;
  readonly tenant: string;
  readonly steps: readonly Step[];
  readonly accounts: readonly string[];
  readonly holds: readonly Pick<CallStep, "call" | "strings">[];
}

interface Jobs {
  readonly addresses?: string;
  readonly double?: string;
  readonly connections: number;
  readonly expiry_ms: number;
  readonly margin_ms: number;
  readonly settle_ms: number;
  readonly clients: Readonly<Record<string, string>>;
  readonly jobs: readonly Job[];
  readonly members: Readonly<Record<string, Members>>;
}

/** An event as tigerbeetle-node takes it: fields of bigint or number. */
type Event = Readonly<Record<string, bigint | number>>;

/** What the generated clients take of tigerbeetle-node's `Client` (their `TigerBeetleClient`). */
interface Client {
  createAccounts(batch: Event[]): Promise<readonly { readonly status: number }[]>;
  createTransfers(batch: Event[]): Promise<readonly { readonly status: number }[]>;
  lookupAccounts(batch: bigint[]): Promise<readonly Event[]>;
  lookupTransfers(batch: bigint[]): Promise<readonly Event[]>;
}

interface ClientModule {
  tigerbeetle(client: Client, options: { tenant: string }): ClientBook;
}

type Request =
  | { readonly kind: "create_accounts" | "create_transfers"; readonly events: Record<string, string>[] }
  | { readonly kind: "lookup_accounts" | "lookup_transfers"; readonly ids: string[] };

const ACCOUNT_FIELDS = ["id", "user_data_128", "user_data_64", "user_data_32", "ledger", "code", "flags"];
const TRANSFER_FIELDS = [
  "id",
  "debit_account_id",
  "credit_account_id",
  "amount",
  "pending_id",
  "user_data_128",
  "user_data_64",
  "user_data_32",
  "timeout",
  "ledger",
  "code",
  "flags",
];

function fields(e: Event, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, String(e[n])]));
}

/** The same client, with every request written down in `to()` before it is sent. */
function recording(client: Client, to: () => Request[]): Client {
  return {
    createAccounts: (batch) => {
      to().push({ kind: "create_accounts", events: batch.map((e) => fields(e, ACCOUNT_FIELDS)) });
      return client.createAccounts(batch);
    },
    createTransfers: (batch) => {
      to().push({ kind: "create_transfers", events: batch.map((e) => fields(e, TRANSFER_FIELDS)) });
      return client.createTransfers(batch);
    },
    lookupAccounts: (ids) => {
      to().push({ kind: "lookup_accounts", ids: ids.map(String) });
      return client.lookupAccounts(ids);
    },
    lookupTransfers: (ids) => {
      to().push({ kind: "lookup_transfers", ids: ids.map(String) });
      return client.lookupTransfers(ids);
    },
  };
}

/** Fields that tigerbeetle-node holds as numbers; every other field is a bigint. */
const NUMBERS = new Set(["user_data_32", "reserved", "timeout", "ledger", "code", "flags"]);

/**
 * A client of the TEST DOUBLE's bridge (README, tests only; not TigerBeetle): the four methods,
 * each a POST of the events or ids with every field a decimal string.
 */
function doubleBridge(url: string): Client & { close(): void } {
  const post = async (op: string, body: unknown) => {
    const res = await fetch(`${url}/${op}`, { method: "POST", body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`the test double's bridge: ${await res.text()}`);
    return await res.json();
  };
  const text = (e: Event) => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, String(v)]));
  const event = (e: Record<string, string>): Event =>
    Object.fromEntries(Object.entries(e).map(([k, v]) => [k, NUMBERS.has(k) ? Number(v) : BigInt(v)]));
  const create = async (op: string, batch: Event[]) =>
    ((await post(op, { events: batch.map(text) })).results as string[]).map((s) => ({ status: Number(s) }));
  const lookup = async (op: string, ids: bigint[]) =>
    ((await post(op, { ids: ids.map(String) })).found as Record<string, string>[]).map(event);
  return {
    createAccounts: (batch) => create("create_accounts", batch),
    createTransfers: (batch) => create("create_transfers", batch),
    lookupAccounts: (ids) => lookup("lookup_accounts", ids),
    lookupTransfers: (ids) => lookup("lookup_transfers", ids),
    close: () => {},
  };
}

/** A tigerbeetle-node 0.17.9 client of cluster 0 at `addresses`. */
async function tigerbeetleClient(addresses: string): Promise<Client & { close(): void }> {
  // deno-lint-ignore no-import-prefix
  const { createClient } = await import("npm:tigerbeetle-node@0.17.9");
  const client = createClient({ cluster_id: 0n, replica_addresses: addresses.split(",") });
  return {
    createAccounts: (batch) => client.createAccounts(batch as never),
    createTransfers: (batch) => client.createTransfers(batch as never),
    lookupAccounts: (ids) => client.lookupAccounts(ids) as unknown as Promise<Event[]>,
    lookupTransfers: (ids) => client.lookupTransfers(ids) as unknown as Promise<Event[]>,
    close: () => client.destroy(),
  };
}

async function main(path: string): Promise<void> {
  const input: Jobs = JSON.parse(Deno.readTextFileSync(path));
  const modules = await loadClients<ClientModule>(input.clients);
  const clients: (Client & { close(): void })[] = [];
  for (let i = 0; i < input.connections; i++) {
    clients.push(
      input.double !== undefined ? doubleBridge(input.double) : await tigerbeetleClient(input.addresses!),
    );
  }

  /** Reads `debits_pending` until one of the maps holds, at most `settle_ms`; false when none did. */
  const settle = async (client: Client, maps: Pass["held_out"]): Promise<boolean> => {
    const ids = [...new Set(maps.flatMap((m) => Object.keys(m)))];
    const until = Date.now() + input.settle_ms;
    while (true) {
      const found = new Map(
        (await client.lookupAccounts(ids.map((id) => BigInt(`0x${id}`)))).map((a) => [
          (a.id as bigint).toString(16).padStart(32, "0"),
          String(a.debits_pending),
        ]),
      );
      if (maps.some((m) => Object.entries(m).every(([id, held]) => (found.get(id) ?? "0") === held))) {
        return true;
      }
      if (Date.now() > until) return false;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const play = async (job: Job, index: number) => {
    const client = clients[index % clients.length];
    const module = modules.get(job.book)!;
    const members = input.members[job.book];
    const sent: { requests: Request[] }[][] = [];
    // The requests of the operation being played.
    let current: Request[] = [];
    const book = module.tigerbeetle(recording(client, () => current), { tenant: job.tenant });
    const clock = new HoldClock(input.expiry_ms, input.margin_ms);
    const steps: StepOutput[] = [];
    for (const step of job.steps) {
      if ("pass" in step) {
        await clock.pass();
        sent.push([]);
        steps.push(await settle(client, step.held_out) ? null : "unsettled");
      } else if ("together" in step) {
        clock.check();
        const operations = step.together.map((calls) => calls.map(() => ({ requests: [] as Request[] })));
        steps.push(
          await Promise.all(step.together.map(async (calls, c) => {
            let mine: Request[] = [];
            const value = module.tigerbeetle(recording(clients[(index + c) % clients.length], () => mine), {
              tenant: job.tenant,
            });
            const out: string[] = [];
            for (const [k, call] of calls.entries()) {
              mine = operations[c][k].requests;
              const answer = await callClient(value, members, call);
              clock.answered(call, answer);
              out.push(answer);
            }
            return out;
          })),
        );
        sent.push(operations.flat());
      } else {
        clock.check();
        current = [];
        const answer = await callClient(book, members, step);
        clock.answered(step, answer);
        sent.push([{ requests: current }]);
        steps.push(answer);
      }
    }
    const accounts = (await client.lookupAccounts(job.accounts.map((id) => BigInt(`0x${id}`)))).map((a) => [
      (a.id as bigint).toString(16).padStart(32, "0"),
      String((a.credits_posted as bigint) - (a.debits_posted as bigint)),
      String(a.credits_pending),
      String(a.debits_pending),
    ]);
    const reader = module.tigerbeetle(client, { tenant: job.tenant });
    const holds: (string | null)[] = [];
    for (const h of job.holds) {
      const transfer = reader[members.transfers[h.call]] as {
        status(key: Record<string, string>): Promise<string | null>;
      };
      try {
        holds.push(await transfer.status(clientStrings(members, h)));
      } catch (e) {
        holds.push(`failed:${messageOf(e)}`);
      }
    }
    clock.check();
    return { id: job.id, steps, late: clock.late, sent, accounts, holds };
  };

  await playAll(input.jobs, play, () => clients.forEach((c) => c.close()));
}

if (import.meta.main) {
  if (Deno.args.length !== 1) {
    console.error("usage: deno run -A verify/chobo/runners/typescript/tigerbeetle.ts <jobs.json>");
    Deno.exit(2);
  }
  await main(Deno.args[0]);
}
