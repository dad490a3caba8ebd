/**
 * What every book's schema has, whatever its transfers: the types `result` and `balance`, the
 * tables, the CHECKs, the view `balances`, `chobo_id` and `expire()` (docs/design/chobo.md#postgresql).
 * @module
 */

import { ID_PREFIX } from "../../../lang/chobo/ids.ts";
import type { Book } from "../../../lang/chobo/model.ts";
import { byteaLit, FUNCTION_SETTINGS, lit } from "./sql_names.ts";

/** The kinds of the book that are inside (each has a bound, so rows), as a SQL list, or null when none is. */
function insideKinds(book: Book): string | null {
  const kinds = book.accounts.filter((a) => !a.outside).map((a) => lit(a.name));
  return kinds.length === 0 ? null : kinds.join(", ");
}

/**
 * The view \`balances\`: every account's balance, for reading and audits — an inside kind's rows, and
 * every other account's entries summed (docs/targets.md#outside-accounts). The book says which kinds
 * are inside, so a kind that turned outside (E050) is read from its entries as its function reads it;
 * every shape names the same columns, so a new version of the book can replace the view.
 */
function balancesView(s: string, book: Book): string {
  const inside = insideKinds(book);
  const rows = `  select r.tenant, r.id, r.posted, r.held_in, r.held_out
    from ${s}.accounts r
   where r.kind in (${inside})`;
  const sums = (where: string) =>
    `  select e.tenant, e.account as id, sum(e.posted)::bigint as posted, sum(e.held_in)::bigint as held_in,
         sum(e.held_out)::bigint as held_out
    from ${s}.entries e${where}
   group by e.tenant, e.account`;
  const outside = book.accounts.some((a) => a.outside);
  const body = inside === null ? sums("") : !outside ? rows : `${rows}
  union all
${
    sums(`
   where not exists (select 1 from ${s}.accounts r where r.tenant = e.tenant and r.id = e.account and r.kind in (${inside}))`)
  }`;
  return `-- Every account's balance, for reading and audits: an inside account's row, an outside account's
-- entries summed (docs/targets.md#outside-accounts).
create or replace view ${s}.balances as
${body};
`;
}

/**
 * What the schema's comment starts with: a schema that exists without it is not a chobo book's,
 * and the file changes nothing in it (docs/reference.md#limits).
 */
function markPrefix(book: Book): string {
  return `chobo: book ${book.name} `;
}

/**
 * The schema, marked with the book and its hash (\`sha\`), its types and tables, the view of
 * balances, and \`chobo_id\`. A schema of the book's name that exists without the mark stops the load.
 */
export function schemaSql(s: string, book: Book, sha: string): string {
  const prefix = markPrefix(book);
  return `-- The schema is a chobo book's only if its comment says so: one that exists without the mark (an
-- application's own, such as public) is never changed (docs/reference.md#limits).
do $$
declare
  v_mark text;
begin
  select obj_description(n.oid, 'pg_namespace') into v_mark from pg_namespace n where n.nspname = ${
    lit(book.name)
  };
  if found and (v_mark is null or left(v_mark, ${[...prefix].length}) <> ${lit(prefix)}) then
    raise exception 'chobo: the schema % exists and is not a chobo book''s (its comment does not start with "%"): nothing was changed', ${
    lit(book.name)
  }, ${lit(prefix)}
      using errcode = '42P06', hint = 'name the book after a schema of its own';
  end if;
end $$;

create schema if not exists ${s};
comment on schema ${s} is ${lit(`${prefix}v${book.version}, sha256:${sha}`)};

do $$ begin
  create type ${s}.result as (result text, reason text);
exception when duplicate_object then null;
end $$;

do $$ begin
  create type ${s}.balance as (posted bigint, held_in bigint, held_out bigint);
exception when duplicate_object then null;
end $$;

-- The bounds every account row keeps, the CHECK's one call (docs/targets.md#the-check). A function,
-- because PostgreSQL 15 reads a CHECK's expression again from its stored text in every statement
-- that writes the table, and a call is a third of the text the two conditions written out are. Its
-- operators name their schema, so it needs no search_path of its own (a set one would be set and
-- reset for every row written).
create or replace function ${s}.within_bounds(p_lower_bound bigint, p_upper_bound bigint, p_posted bigint,
  p_held_in bigint, p_held_out bigint) returns boolean
language plpgsql immutable as $$
begin
  return (p_lower_bound is null
          or (p_posted operator(pg_catalog.-) p_held_out) operator(pg_catalog.>=) least(p_lower_bound, 0))
     and (p_upper_bound is null
          or (p_posted operator(pg_catalog.+) p_held_in) operator(pg_catalog.<=) greatest(p_upper_bound, 0));
end $$;

create table if not exists ${s}.accounts (
  tenant text not null,
  id uuid not null,
  kind text not null,
  args text[] not null,
  unit text not null,
  lower_bound bigint,
  upper_bound bigint,
  posted bigint not null default 0,
  held_in bigint not null default 0,
  held_out bigint not null default 0,
  primary key (tenant, id),
  constraint within_bounds check (${s}.within_bounds(lower_bound, upper_bound, posted, held_in, held_out))
);

create table if not exists ${s}.holds (
  tenant text not null,
  id uuid not null,
  kind text not null,
  key text not null,
  from_ids uuid[] not null,
  to_ids uuid[] not null,
  amounts bigint[] not null,
  state text not null,
  created_at timestamptz not null,
  expires_at timestamptz,
  posted bigint[],
  primary key (tenant, id)
);
create index if not exists holds_expiry on ${s}.holds (expires_at, tenant, id) where state = 'held';

create table if not exists ${s}.keys (
  tenant text not null,
  kind text not null,
  op text not null,
  key text not null,
  content text not null,
  definition text not null,
  result text not null,
  reason text,
  at timestamptz not null,
  -- the key's SHA-256, not the key: a key of long escaped parts would pass the index's 2,704 bytes;
  -- it comes before kind and op in the index, so a search decides on its random bytes
  key_hash bytea not null,
  primary key (tenant, key_hash, kind, op)
);

-- The log of every change to every account, appended to by every operation: \`seq\` orders it and
-- needs no index (an index on it would be one more write per row, on its one hottest page).
create table if not exists ${s}.entries (
  seq bigserial,
  tenant text not null,
  account uuid not null,
  kind text not null,
  op text not null,
  key text not null,
  posted bigint not null,
  held_in bigint not null,
  held_out bigint not null,
  at timestamptz not null
);
-- An outside account's balance is its entries summed: the numbers in the index let the sum read the
-- index alone (docs/targets.md#outside-accounts).
create index if not exists entries_account on ${s}.entries (tenant, account) include (posted, held_in, held_out);

${balancesView(s, book)}
-- An id (docs/targets.md#ids): SHA-256 over enc(${lit(ID_PREFIX)}) ‖ enc(role) ‖ enc(part) ‖ …, enc(x) = its
-- UTF-8 length (32-bit big-endian) then its UTF-8; the first 16 bytes, 0 read as 1 and 2¹²⁸ − 1 as 2¹²⁸ − 2.
create or replace function ${s}.chobo_id(parts text[]) returns uuid
language plpgsql immutable strict ${FUNCTION_SETTINGS} as $$
declare
  v_bytes bytea := ''::bytea;
  v_part text;
  v_utf8 bytea;
  v_id bytea;
begin
  foreach v_part in array array[${lit(ID_PREFIX)}] || parts loop
    v_utf8 := convert_to(v_part, 'UTF8');
    v_bytes := v_bytes || int4send(octet_length(v_utf8)) || v_utf8;
  end loop;
  v_id := substring(sha256(v_bytes) from 1 for 16);
  if v_id = ${byteaLit("00000000000000000000000000000000")} then
    v_id := ${byteaLit("00000000000000000000000000000001")};
  elsif v_id = ${byteaLit("ffffffffffffffffffffffffffffffff")} then
    v_id := ${byteaLit("fffffffffffffffffffffffffffffffe")};
  end if;
  return encode(v_id, 'hex')::uuid;
end $$;
`;
}

