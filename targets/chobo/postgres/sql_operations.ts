/**
 * The functions of a transfer's operations (docs/design/chobo.md#postgresql): `do` and `hold`, `post` and `void`.
 * Each is one transaction of plain statements (cheaper here than one statement of CTEs, measured),
 * and takes the row of an inside account last, so a hot account's row stays locked only from its
 * UPDATE to the commit. An outside account (no bound) has no row: its balance is its `entries`
 * summed (docs/targets.md#outside-accounts).
 *
 * `do` and `hold`:
 *
 * | step | statement                                                                                     |
 * | ---- | --------------------------------------------------------------------------------------------- |
 * | (1)  | the key, `on conflict do nothing`: a second call with the key waits here for the first         |
 * | (2)  | the entries and the hold row, which follow from the arguments alone                            |
 * | (3)  | one inside account: one UPDATE locks its row, checks the book's bounds (CB001) and every move |
 * | (4)  | otherwise, or when (3) changed nothing: the general path                                       |
 *
 * The general path: the rows are made when missing before any is locked, locked in id order, and
 * the moves are checked one by one in written order against the locked numbers; a refusal deletes
 * what (2) wrote and marks the key refused.
 * @module
 */

import { definitionHash } from "../../../lang/chobo/ids.ts";
import type { Account, Book, Bound, Param, Transfer } from "../../../lang/chobo/model.ts";
import { type Check, checksSql, stringChecks } from "./sql_checks.ts";
import type { BuiltinReason } from "../../../lang/chobo/resolve.ts";
import { assert, findOne } from "../../../lang/common/assert.ts";
import { accountIdParts, holdIdParts, idDeclarations, idFixes, type IdVar } from "./sql_ids.ts";
import {
  addDeltas,
  type Amounts,
  callAmount,
  type Delta,
  entriesInsert,
  type InsideAccount,
  insideAccounts,
  plusSql,
  sameRef,
  type Side,
  sideDelta,
  sidesOf,
  type Sum,
  sumSql,
} from "./sql_moves.ts";
import { FUNCTION_SETTINGS, functionName, ident, lit, paramName } from "./sql_names.ts";

function bigintOrNull(v: bigint | undefined): string {
  return v === undefined ? "null" : `${v}`;
}

/** The parameters an operation's function takes after the tenant. */
function paramsOf(t: Transfer, op: string): readonly Param[] {
  return op === "do" || op === "hold"
    ? t.params
    : t.params.filter((p) => t.key.includes(p.name) || (op === "post" && p.type.kind === "amount"));
}

/** The names of the string parameters an operation's function takes. */
function stringParams(t: Transfer, op: string): string[] {
  return paramsOf(t, op).filter((p) => p.type.kind === "string").map((p) => p.name);
}

/** `p_tenant text, "p_注文" text, …`: the tenant, then the operation's parameters (docs/targets.md#postgres-the-sql). */
function signature(t: Transfer, op: string): string {
  const list = paramsOf(t, op).map((p) => {
    const type = p.type.kind === "string" ? "text" : "bigint";
    const optional = op === "post" && p.type.kind === "amount" ? " default null" : "";
    return `${ident(paramName(p.name))} ${type}${optional}`;
  });
  return ["p_tenant text", ...list].join(", ");
}

function keySql(t: Transfer): string {
  return `json_build_array(${t.key.map((k) => ident(paramName(k))).join(", ")})::text`;
}

/**
 * Validates amount arguments: an amount is 0 … 2⁶³ − 1 (docs/design/chobo.md#units-and-amounts); anything
 * else is a failure.
 */
function amountChecks(t: Transfer, optional: boolean): Check[] {
  return t.params.filter((p) => p.type.kind === "amount").map((p) => {
    const v = ident(paramName(p.name));
    return {
      bad: optional ? `${v} < 0` : `${v} is null or ${v} < 0`,
      raise: `raise exception 'chobo: % is an amount from 0 to 2^63 - 1', ${
        lit(p.name)
      } using errcode = '22023';`,
    };
  });
}

