/**
 * The reading functions (docs/targets.md#postgres-the-sql): a hold's state, an account's balance. PL/pgSQL, so a
 * session plans their query once: a SQL function with a FROM is planned again on every call.
 * @module
 */

import type { Account, Book, Transfer } from "../../../lang/chobo/model.ts";
import { checksSql, stringChecks } from "./sql_checks.ts";
import { accountIdParts, holdIdParts, idDeclarations, idFixes } from "./sql_ids.ts";
import { balanceName, FUNCTION_SETTINGS, functionName, ident, paramName } from "./sql_names.ts";

/** `"<transfer>_status"`: `held`, `posted`, `voided`, `expired` (past its expiry), or null. */
export function statusFunction(s: string, book: Book, t: Transfer): string {
  const params = ["p_tenant text", ...t.key.map((k) => `${ident(paramName(k))} text`)].join(", ");
  return `create or replace function ${s}.${ident(functionName(t, "status"))}(${params})
returns text language plpgsql stable ${FUNCTION_SETTINGS} as $$
declare
${idDeclarations([{ name: "v_hold_id", role: "transfer", parts: holdIdParts(book, t) }])}  v_state text;
begin
${checksSql(stringChecks(t.key))}${
    idFixes(["v_hold_id"])
  }  select case when h.state = 'held' and h.expires_at <= clock_timestamp() then 'expired' else h.state end
    into v_state
    from ${s}.holds h
   where h.tenant = p_tenant and h.id = v_hold_id;
  return v_state;
end $$;
`;
}

/**
 * `"balance_<account>"`: an inside account's row (0, 0, 0 before it has one); an outside
 * account's entries summed, which fails with 22003 when the sum leaves 64 bits
 * (docs/targets.md#outside-accounts).
 */
export function balanceFunction(s: string, book: Book, a: Account): string {
  const params = ["p_tenant text", ...a.params.map((p) => `${ident(paramName(p))} text`)].join(", ");
  const ref = { account: a, args: a.params };
  const read = a.outside
    ? `  select coalesce(sum(e.posted), 0)::bigint, coalesce(sum(e.held_in), 0)::bigint,
         coalesce(sum(e.held_out), 0)::bigint
    into v_balance
    from ${s}.entries e
   where e.tenant = p_tenant and e.account = v_id;
  return v_balance;
`
    : `  select r.posted, r.held_in, r.held_out into v_balance
    from ${s}.accounts r
   where r.tenant = p_tenant and r.id = v_id;
  if not found then
    return (0, 0, 0)::${s}.balance;
  end if;
  return v_balance;
`;
  // The sum's custom plans win the planner's comparison by a little, so it would be planned again on
  // every call (about 45 µs, more than the sum of a few hundred entries takes); the generic plan reads
  // the index alone whatever the account (measured, docs/targets.md#outside-accounts).
  const plans = a.outside ? " set plan_cache_mode = force_generic_plan" : "";
  return `create or replace function ${s}.${ident(balanceName(a))}(${params})
returns ${s}.balance language plpgsql stable ${FUNCTION_SETTINGS}${plans} as $$
declare
${
    idDeclarations([{ name: "v_id", role: "account", parts: accountIdParts(book, ref) }])
  }  v_balance ${s}.balance;
begin
${checksSql(stringChecks(a.params))}${idFixes(["v_id"])}${read}end $$;
`;
}