/**
 * \`expire(p_max)\`: gives back holds past their expiry, at most p_max, skipping rows other
 * operations hold; the inside accounts of all of them are locked at once in (tenant, id) order,
 * then one statement gives every amount back, writes the entries and marks the holds.
 */
export function expireSql(s: string, book: Book): string {
  const inside = insideKinds(book);
  const accounts = inside === null ? "" : `  -- only an inside account has a row to lock and change
  perform 1 from ${s}.accounts a
    join (select distinct h.tenant, x.id from unnest(v_holds) as h, unnest(h.from_ids || h.to_ids) as x (id)) as l
      on a.tenant = l.tenant and a.id = l.id
   where a.kind in (${inside})
   order by a.tenant, a.id for update of a;
`;
  const given = inside === null ? "" : `, given as (
    update ${s}.accounts a set held_in = a.held_in - g.held_in, held_out = a.held_out - g.held_out
      from (select x.tenant, x.account, sum(x.held_in)::bigint as held_in, sum(x.held_out)::bigint as held_out
              from sides x group by x.tenant, x.account) as g
     where a.tenant = g.tenant and a.id = g.account and a.kind in (${inside})
  )`;
  return `create or replace function ${s}.expire(p_max integer default 1000)
returns integer language plpgsql ${FUNCTION_SETTINGS} as $$
declare
  v_now timestamptz := clock_timestamp();
  v_holds ${s}.holds[];
begin
  select coalesce(array_agg(h::${s}.holds order by h.expires_at, h.tenant, h.id), '{}') into v_holds
    from (select * from ${s}.holds r where r.state = 'held' and r.expires_at <= v_now
           order by r.expires_at, r.tenant, r.id limit p_max for update skip locked) as h;
  if cardinality(v_holds) = 0 then
    return 0;
  end if;
${accounts}  with sides as (
    select h.tenant, h.id as hold, h.kind, h.key, m.account, m.held_in, m.held_out
      from unnest(v_holds) as h,
           lateral (select f.id, 0::bigint, f.amount from unnest(h.from_ids, h.amounts) as f (id, amount)
                    union all
                    select t.id, t.amount, 0::bigint from unnest(h.to_ids, h.amounts) as t (id, amount))
             as m (account, held_in, held_out)
  )${given}, logged as (
    insert into ${s}.entries (tenant, account, kind, op, key, posted, held_in, held_out, at)
    select x.tenant, x.account, x.kind, 'expire', x.key, 0, -sum(x.held_in), -sum(x.held_out), v_now
      from sides x
     group by x.tenant, x.hold, x.kind, x.key, x.account
    having sum(x.held_in) <> 0 or sum(x.held_out) <> 0
  )
  update ${s}.holds h set state = 'expired'
    from unnest(v_holds) as x
   where h.tenant = x.tenant and h.id = x.id;
  return cardinality(v_holds);
end $$;
`;
}