/** `return ('refused', '<reason>')::<schema>.result;`: an answer with one of chobo's own reasons. */
function refusedWith(s: string, reason: BuiltinReason): string {
  return `return ('refused', ${lit(reason)})::${s}.result;`;
}

const CB001 =
  `raise exception 'chobo: an account row''s bounds differ from the book' using errcode = 'CB001';`;

/** `r.lower_bound = 0 and r.upper_bound is null`: the row has the bounds the book gives its kind. */
function boundsEqual(a: Account): string {
  const eq = (column: string, b: Bound | null) =>
    b === null ? `r.${column} is null` : `r.${column} = ${b.value}`;
  return `${eq("lower_bound", a.lower)} and ${eq("upper_bound", a.upper)}`;
}

function differs(column: string, b: Bound | null): string {
  return b === null ? `r.${column} is not null` : `r.${column} is distinct from ${b.value}`;
}

/** True for a row of one of `accounts`' kinds whose bounds are not the book's. */
function boundsDiffer(accounts: readonly Account[]): string {
  return accounts.map((a) =>
    `(r.kind = ${lit(a.name)} and (${differs("lower_bound", a.lower)} or ${differs("upper_bound", a.upper)}))`
  ).join(" or ");
}

function negate(sum: Sum): Sum {
  return sum.map((t) => ({ sign: t.sign === 1 ? -1 : 1, sql: t.sql }));
}

/**
 * The conditions one inside account's row must meet for every move in written order: before each
 * move out of it `posted − held_out − a ≥ L`, before each move into it `posted + held_in + a ≤ U`,
 * counting the moves before (docs/design/chobo.md#bounds). None may fail with 22003 where the
 * interpreter refuses: a sum past the 64 bits is refused by its bound. The row keeps
 * `posted − held_out ≥ least(L, 0)` and `posted + held_in ≤ greatest(U, 0)` (the CHECK), so the first
 * move's check stays in `bigint`: as written when L ≥ −1 or U ≤ 0, else with the amount on the
 * bound's side (`posted + held_in ≤ U − a`), neither of which can leave the 64 bits. A later move's
 * check adds what the moves before did, in `numeric`.
 */
function moveConditions(op: "do" | "hold", account: InsideAccount, amounts: Amounts): string[] {
  const out: string[] = [];
  let before: Delta = { posted: [], heldIn: [], heldOut: [] };
  for (const side of account.sides) {
    const a = amounts.moved(side.i);
    const lower = side.role === "from" ? side.ref.account.lower : null;
    const upper = side.role === "to" ? side.ref.account.upper : null;
    const first = before.posted.length + before.heldIn.length + before.heldOut.length === 0;
    if (first && lower !== null) {
      out.push(
        lower.value >= -1n
          ? `r.posted - r.held_out - ${a} >= ${lower.value}`
          : `r.posted - r.held_out >= ${lower.value} + ${a}`,
      );
    }
    if (first && upper !== null) {
      out.push(
        upper.value <= 0n
          ? `r.posted + r.held_in + ${a} <= ${upper.value}`
          : `r.posted + r.held_in <= ${upper.value} - ${a}`,
      );
    }
    const posted: Sum = [{ sign: 1, sql: "r.posted::numeric" }, ...before.posted];
    if (!first && lower !== null) {
      const terms = [...posted, ...negate([{ sign: 1, sql: "r.held_out" }, ...before.heldOut]), {
        sign: -1 as const,
        sql: a,
      }];
      out.push(`${sumSql(terms)} >= ${lower.value}`);
    }
    if (!first && upper !== null) {
      const terms = [...posted, { sign: 1 as const, sql: "r.held_in" }, ...before.heldIn, {
        sign: 1 as const,
        sql: a,
      }];
      out.push(`${sumSql(terms)} <= ${upper.value}`);
    }
    before = addDeltas([before, sideDelta(op, side, amounts)]);
  }
  return out;
}

