/**
 * Book tasks (docs/design/dandori.md#books): a `book <book>.<transfer>.<operation>` task against the
 * transfer it calls, read through the book port. The book and the transfer must be there (E002),
 * the operation must be one the transfer has (E007), and the task must fit it (E016): the
 * arguments the operation takes with the types the book gives, the hold it returns, the
 * refusals the book may answer.
 * @module
 */

import type { OpName } from "../chobo/interp.ts";
import { didYouMean } from "../common/nearest.ts";
import { hintOf, type Reporter } from "../common/reporter.ts";
import type { DandoriCode } from "./codes.ts";
import { type Text, tr } from "../common/text.ts";
import type { TaskAst, TaskItemAst } from "./ast.ts";
import type { BookPort, BookTransfer, BookUnit } from "./books.ts";
import type { BookCall } from "./model.ts";
import { type FieldDef, showTy, type Ty } from "./types.ts";

/** The operations of a book task. */
const BOOK_OPS: readonly string[] = ["do", "hold", "post", "void"];

/** A `book` item as written. */
type BookItem = Extract<TaskItemAst, { kind: "book" }>;

/**
 * The book operation of a `book` task, with E002/E007/E016 against the transfer; null
 * when the book, the transfer or the operation is not there.
 */
export function bookCall(
  r: Reporter<DandoriCode>,
  books: ReadonlyMap<string, BookPort>,
  t: TaskAst,
  item: BookItem,
  params: readonly FieldDef[],
  result: Ty | null,
): BookCall | null {
  const transfer = transferOf(r, books, item);
  if (transfer === null || !hasOperation(r, item, transfer)) return null;
  const call: BookCall = { book: item.book.text, transfer, op: item.operation.text as OpName };
  bookArguments(r, call, params);
  bookNeeds(r, t, call, params);
  bookResult(r, t, call, result);
  bookErrors(r, t, call);
  return call;
}

/** The transfer a `book` item names, or null with E002 for a book or a transfer not there. */
function transferOf(
  r: Reporter<DandoriCode>,
  books: ReadonlyMap<string, BookPort>,
  item: BookItem,
): BookTransfer | null {
  const book = books.get(item.book.text);
  if (book === undefined) {
    r.error(
      "E002",
      item.book,
      tr(`there is no book \`${item.book.text}\``, `帳簿 \`${item.book.text}\` はありません`),
      {
        hint: didYouMean(item.book.text, books.keys()) ?? tr(
          `read it with \`use book ${item.book.text} from "<path>.book"\``,
          `\`use book ${item.book.text} from "<パス>.book"\` で読んでください`,
        ),
      },
    );
    return null;
  }
  const transfer = book.transfers.find((x) => x.name === item.transfer.text);
  if (transfer !== undefined) return transfer;
  r.error(
    "E002",
    item.transfer,
    tr(
      `the book \`${item.book.text}\` has no transfer \`${item.transfer.text}\``,
      `帳簿 \`${item.book.text}\` に振替 \`${item.transfer.text}\` はありません`,
    ),
    {
      notes: [
        tr(
          `its transfers: ${book.transfers.map((x) => x.name).join(", ")}`,
          `振替は ${book.transfers.map((x) => x.name).join("、")} です`,
        ),
      ],
      ...hintOf(didYouMean(item.transfer.text, book.transfers.map((x) => x.name))),
    },
  );
  return null;
}

/** True when the transfer has the operation the item names; else E007 with the ones it has. */
function hasOperation(r: Reporter<DandoriCode>, item: BookItem, transfer: BookTransfer): boolean {
  const op = item.operation.text;
  if (BOOK_OPS.includes(op) && transfer.ops.includes(op as OpName)) return true;
  r.error(
    "E007",
    item.operation,
    tr(
      `\`${item.transfer.text}\` has no operation \`${op}\``,
      `\`${item.transfer.text}\` に操作 \`${op}\` はありません`,
    ),
    {
      notes: [
        transfer.pending === null
          ? tr(
            `\`${transfer.name}\` is done at once: its operation is \`do\``,
            `\`${transfer.name}\` はすぐに確定する振替で、操作は \`do\` です`,
          )
          : tr(
            `\`${transfer.name}\` holds: its operations are \`hold\`, \`post\` and \`void\``,
            `\`${transfer.name}\` は仮押さえの振替で、操作は \`hold\`・\`post\`・\`void\` です`,
          ),
      ],
      ...hintOf(didYouMean(op, transfer.ops)),
    },
  );
  return false;
}

/** The transfer's parameters the operation takes: a post and a void take the key, a post its amounts too. */
function operationParams(call: BookCall): BookTransfer["params"] {
  const transfer = call.transfer;
  if (call.op !== "post" && call.op !== "void") return transfer.params;
  return transfer.params.filter((p) =>
    transfer.key.includes(p.name) || (call.op === "post" && p.amount !== null)
  );
}

/** E016 for an argument the operation does not take, or takes with another type. */
function bookArguments(r: Reporter<DandoriCode>, call: BookCall, params: readonly FieldDef[]): void {
  const where = `${call.transfer.name}.${call.op}`;
  const takes = operationParams(call);
  for (const p of params) {
    const bp = takes.find((x) => x.name === p.name);
    if (bp === undefined) {
      r.error(
        "E016",
        p,
        tr(
          `\`${where}\` takes no argument \`${p.name}\``,
          `\`${where}\` は引数 \`${p.name}\` を受け取りません`,
        ),
        {
          notes: [tr(
            `it takes ${takes.map((x) => x.name).join(", ")}`,
            `受け取る引数は ${takes.map((x) => x.name).join("、")} です`,
          )],
        },
      );
      continue;
    }
    const fits = bp.amount === null ? p.type.kind === "string" : p.type.kind === "int" ||
      (p.type.kind === "num" && p.type.unit.id === bp.amount.unitId && p.type.unit.tax === bp.amount.tax);
    if (!fits) {
      r.error("E016", p, argumentMismatch(where, p, bp.amount), { hint: amountHint(p.name, bp.amount) });
    }
  }
}

