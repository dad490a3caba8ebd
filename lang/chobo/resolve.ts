/**
 * Name resolution and types: syntax tree → `Book` (docs/reference.md, the codes of
 * docs/design/chobo.md#the-checker that one file decides without running anything: E002–E005, E010, E011,
 * E013, E014, E020–E023, E030, E031, E040, E041). A book is returned only when no error was found.
 * @module
 */

import { lookup } from "../common/assert.ts";
import { didYouMean } from "../common/nearest.ts";
import type { Reporter } from "../common/reporter.ts";
import { type Text, tr } from "../common/text.ts";
import type { ChoboCode } from "./codes.ts";
import {
  type Account,
  type AccountRef,
  type Book,
  type Bound,
  MAX_AMOUNT,
  MAX_EXPIRY_SECONDS,
  type Move,
  type Param,
  type Pending,
  type Transfer,
  type Unit,
} from "./model.ts";
import type {
  AccountAst,
  AccountRefAst,
  BookAst,
  BoundAst,
  ParamAst,
  PendingAst,
  TransferAst,
  UnitAst,
  Word,
} from "./syntax.ts";
import { TIME_WORDS } from "./syntax.ts";
import { isMoney } from "./units.ts";

/**
 * The refusal reasons chobo itself answers (docs/design/chobo.md#refusal-reasons); a bound cannot be refused
 * as one of them.
 */
export const BUILTIN_REASONS = [
  "key_conflict",
  "already_refused",
  "same_account",
  "no_such_hold",
  "already_posted",
  "already_voided",
  "expired",
  "over_hold",
] as const;

/** A refusal reason chobo itself answers; a bound's reason is any other name its book gives. */
export type BuiltinReason = typeof BUILTIN_REASONS[number];

/** True when `reason` is one chobo itself answers. */
export function isBuiltinReason(reason: string): reason is BuiltinReason {
  return (BUILTIN_REASONS as readonly string[]).includes(reason);
}

/** The largest `scale`: 10¹⁸ still fits in 2⁶³ − 1, 10¹⁹ does not. */
export const MAX_SCALE = 18;