/**
 * `posted = r.posted + …, …` for the numbers a delta changes. A column that two sides change adds in
 * `numeric`: only what it comes to must fit its `bigint` (else 22003, the interpreter's failure), not
 * each sum on the way.
 */
function setChanged(delta: Delta): string {
  const sets = ([["posted", delta.posted], ["held_in", delta.heldIn], ["held_out", delta.heldOut]] as const)
    .filter(([, sum]) => sum.length > 0)
    .map(([column, sum]) =>
      `${column} = ${plusSql(sum.length > 1 ? `r.${column}::numeric` : `r.${column}`, sum)}`
    );
  assert(sets.length > 0, "an inside account a transfer names is moved from or to");
  return sets.join(", ");
}

/**
 * The id variables of a `do` or `hold`: one per distinct account (`v_from_1`, `v_to_1`, …), named
 * after the first side naming it; `id(side)` is the variable of a side's account.
 */
function sideIdVars(book: Book, t: Transfer): { vars: IdVar[]; id: (side: Side) => string } {
  const sides = sidesOf(t);
  const first = (side: Side) => findOne(sides, (x) => sameRef(x.ref, side.ref), "the side itself");
  const id = (side: Side) => `v_${first(side).role}_${first(side).i + 1}`;
  const vars = sides.filter((side) => first(side) === side).map((side) => ({
    name: id(side),
    role: "account",
    parts: accountIdParts(book, side.ref),
  }));
  return { vars, id };
}

/** The side `role` of move `i`. */
function sideOf(t: Transfer, role: Side["role"], i: number): Side {
  return findOne(sidesOf(t), (x) => x.role === role && x.i === i, `the ${role} side of move ${i + 1}`);
}

/** The row of a new inside account: its kind, arguments, unit and the bounds it is made with. */
function accountRow(account: InsideAccount, id: string): string {
  const a = account.ref.account;
  return `(${id}, ${lit(a.name)}, array[${
    account.ref.args.map((x) => ident(paramName(x))).join(", ")
  }]::text[], ${lit(a.unit.name)}, ${bigintOrNull(a.lower?.value)}::bigint, ${
    bigintOrNull(a.upper?.value)
  }::bigint)`;
}

/**
 * The general path of `do` and `hold`: rows made when missing, locked in id order, CB001, the moves
 * checked one by one against the locked numbers in arrays; a refusal undoes what (1) wrote.
 */