/** Why an argument does not fit the book's parameter: a string, or an amount in the book's unit. */
function argumentMismatch(where: string, p: FieldDef, amount: BookUnit | null): Text {
  const ty = showTy(p.type);
  if (amount === null) {
    return tr(
      `\`${p.name}\` of \`${where}\` is a string, and the task says \`${ty}\``,
      `\`${where}\` の \`${p.name}\` は文字列ですが、タスクは \`${ty}\` と書いています`,
    );
  }
  const unit = `${amount.name}${amount.tax === null ? "" : ` ${amount.tax}`}`;
  return tr(
    `\`${p.name}\` of \`${where}\` is an amount in the book's unit ${unit}, and the task says \`${ty}\``,
    `\`${where}\` の \`${p.name}\` は帳簿の単位 ${unit} の額ですが、タスクは \`${ty}\` と書いています`,
  );
}

/** E016 for an argument the operation needs that the task does not take, and for half a part-post. */
function bookNeeds(r: Reporter<DandoriCode>, t: TaskAst, call: BookCall, params: readonly FieldDef[]): void {
  const transfer = call.transfer;
  const where = `${transfer.name}.${call.op}`;
  const written = new Set(params.map((p) => p.name));
  const needed = call.op === "post" || call.op === "void" ? transfer.key : transfer.params.map((p) => p.name);
  for (const n of needed) {
    if (written.has(n)) continue;
    r.error(
      "E016",
      t.name,
      tr(
        `\`${t.name.text}\` does not take \`${n}\`, which \`${where}\` needs`,
        `\`${t.name.text}\` は、\`${where}\` が要る引数 \`${n}\` を受け取りません`,
      ),
      { hint: tr(`add \`${n}\` to the task's arguments`, `タスクの引数に \`${n}\` を足してください`) },
    );
  }
  if (call.op !== "post") return;
  const amounts = transfer.params.filter((p) => p.amount !== null && !transfer.key.includes(p.name));
  const given = amounts.filter((p) => written.has(p.name));
  if (given.length === 0 || given.length === amounts.length) return;
  const missing = amounts.filter((p) => !written.has(p.name)).map((p) => p.name);
  r.error(
    "E016",
    t.name,
    tr(
      `a part-post gives every amount of \`${transfer.name}\` or none: ${missing.join(", ")} is missing`,
      `一部の確定では、\`${transfer.name}\` の額を全部渡すか、一つも渡しません。${
        missing.join("、")
      } がありません`,
    ),
  );
}

/** E016 for a result a `do` has, or a hold's operation whose result is not the hold. */
function bookResult(r: Reporter<DandoriCode>, t: TaskAst, call: BookCall, result: Ty | null): void {
  const name = `${call.book}.${call.transfer.name}`;
  if (call.op === "do") {
    if (t.result === null) return;
    r.error(
      "E016",
      t.result,
      tr(
        `\`do\` returns nothing, so \`${t.name.text}\` has no result`,
        `\`do\` は何も返さないので、\`${t.name.text}\` に結果は書けません`,
      ),
      { hint: tr("remove `-> …`", "`-> …` を消してください") },
    );
    return;
  }
  if (t.result !== null && (result === null || (result.kind === "record" && result.name === name))) return;
  r.error(
    "E016",
    t.result ?? t.name,
    tr(`\`${call.op}\` returns the hold \`${name}\``, `\`${call.op}\` が返すのは仮押さえ \`${name}\` です`),
    { hint: tr(`write \`-> ${name}\``, `\`-> ${name}\` と書いてください`) },
  );
}

/** E016 for a declared error the book never refuses the operation with. */
function bookErrors(r: Reporter<DandoriCode>, t: TaskAst, call: BookCall): void {
  const transfer = call.transfer;
  const where = `${transfer.name}.${call.op}`;
  const reasons = transfer.reasons.get(call.op) ?? [];
  for (const e of t.items) {
    if (e.kind !== "errors") continue;
    for (const d of e.errors) {
      if (reasons.includes(d.name.text)) continue;
      r.error(
        "E016",
        d.name,
        tr(
          `the book never refuses \`${where}\` with \`${d.name.text}\``,
          `帳簿が \`${where}\` を \`${d.name.text}\` で拒否することはありません`,
        ),
        {
          notes: [
            tr(
              `\`${where}\` may be refused with ${reasons.join(", ")}`,
              `\`${where}\` が拒否されうる理由は ${reasons.join("、")} です`,
            ),
          ],
        },
      );
    }
  }
}

/** How to write a book task's parameter: a string, or an amount as `int` or the book's unit type. */
function amountHint(name: string, amount: BookUnit | null): Text {
  if (amount === null) return tr(`write \`${name}: string\``, `\`${name}: string\` と書いてください`);
  const unit = amount.spelling === null ? "" : ` or \`${name}: ${amount.spelling}\``;
  const unitJa = amount.spelling === null ? "" : `か \`${name}: ${amount.spelling}\` `;
  return tr(
    `write \`${name}: int\`${unit}: amounts go as integers counted in the book's unit`,
    `\`${name}: int\` ${unitJa}と書いてください。額は帳簿の単位で数えた整数で渡します`,
  );
}