/** Resolves names and checks types; returns the book when the reporter has no error afterwards. */
export function resolveBook(ast: BookAst, r: Reporter<ChoboCode>): Book | null {
  const header = ast.headers[0];
  for (const extra of ast.headers.slice(1)) {
    r.error("E003", { line: extra.line, col: 1 }, tr("a second `book` line", "二つ目の `book` の行です"), {
      hint: tr(
        `the book is declared on line ${header.line}; one file holds one book`,
        `帳簿は ${header.line} 行目で宣言済みです。一つのファイルに帳簿は一つです`,
      ),
    });
  }
  for (const extra of ast.descriptions.slice(1)) {
    r.error("E003", extra, tr("a second description of the book", "帳簿の二つ目の description です"), {
      hint: tr("join the two into one description", "一つの description にまとめてください"),
    });
  }

  const units = new Map<string, Unit>();
  for (const u of ast.units) {
    const earlier = units.get(u.name.text);
    if (earlier !== undefined) {
      duplicate(r, u.name, tr("unit", "単位"), earlier.line);
      continue;
    }
    const unit = resolveUnit(u, r);
    units.set(unit.name, unit);
  }

  const accounts = new Map<string, Account>();
  for (const a of ast.accounts) {
    const account = resolveAccount(a, units, r);
    const earlier = accounts.get(a.name.text);
    if (earlier !== undefined) {
      duplicate(r, a.name, tr("account", "勘定"), earlier.line);
    } else if (account !== null) accounts.set(account.name, account);
  }
  const accountLines = new Map(ast.accounts.map((a) => [a.name.text, a.line]));

  const transfers: Transfer[] = [];
  const transferLines = new Map<string, number>();
  for (const t of ast.transfers) {
    const earlier = transferLines.get(t.name.text);
    if (earlier !== undefined) {
      duplicate(r, t.name, tr("transfer", "振替"), earlier);
      continue;
    }
    transferLines.set(t.name.text, t.line);
    const transfer = resolveTransfer(t, units, accounts, accountLines, r);
    if (transfer !== null) transfers.push(transfer);
  }

  if (r.hasErrors()) return null;
  return {
    name: header.name.text,
    version: header.version,
    description: ast.descriptions[0]?.text ?? null,
    units: [...units.values()],
    accounts: [...accounts.values()],
    transfers,
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function duplicate(r: Reporter<ChoboCode>, name: Word, what: Text, firstLine: number): void {
  r.error(
    "E003",
    name,
    tr(`${what.en} ${name.text} is declared twice`, `${what.ja} ${name.text} が二度宣言されています`),
    {
      hint: tr(
        `the first declaration is on line ${firstLine}; rename or remove one`,
        `最初の宣言は ${firstLine} 行目です。どちらかの名前を変えるか、消してください`,
      ),
    },
  );
}

function duplicateItem(
  r: Reporter<ChoboCode>,
  at: { line: number; col: number },
  item: string,
  owner: Word,
  firstLine: number,
): void {
  r.error(
    "E003",
    at,
    tr(`a second \`${item}\` under ${owner.text}`, `${owner.text} の下に二つ目の \`${item}\` があります`),
    {
      hint: tr(
        `the first is on line ${firstLine}; keep one`,
        `一つ目は ${firstLine} 行目です。一つにしてください`,
      ),
    },
  );
}

function resolveUnit(u: UnitAst, r: Reporter<ChoboCode>): Unit {
  let scale = 0;
  if (u.scale !== null) {
    if (!/^[0-9]+$/.test(u.scale.text) || Number(u.scale.text) > MAX_SCALE) {
      r.error(
        "E011",
        u.scale,
        tr(
          `scale ${u.scale.text} is not a whole number from 0 to ${MAX_SCALE}`,
          `scale ${u.scale.text} は 0 から ${MAX_SCALE} までの整数ではありません`,
        ),
        {
          hint: tr(
            "scale is the number of decimal places a literal of the unit is written with",
            "scale は、その単位のリテラルを書く小数の桁数です",
          ),
        },
      );
    } else {
      scale = Number(u.scale.text);
    }
  }
  const tax = u.tax === null ? null : u.tax.text as "incl_tax" | "excl_tax";
  if (u.tax !== null && !isMoney(u.name.text, scale)) {
    r.error(
      "E014",
      u.tax,
      tr(
        `${u.name.text} is not money, so it cannot be ${u.tax.text}`,
        `${u.name.text} はお金の単位ではないので、${u.tax.text} を書けません`,
      ),
      {
        hint: tr(
          "incl_tax and excl_tax belong to currencies (JPY, 円, USD … at scale 0, or other than the yen at scale 2); remove the word",
          "incl_tax と excl_tax を書けるのは通貨(scale 0 の JPY・円・USD など、円のほかの通貨の scale 2)だけです。語を消してください",
        ),
      },
    );
  }
  return { name: u.name.text, scale, tax, line: u.line };
}

/**
 * Reads a number literal of a unit with `scale` decimals into its smallest unit, or says why it
 * does not fit. `allowNegative` is true for bounds, false for amounts.
 */
export function parseQuantity(text: string, scale: number, allowNegative: boolean): bigint | Text {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(text);
  if (m === null) return tr(`${text} is not a number`, `${text} は数ではありません`);
  const [, sign, whole, frac = ""] = m;
  if (sign === "-" && !allowNegative) return tr(`the amount ${text} is negative`, `額 ${text} が負です`);
  if (frac.length > scale) {
    return tr(
      `${text} has ${frac.length} decimal places and the unit has scale ${scale}`,
      `${text} は小数 ${frac.length} 桁ですが、単位の scale は ${scale} です`,
    );
  }
  const magnitude = BigInt(whole + frac.padEnd(scale, "0"));
  if (magnitude > MAX_AMOUNT) {
    return tr(
      `${text} is outside ±(2⁶³ − 1) in the unit's smallest unit`,
      `${text} は単位のいちばん小さい単位で ±(2⁶³ − 1) の外です`,
    );
  }
  return sign === "-" ? -magnitude : magnitude;
}

function resolveAccount(
  a: AccountAst,
  units: ReadonlyMap<string, Unit>,
  r: Reporter<ChoboCode>,
): Account | null {
  const params = resolveAccountParams(a.params, r);
  const unit = units.get(a.unit.text);
  if (unit === undefined) {
    unknownUnit(r, a.unit, units);
  }
  for (const extra of a.descriptions.slice(1)) {
    duplicateItem(r, extra, "description", a.name, a.descriptions[0].line);
  }
  const bounds: { lower: Bound | null; upper: Bound | null } = { lower: null, upper: null };
  const firstLine: { lower?: number; upper?: number } = {};
  for (const b of a.bounds) {
    const word = b.kind === "lower" ? "at least" : "at most";
    if (firstLine[b.kind] !== undefined) {
      duplicateItem(r, b, word, a.name, firstLine[b.kind]!);
      continue;
    }
    firstLine[b.kind] = b.line;
    if (a.outside) {
      r.error(
        "E021",
        b,
        tr(
          `${a.name.text} is outside, and an outside account has no bounds`,
          `${a.name.text} は外の勘定なので、境界を持てません`,
        ),
        {
          hint: tr(
            `remove \`${word}\`, or remove \`outside\` if the account is inside the book`,
            `\`${word}\` を消すか、帳簿の中の勘定なら \`outside\` を消してください`,
          ),
        },
      );
      continue;
    }
    const bound = resolveBound(b, unit, r);
    if (bound !== null) bounds[b.kind] = bound;
  }
  if (!a.outside && a.bounds.length === 0) {
    r.error(
      "E020",
      a.name,
      tr(
        `${a.name.text} is inside the book but has no bound`,
        `${a.name.text} は中の勘定ですが、境界がありません`,
      ),
      {
        hint: tr(
          "write `at least <n> refused as <reason>` or `at most <n> refused as <reason>` under it, or mark it `outside` if it stands for the world outside",
          "下に `at least <数> refused as <理由>` か `at most <数> refused as <理由>` を書くか、外の世界を表すなら `outside` を付けてください",
        ),
      },
    );
  }
  const { lower, upper } = bounds;
  if (upper !== null && upper.value < 0n) {
    r.error(
      "E022",
      upper,
      tr(`the upper bound of ${a.name.text} is below 0`, `${a.name.text} の上限が 0 より小さくなっています`),
      {
        hint: tr(
          "an upper bound is 0 or more; for a balance that must stay below zero, turn the account around",
          "上限は 0 以上です。残高をマイナスに保つなら、勘定の向きを逆にしてください",
        ),
      },
    );
  } else if (lower !== null && upper !== null && lower.value > upper.value) {
    r.error(
      "E022",
      lower,
      tr(
        `no balance of ${a.name.text} is within its bounds: at least is above at most`,
        `${a.name.text} の境界に収まる残高がありません。下限が上限より大きくなっています`,
      ),
      {
        hint: tr("make the lower bound at most the upper bound", "下限を上限以下にしてください"),
      },
    );
  }
  // An account whose bounds are wrong still resolves, so the moves that use it are checked too;
  // the book as a whole is not returned while any error stands.
  if (unit === undefined || params === null) return null;
  return {
    name: a.name.text,
    params,
    unit,
    outside: a.outside,
    lower,
    upper,
    description: a.descriptions[0]?.text ?? null,
    line: a.line,
    col: a.name.col,
  };
}

function resolveAccountParams(ps: readonly ParamAst[], r: Reporter<ChoboCode>): string[] | null {
  let ok = true;
  const seen = new Set<string>();
  for (const p of ps) {
    if (seen.has(p.name.text)) {
      r.error(
        "E003",
        p.name,
        tr(`the parameter ${p.name.text} is declared twice`, `引数 ${p.name.text} が二度宣言されています`),
        {
          hint: tr("give each parameter its own name", "引数ごとに別の名前にしてください"),
        },
      );
      ok = false;
    }
    seen.add(p.name.text);
    if (p.type.text !== "string") {
      r.error(
        "E005",
        p.type,
        tr(
          `an account is split by strings, and ${p.name.text} is typed ${p.type.text}`,
          `勘定は文字列で分けます。${p.name.text} の型が ${p.type.text} になっています`,
        ),
        {
          hint: tr(`write \`${p.name.text}: string\``, `\`${p.name.text}: string\` と書いてください`),
        },
      );
      ok = false;
    }
  }
  return ok ? ps.map((p) => p.name.text) : null;
}

/** A bound's value and reason; the value is read only when the account's unit resolved. */
function resolveBound(b: BoundAst, unit: Unit | undefined, r: Reporter<ChoboCode>): Bound | null {
  let ok = unit !== undefined;
  const value = unit === undefined ? null : parseQuantity(b.value.text, unit.scale, true);
  if (unit !== undefined && typeof value !== "bigint" && value !== null) {
    r.error(
      "E011",
      b.value,
      tr(
        `the bound does not fit the unit ${unit.name}: ${value.en}`,
        `境界が単位 ${unit.name} に収まりません: ${value.ja}`,
      ),
      {
        hint: tr(
          `write it with at most ${unit.scale} decimal places, within ±(2⁶³ − 1)`,
          `小数 ${unit.scale} 桁までで、±(2⁶³ − 1) の中で書いてください`,
        ),
      },
    );
    ok = false;
  }
  const word = b.kind === "lower" ? "at least" : "at most";
  if (b.reason === null) {
    r.error(
      "E023",
      b,
      tr(`\`${word}\` has no \`refused as\``, `\`${word}\` に \`refused as\` がありません`),
      {
        hint: tr(
          `name the refusal the caller gets: \`${word} ${b.value.text} refused as <reason>\``,
          `呼ぶ側が受け取る拒否の理由を名付けてください: \`${word} ${b.value.text} refused as <理由>\``,
        ),
      },
    );
    ok = false;
  } else if (isBuiltinReason(b.reason.text)) {
    r.error(
      "E023",
      b.reason,
      tr(
        `${b.reason.text} is a reason chobo itself answers, so a bound cannot use it`,
        `${b.reason.text} は chobo が決めている理由なので、境界の理由に使えません`,
      ),
      {
        hint: tr(
          "name the reason after the business (out_of_stock, over_limit)",
          "業務の言葉で名付けてください(在庫切れ、上限超え)",
        ),
      },
    );
    ok = false;
  }
  if (!ok || typeof value !== "bigint" || b.reason === null) return null;
  return { value, reason: b.reason.text, line: b.line, col: b.col };
}

function unknownUnit(r: Reporter<ChoboCode>, w: Word, units: ReadonlyMap<string, Unit>): void {
  const known = [...units.keys()].join(", ");
  r.error("E002", w, tr(`no unit is named ${w.text}`, `${w.text} という単位はありません`), {
    hint: didYouMean(w.text, units.keys()) ??
      (known === "" ? tr(`declare it: \`unit ${w.text}\``, `宣言してください: \`unit ${w.text}\``) : tr(
        `declare it with \`unit ${w.text}\`, or use one of: ${known}`,
        `\`unit ${w.text}\` で宣言するか、次のどれかを使ってください: ${known}`,
      )),
  });
}

function resolveTransfer(
  t: TransferAst,
  units: ReadonlyMap<string, Unit>,
  accounts: ReadonlyMap<string, Account>,
  accountLines: ReadonlyMap<string, number>,
  r: Reporter<ChoboCode>,
): Transfer | null {
  const errorsBefore = r.diagnostics.length;
  const params = new Map<string, Param>();
  for (const p of t.params) {
    if (params.has(p.name.text)) {
      r.error(
        "E003",
        p.name,
        tr(`the parameter ${p.name.text} is declared twice`, `引数 ${p.name.text} が二度宣言されています`),
        {
          hint: tr("give each parameter its own name", "引数ごとに別の名前にしてください"),
        },
      );
      continue;
    }
    if (p.type.text === "string") {
      params.set(p.name.text, {
        name: p.name.text,
        type: { kind: "string" },
        line: p.name.line,
        col: p.name.col,
      });
    } else if (units.has(p.type.text)) {
      params.set(p.name.text, {
        name: p.name.text,
        type: { kind: "amount", unit: lookup(units, p.type.text, "unit") },
        line: p.name.line,
        col: p.name.col,
      });
    } else {
      r.error("E002", p.type, tr(`no type is named ${p.type.text}`, `${p.type.text} という型はありません`), {
        hint: didYouMean(p.type.text, ["string", ...units.keys()]) ?? tr(
          "a parameter is a `string` or an amount of a declared unit",
          "引数は `string` か、宣言した単位の額です",
        ),
      });
    }
  }
  for (const extra of t.descriptions.slice(1)) {
    duplicateItem(r, extra, "description", t.name, t.descriptions[0].line);
  }
  for (const extra of t.keys.slice(1)) duplicateItem(r, extra, "key", t.name, t.keys[0].line);
  for (const extra of t.pendings.slice(1)) duplicateItem(r, extra, "pending", t.name, t.pendings[0].line);

  const key = resolveKey(t, params, r);
  const pending = t.pendings.length === 0 ? null : resolvePending(t.pendings[0], r);

  if (t.moves.length === 0) {
    r.error(
      "E013",
      t.name,
      tr(
        `${t.name.text} has no \`move\`, so it moves nothing`,
        `${t.name.text} に \`move\` の行が無く、何も動かしません`,
      ),
      {
        hint: tr(
          "write at least one `move <amount> from <account> to <account>`",
          "`move <額> from <勘定> to <勘定>` を一つ以上書いてください",
        ),
      },
    );
  }
  const moves: Move[] = [];
  t.moves.forEach((m, i) => {
    const from = resolveRef(m.from, params, accounts, accountLines, r);
    const to = resolveRef(m.to, params, accounts, accountLines, r);
    let amount: Move["amount"] | null = null;
    let amountUnit: Unit | null = null;
    if (m.amount.kind === "name") {
      const p = params.get(m.amount.word.text);
      if (p === undefined) {
        if (!t.params.some((q) => q.name.text === m.amount.word.text)) {
          r.error(
            "E002",
            m.amount.word,
            tr(
              `${t.name.text} has no parameter ${m.amount.word.text}`,
              `${t.name.text} に引数 ${m.amount.word.text} はありません`,
            ),
            {
              hint: didYouMean(m.amount.word.text, t.params.map((q) => q.name.text)) ??
                tr("the amount is a parameter of the transfer or a number", "額は振替の引数か数です"),
            },
          );
        }
      } else if (p.type.kind === "string") {
        r.error(
          "E005",
          m.amount.word,
          tr(`${p.name} is a string and cannot be an amount`, `${p.name} は文字列なので、額にできません`),
          {
            hint: tr(
              `give ${p.name} a unit: \`${p.name}: <unit>\``,
              `${p.name} に単位の型を付けてください: \`${p.name}: <単位>\``,
            ),
          },
        );
      } else {
        amount = { kind: "param", param: p.name };
        amountUnit = p.type.unit;
      }
    }
    if (from === null || to === null) return;
    const fromUnit = from.account.unit;
    const toUnit = to.account.unit;
    if (fromUnit !== toUnit || (amountUnit !== null && amountUnit !== fromUnit)) {
      const amountText = amountUnit === null ? tr("", "") : tr(
        `, the amount ${m.amount.word.text} is ${amountUnit.name}`,
        `、額 ${m.amount.word.text} は ${amountUnit.name}`,
      );
      r.error(
        "E010",
        m,
        tr(
          `the units of this move differ: ${from.account.name} is ${fromUnit.name}, ${to.account.name} is ${toUnit.name}${amountText.en}`,
          `この移動の単位が合いません: ${from.account.name} は ${fromUnit.name}、${to.account.name} は ${toUnit.name}${amountText.ja}`,
        ),
        {
          hint: tr(
            "a move stays within one unit; to exchange, move into an outside account of one unit and out of an outside account of the other",
            "移動は一つの単位の中で行います。両替は、単位ごとの外の勘定へ入れる移動と、そこから出す移動の二つで書いてください",
          ),
        },
      );
      return;
    }
    if (m.amount.kind === "number") {
      const value = parseQuantity(m.amount.word.text, fromUnit.scale, false);
      if (typeof value !== "bigint") {
        r.error(
          "E011",
          m.amount.word,
          tr(
            `the amount does not fit the unit ${fromUnit.name}: ${value.en}`,
            `額が単位 ${fromUnit.name} に収まりません: ${value.ja}`,
          ),
          {
            hint: tr(
              `an amount is from 0 to 2⁶³ − 1 in the smallest unit, with at most ${fromUnit.scale} decimal places`,
              `額はいちばん小さい単位で 0 から 2⁶³ − 1 まで、小数 ${fromUnit.scale} 桁までです`,
            ),
          },
        );
        return;
      }
      amount = { kind: "literal", value };
    }
    if (amount === null) return;
    moves.push({ index: i + 1, amount, unit: fromUnit, from, to, line: m.line, col: m.col });
  });

  if (r.diagnostics.length > errorsBefore || key === null) return null;
  return {
    name: t.name.text,
    params: [...params.values()],
    key,
    pending,
    moves,
    description: t.descriptions[0]?.text ?? null,
    line: t.line,
    col: t.name.col,
  };
}

function resolveKey(
  t: TransferAst,
  params: ReadonlyMap<string, Param>,
  r: Reporter<ChoboCode>,
): string[] | null {
  const k = t.keys[0];
  if (k === undefined) {
    const strings = t.params.filter((p) => p.type.text === "string").map((p) => p.name.text);
    r.error("E030", t.name, tr(`${t.name.text} has no key`, `${t.name.text} にキーがありません`), {
      hint: strings.length > 0
        ? tr(
          `write \`key ${strings.join(", ")}\` (the parameters that make one call the same call)`,
          `\`key ${strings.join(", ")}\` のように書いてください(同じ呼び出しを見分ける引数の並び)`,
        )
        : tr(
          "add a string parameter that names each call and write `key <it>`",
          "呼び出しを見分ける文字列の引数を足し、`key <その引数>` と書いてください",
        ),
    });
    return null;
  }
  let ok = true;
  const seen = new Set<string>();
  for (const w of k.names) {
    if (seen.has(w.text)) {
      r.error("E003", w, tr(`${w.text} is in the key twice`, `${w.text} がキーに二度あります`), {
        hint: tr("write it once", "一度だけ書いてください"),
      });
      ok = false;
      continue;
    }
    seen.add(w.text);
    const p = params.get(w.text);
    if (p === undefined) {
      if (!t.params.some((q) => q.name.text === w.text)) {
        r.error(
          "E030",
          w,
          tr(
            `the key names ${w.text}, which is not a parameter of ${t.name.text}`,
            `キーの ${w.text} は ${t.name.text} の引数ではありません`,
          ),
          {
            hint: tr("a key lists parameters of the transfer", "キーには振替の引数を並べます"),
          },
        );
      }
      ok = false;
    } else if (p.type.kind === "amount") {
      r.error(
        "E031",
        w,
        tr(`${w.text} is an amount and cannot be in the key`, `${w.text} は額なので、キーに入れられません`),
        {
          hint: tr(
            "with an amount in the key, two calls that differ only in the amount both go through; key on what names the call (an order, a delivery)",
            "額をキーに入れると、額だけが違う二つの呼び出しがどちらも通ってしまいます。呼び出しを名指すもの(注文、納品書)をキーにしてください",
          ),
        },
      );
      ok = false;
    }
  }
  return ok ? k.names.map((w) => w.text) : null;
}

function resolvePending(p: PendingAst, r: Reporter<ChoboCode>): Pending | null {
  const end = p.end;
  if (end.kind === "never") return { expires: "never" };
  if (end.kind === "missing") {
    r.error(
      "E040",
      p,
      tr("`pending` does not say how the hold ends", "`pending` に仮押さえの終わり方がありません"),
      {
        hint: tr(
          "write `pending expires after <n> seconds|minutes|hours|days` or `pending never expires`",
          "`pending expires after <数> seconds|minutes|hours|days` か `pending never expires` と書いてください",
        ),
      },
    );
    return null;
  }
  const n = end.amount.text;
  const seconds = /^[0-9]+$/.test(n) ? BigInt(n) * lookup(TIME_WORDS, end.word.text, "time word") : null;
  if (seconds === null || seconds < 1n || seconds > MAX_EXPIRY_SECONDS) {
    const why = seconds === null
      ? tr(`${n} is not a whole number`, `${n} は整数ではありません`)
      : seconds < 1n
      ? tr(`${n} ${end.word.text} is less than 1 second`, `${n} ${end.word.text} は 1 秒より短いです`)
      : tr(`${n} ${end.word.text} is ${seconds} seconds`, `${n} ${end.word.text} は ${seconds} 秒です`);
    r.error(
      "E041",
      end.amount,
      tr(
        `a hold expires after 1 to 2³² − 1 seconds; ${why.en}`,
        `有効期限は 1 秒から 2³² − 1 秒までです。${why.ja}`,
      ),
      {
        hint: tr(
          "write a whole number of seconds, minutes, hours or days within that range, or `never expires`",
          "その範囲の整数の seconds、minutes、hours、days で書くか、`never expires` にしてください",
        ),
      },
    );
    return null;
  }
  return { expires: "after", seconds };
}

function resolveRef(
  ref: AccountRefAst,
  params: ReadonlyMap<string, Param>,
  accounts: ReadonlyMap<string, Account>,
  accountLines: ReadonlyMap<string, number>,
  r: Reporter<ChoboCode>,
): AccountRef | null {
  const account = accounts.get(ref.name.text);
  if (account === undefined) {
    // An account that is declared but did not resolve has its own error already.
    if (!accountLines.has(ref.name.text)) {
      r.error(
        "E002",
        ref.name,
        tr(`no account is named ${ref.name.text}`, `${ref.name.text} という勘定はありません`),
        {
          hint: didYouMean(ref.name.text, accountLines.keys()) ?? tr(
            `declare it: \`account ${ref.name.text} : <unit>\``,
            `宣言してください: \`account ${ref.name.text} : <単位>\``,
          ),
        },
      );
    }
    return null;
  }
  let ok = true;
  if (ref.args.length !== account.params.length) {
    const want = account.params.length === 0 ? "" : `(${account.params.join(", ")})`;
    r.error(
      "E004",
      ref.name,
      tr(
        `${account.name} takes ${plural(account.params.length, "argument")} and is given ${ref.args.length}`,
        `${account.name} の引数は ${account.params.length} 個ですが、${ref.args.length} 個渡しています`,
      ),
      {
        hint: tr(
          `the account is declared as ${account.name}${want} on line ${account.line}`,
          `勘定は ${account.line} 行目で ${account.name}${want} と宣言されています`,
        ),
      },
    );
    ok = false;
  }
  for (const arg of ref.args) {
    const p = params.get(arg.text);
    if (p === undefined) {
      r.error("E002", arg, tr(`no parameter is named ${arg.text}`, `${arg.text} という引数はありません`), {
        hint: didYouMean(arg.text, params.keys()) ??
          tr("an account is given parameters of the transfer", "勘定には振替の引数を渡します"),
      });
      ok = false;
    } else if (p.type.kind === "amount") {
      r.error(
        "E005",
        arg,
        tr(
          `${arg.text} is an amount and cannot choose an account`,
          `${arg.text} は額なので、勘定を選ぶ引数にできません`,
        ),
        {
          hint: tr("accounts are chosen by string parameters", "勘定は文字列の引数で選びます"),
        },
      );
      ok = false;
    }
  }
  return ok ? { account, args: ref.args.map((a) => a.text) } : null;
}