function generalPath(
  s: string,
  t: Transfer,
  op: "do" | "hold",
  inside: readonly InsideAccount[],
  id: (side: Side) => string,
  amounts: Amounts,
): string {
  const ids = inside.map((a) => id(a.sides[0]));
  const kinds = [...new Set(inside.map((a) => a.ref.account))];
  const lockIds = inside.length === 1
    ? `  v_ids := array[${ids[0]}];\n`
    : `  v_ids := array(select distinct x from unnest(array[${ids.join(", ")}]) as x order by x);\n`;
  const moves: string[] = [];
  for (const side of sidesOf(t)) {
    if (side.ref.account.outside) continue;
    const a = amounts.moved(side.i);
    const lower = side.role === "from" ? side.ref.account.lower : null;
    const upper = side.role === "to" ? side.ref.account.upper : null;
    let body = `    -- move ${side.move.index}, ${side.role} ${side.ref.account.name}\n` +
      `    v_at := array_position(v_ids, ${id(side)});\n`;
    if (lower !== null) {
      body += `    if v_posted[v_at] - v_held_out[v_at] - ${a} < ${lower.value} then
      v_refusal := ${lit(lower.reason)};
      exit moves;
    end if;
`;
    }
    if (upper !== null) {
      body += `    if v_posted[v_at] + v_held_in[v_at] + ${a} > ${upper.value} then
      v_refusal := ${lit(upper.reason)};
      exit moves;
    end if;
`;
    }
    const d = sideDelta(op, side, amounts);
    for (
      const [column, sum] of [["posted", d.posted], ["held_in", d.heldIn], ["held_out", d.heldOut]] as const
    ) {
      if (sum.length > 0) body += `    v_${column}[v_at] := ${plusSql(`v_${column}[v_at]`, sum)};\n`;
    }
    moves.push(body);
  }
  const refusal = refusable(t)
    ? `  if v_refusal is not null then
    -- refused by a bound: what (2) wrote goes, and the key stays used (already_refused from now on)
    delete from ${s}.entries e where e.ctid = any(v_entries);
${
      op === "hold"
        ? `    delete from ${s}.holds h where h.tenant = p_tenant and h.id = v_hold;\n`
        : ""
    }    update ${s}.keys k set result = 'refused', reason = v_refusal
     where k.tenant = p_tenant and k.kind = ${lit(t.name)} and k.op = ${lit(op)} and k.key_hash = v_key_hash;
    return ('refused', v_refusal)::${s}.result;
  end if;
`
    : "";
  return `  -- (4) the inside accounts under lock: rows made when missing (before any is locked), then locked
  -- in id order; the moves checked one by one in written order against the locked numbers
${lockIds}  if (select count(*) from ${s}.accounts r where r.tenant = p_tenant and r.id = any(v_ids)) < cardinality(v_ids) then
    -- an account with entries (not this call's) but no row was outside before: its bounds differ from the book's
    if exists (
      select 1 from ${s}.entries e
       where e.tenant = p_tenant and e.account = any(v_ids)
         and not (e.kind = ${lit(t.name)} and e.op = ${lit(op)} and e.key = v_key)
         and not exists (select 1 from ${s}.accounts r where r.tenant = e.tenant and r.id = e.account)
    ) then
      ${CB001}
    end if;
    insert into ${s}.accounts (tenant, id, kind, args, unit, lower_bound, upper_bound)
    select p_tenant, x.id, x.kind, x.args, x.unit, x.lower_bound, x.upper_bound
      from (values
        ${inside.map((a) => accountRow(a, id(a.sides[0]))).join(",\n        ")}
      ) as x (id, kind, args, unit, lower_bound, upper_bound)
     order by x.id
    on conflict do nothing;
  end if;
  select array_agg(r.posted::numeric order by r.id), array_agg(r.held_in::numeric order by r.id),
         array_agg(r.held_out::numeric order by r.id), bool_or(${boundsDiffer(kinds)})
    into v_posted, v_held_in, v_held_out, v_differs
    from (select * from ${s}.accounts r where r.tenant = p_tenant and r.id = any(v_ids) order by r.id for update) as r;
  if v_differs then
    ${CB001}
  end if;
${
    refusable(t)
      ? `  <<moves>>\n  begin\n${moves.join("")}  end;\n`
      : moves.join("").replaceAll(/^ {2}/gm, "")
  }${refusal}  update ${s}.accounts a set posted = x.posted, held_in = x.held_in, held_out = x.held_out
    from unnest(v_ids, v_posted, v_held_in, v_held_out) as x (id, posted, held_in, held_out)
   where a.tenant = p_tenant and a.id = x.id;
  return ('done', null)::${s}.result;
`;
}

/** True when a bound can refuse a move of the transfer (an inside side with a bound it checks). */
function refusable(t: Transfer): boolean {
  return sidesOf(t).some((side) =>
    side.role === "from" ? side.ref.account.lower !== null : side.ref.account.upper !== null
  );
}

/** `do` or `hold` of a transfer (docs/design/chobo.md#order-of-checks, docs/design/chobo.md#postgresql). */
export function doOrHold(s: string, book: Book, t: Transfer, op: "do" | "hold"): string {
  const hash = definitionHash(t);
  const held = op === "hold";
  const ids = sideIdVars(book, t);
  const idVars = held
    ? [...ids.vars, { name: "v_hold", role: "transfer", parts: holdIdParts(book, t) }]
    : ids.vars;
  const amounts: Amounts = { moved: (i) => callAmount(t.moves[i]), posted: (i) => callAmount(t.moves[i]) };
  const inside = insideAccounts(t);
  const sameKind = t.moves.map((m, i) => ({ m, i })).filter(({ m }) => m.from.account === m.to.account);
  const sameAccount = sameKind.length === 0
    ? ""
    : `  -- (0) a move from an account to itself is refused before the key is touched (docs/reference.md#meaning)
  if ${
      sameKind.map(({ i }) => `${ids.id(sideOf(t, "from", i))} = ${ids.id(sideOf(t, "to", i))}`).join(" or ")
    } then
    ${refusedWith(s, "same_account")}
  end if;
`;
  const content = `json_build_array(${t.params.map((p) => ident(paramName(p.name))).join(", ")})::text`;
  const rows = sidesOf(t).map((side) => ({ id: ids.id(side), delta: sideDelta(op, side, amounts) }));
  const expiry = t.pending?.expires === "after" ? `v_now + interval '${t.pending.seconds} seconds'` : "null";
  const holdRow = held
    ? `  insert into ${s}.holds (tenant, id, kind, key, from_ids, to_ids, amounts, state, created_at, expires_at)
  values (p_tenant, v_hold, ${lit(t.name)}, v_key, array[${
      t.moves.map((_, i) => ids.id(sideOf(t, "from", i))).join(", ")
    }],
          array[${t.moves.map((_, i) => ids.id(sideOf(t, "to", i))).join(", ")}], array[${
      t.moves.map(callAmount).join(", ")
    }], 'held', v_now, ${expiry});
`
    : "";
  // A refusal of the general path deletes the entries (2) wrote: it keeps where they are.
  const entries = !refusable(t)
    ? `  ${entriesInsert(s, t, op, rows)};
`
    : `  with e as (
    ${entriesInsert(s, t, op, rows)}
    returning ctid
  )
  select coalesce(array_agg(e.ctid), '{}') into v_entries from e;
`;
  let accounts: string;
  if (inside.length === 0) {
    accounts = `  return ('done', null)::${s}.result;\n`;
  } else if (inside.length === 1) {
    const [only] = inside;
    const where = [
      "r.tenant = p_tenant",
      `r.id = ${ids.id(only.sides[0])}`,
      boundsEqual(only.ref.account),
      ...moveConditions(op, only, amounts),
    ];
    accounts =
      `  -- (3) one inside account: one UPDATE locks its row, checks the book's bounds and every move, and writes
  update ${s}.accounts r set ${setChanged(addDeltas(only.sides.map((x) => sideDelta(op, x, amounts))))}
   where ${where.join("\n     and ")};
  if found then
    return ('done', null)::${s}.result;
  end if;
${generalPath(s, t, op, inside, ids.id, amounts)}`;
  } else {
    accounts = generalPath(s, t, op, inside, ids.id, amounts);
  }
  // numeric: the moves are checked and added exactly; only what the rows come to must fit (else 22003)
  const general = inside.length === 0 ? "" : `  v_ids uuid[];
  v_posted numeric[];
  v_held_in numeric[];
  v_held_out numeric[];
  v_differs boolean;
  v_at int;
${refusable(t) ? "  v_refusal text;\n" : ""}`;
  return `create or replace function ${s}.${ident(functionName(t, op))}(${signature(t, op)})
returns ${s}.result language plpgsql ${FUNCTION_SETTINGS} as $$
declare
  v_now timestamptz := clock_timestamp();
  v_key text := ${keySql(t)};
  v_key_hash bytea := sha256(convert_to(v_key, 'UTF8'));
  v_content text := ${content};
  v_prev ${s}.keys;
${idDeclarations(idVars)}${refusable(t) ? "  v_entries tid[];\n" : ""}${general}begin
${checksSql([...stringChecks(stringParams(t, op)), ...amountChecks(t, false)])}${
    idFixes(idVars.map((v) => v.name))
  }${sameAccount}  -- (1) the key: a second call with the key waits here for the first to commit
  insert into ${s}.keys (tenant, kind, op, key, key_hash, content, definition, result, reason, at)
  values (p_tenant, ${lit(t.name)}, ${lit(op)}, v_key, v_key_hash, v_content, ${
    lit(hash)
  }, 'done', null, v_now)
  on conflict do nothing;
  if not found then
    select * into v_prev from ${s}.keys k
     where k.tenant = p_tenant and k.kind = ${lit(t.name)} and k.op = ${lit(op)} and k.key_hash = v_key_hash;
    if v_prev.result = 'refused' then
      ${refusedWith(s, "already_refused")}
    elsif v_prev.content = v_content and v_prev.definition = ${lit(hash)} then
      return ('done_before', null)::${s}.result;
    end if;
    ${refusedWith(s, "key_conflict")}
  end if;
  -- (2) the entries${
    held ? " and the hold row" : ""
  }: they follow from the arguments alone, so they are written
  -- before the inside account's row is locked, which then stays locked only from its UPDATE to the commit
${entries}${holdRow}${accounts}end $$;
`;
}

/**
 * `post` and `void` of a pending transfer (docs/design/chobo.md#holds): the hold row first, then its
 * inside accounts.
 */
export function postOrVoid(s: string, book: Book, t: Transfer, op: "post" | "void"): string {
  const hash = definitionHash(t);
  const post = op === "post";
  const amountParams = t.params.filter((p) => p.type.kind === "amount");
  const given = amountParams.map((p) => `${ident(paramName(p.name))} is not null`);
  const perMove = t.moves.map((m, i) =>
    m.amount.kind === "literal"
      ? `v_hold.amounts[${i + 1}]`
      : `case when v_partial then ${ident(paramName(m.amount.param))} else v_hold.amounts[${i + 1}] end`
  );
  const partial = !post || amountParams.length === 0 ? "false" : `(${given.join(" or ")})`;
  const allGiven = amountParams.length === 0 ? "true" : `(${given.join(" and ")})`;
  const content = post ? "v_amounts::text" : "'[]'";
  const partialMoves = t.moves.map((m, i) => ({ m, i })).filter(({ m }) => m.amount.kind === "param");
  const overHold = post && partialMoves.length > 0
    ? `  if ${partialMoves.map(({ i }) => `v_amounts[${i + 1}] > v_hold.amounts[${i + 1}]`).join(" or ")} then
    ${refusedWith(s, "over_hold")}
  end if;
`
    : "";
  const stateChecks = post
    ? `  if v_hold.state = 'posted' then
    select * into v_prev from ${s}.keys k
     where k.tenant = p_tenant and k.kind = ${lit(t.name)} and k.op = 'post' and k.key_hash = v_key_hash;
    if v_prev.content = v_content and v_prev.definition = ${lit(hash)} then
      return ('done_before', null)::${s}.result;
    end if;
    ${refusedWith(s, "key_conflict")}
  elsif v_hold.state = 'voided' then
    ${refusedWith(s, "already_voided")}
  end if;
  if v_expired then
    ${refusedWith(s, "expired")}
  end if;
${overHold}`
    : `  if v_hold.state = 'posted' then
    ${refusedWith(s, "already_posted")}
  elsif v_hold.state = 'voided' then
    select * into v_prev from ${s}.keys k
     where k.tenant = p_tenant and k.kind = ${lit(t.name)} and k.op = 'void' and k.key_hash = v_key_hash;
    if v_prev.definition = ${lit(hash)} then
      return ('done_before', null)::${s}.result;
    end if;
    ${refusedWith(s, "key_conflict")}
  end if;
  if v_expired then
    ${refusedWith(s, "expired")}
  end if;
`;
  const amounts: Amounts = { moved: (i) => `v_hold.amounts[${i + 1}]`, posted: (i) => `v_amounts[${i + 1}]` };
  const id = (side: Side) => `v_hold.${side.role}_ids[${side.i + 1}]`;
  const rows = sidesOf(t).map((side) => ({ id: id(side), delta: sideDelta(op, side, amounts) }));
  const inside = insideAccounts(t);
  let accounts = "";
  if (inside.length === 1) {
    const [only] = inside;
    accounts = `  -- its row is locked from here to the commit
  update ${s}.accounts r set ${setChanged(addDeltas(only.sides.map((x) => sideDelta(op, x, amounts))))}
   where r.tenant = p_tenant and r.id = ${id(only.sides[0])};
`;
  } else if (inside.length > 1) {
    const insideSides = inside.flatMap((a) => a.sides);
    const values = insideSides.map((side) => {
      const d = sideDelta(op, side, amounts);
      return `(${id(side)}, ${sumSql(d.posted)}, ${sumSql(d.heldIn)}, ${sumSql(d.heldOut)})`;
    }).join(",\n                 ");
    accounts = `  -- locked in id order, then changed
  perform 1 from ${s}.accounts r
   where r.tenant = p_tenant and r.id = any(array[${insideSides.map(id).join(", ")}])
   order by r.id for update;
  update ${s}.accounts r set posted = r.posted + d.posted, held_in = r.held_in + d.held_in,
         held_out = r.held_out + d.held_out
    from (select x.id, sum(x.posted) as posted, sum(x.held_in) as held_in, sum(x.held_out) as held_out
            from (values ${values}) as x (id, posted, held_in, held_out)
           group by x.id) as d
   where r.tenant = p_tenant and r.id = d.id;
`;
  }
  return `create or replace function ${s}.${ident(functionName(t, op))}(${signature(t, op)})
returns ${s}.result language plpgsql ${FUNCTION_SETTINGS} as $$
declare
  v_now timestamptz := clock_timestamp();
  v_key text := ${keySql(t)};
  v_key_hash bytea := sha256(convert_to(v_key, 'UTF8'));
${idDeclarations([{ name: "v_hold_id", role: "transfer", parts: holdIdParts(book, t) }])}  v_hold ${s}.holds;
  v_prev ${s}.keys;
  v_partial boolean := ${partial};
  v_amounts bigint[];
  v_content text;
  v_expired boolean;
begin
${checksSql([...stringChecks(stringParams(t, op)), ...(post ? amountChecks(t, true) : [])])}${
    post && amountParams.length > 0
      ? `  if v_partial and not ${allGiven} then
    raise exception 'chobo: a partial post passes every amount' using errcode = '22023';
  end if;
`
      : ""
  }${
    idFixes(["v_hold_id"])
  }  select * into v_hold from ${s}.holds h where h.tenant = p_tenant and h.id = v_hold_id for update;
  if not found then
    ${refusedWith(s, "no_such_hold")}
  end if;
  -- a hold past its expiry is expired for every answer, before expire() gives its amounts back
  v_expired := v_hold.state = 'expired' or (v_hold.state = 'held' and v_hold.expires_at <= v_now);
  v_amounts := array[${post ? perMove.join(", ") : ""}]::bigint[];
  v_content := ${content};
${stateChecks}  -- the key, the entries and the hold's new state, then the inside accounts last
  insert into ${s}.keys (tenant, kind, op, key, key_hash, content, definition, result, reason, at)
  values (p_tenant, ${lit(t.name)}, ${lit(op)}, v_key, v_key_hash, v_content, ${
    lit(hash)
  }, 'done', null, v_now);
  ${entriesInsert(s, t, op, rows)};
  update ${s}.holds h set state = ${lit(post ? "posted" : "voided")}${post ? ", posted = v_amounts" : ""}
   where h.tenant = p_tenant and h.id = v_hold.id;
${accounts}  return ('done', null)::${s}.result;
end $$;
`;
}
