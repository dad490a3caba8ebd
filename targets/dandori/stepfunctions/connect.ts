/**
 * A `connect` task's HTTP Task (docs/targets.md#connect-tasks): the request body written as
 * protobuf's JSON and the answer's zero values filled in, as JSONata expressions that do what
 * `requestBody` and `filledResponse` of lang/dandori/connect.ts do on the reference interpreter.
 *
 * - **The body**: each argument that is not null under its field's JSON name, an `int` of a 64-bit
 *   integer field as decimal text (`$formatBase(x, 10)`: exact up to 2⁵³, past which Step Functions'
 *   numbers lose digits anyway, docs/targets.md), a record sent to a message field by field; a list
 *   item by item.
 * - **The fill**: one JSONata function per message of the fill table (`$dd_fill<i>`, i its index),
 *   each taking the value and its depth and giving the value back with every field left out or null
 *   that has no presence filled in (`$merge` keeps the answer's own fields first and adds the filled
 *   ones in the message's order, as the interpreter does), a message that is there and each message
 *   of a list filled by its own function, nothing deeper than `MAX_MESSAGE_DEPTH`. Fields are read
 *   with `$lookup` and written as string literals, so a field's JSON name is never JSONata syntax.
 * - A list of messages from the answer is rebuilt with `$reduce` and `$append`, each item kept
 *   whole (`[[x]]` for an item that is itself an array), because `$map` gives back a lone item
 *   unwrapped and an array constructor spreads arrays.
 * @module
 */

import { stringifyJson } from "../../../lang/common/json.ts";
import type { FillTable, Sent, SentField } from "../../../lang/dandori/connect.ts";
import { MAX_MESSAGE_DEPTH } from "../../../lang/dandori/proto.ts";
import { str } from "./jsonata.ts";

/** A field of `x` read with `$lookup`: nothing when it is missing. */
function look(x: string, json: string): string {
  return `$lookup(${x}, ${str(json)})`;
}

/** The request body of a call whose arguments are `args` (by name, as expressions). */
export function connectBody(request: readonly SentField[], args: ReadonlyMap<string, string>): string {
  const parts = request.flatMap((f) => {
    const v = args.get(f.name);
    return v === undefined
      ? []
      : [`($dd_arg := ${v}; $dd_arg = null ? {} : {${str(f.json)}: ${sentExpr(f.sent, "$dd_arg", 0)}})`];
  });
  return `$merge([${parts.join(", ")}])`;
}

/** How a value is written, as `sentValue` of connect.ts writes it: a list item by item. */
function sentExpr(sent: Sent, x: string, depth: number): string {
  const item = `$dd_s${depth}`;
  const one = (y: string): string => {
    switch (sent.kind) {
      case "as is":
        return y;
      case "int64":
        // `$string` writes 15 significant digits; `$formatBase` every digit a double holds.
        return `($type(${y}) = "number" ? $formatBase(${y}, 10) : ${y})`;
      case "message": {
        const fields = sent.fields.map((f) => {
          const field = `$dd_f${depth}`;
          return `(${field} := ${look(y, f.name)}; ${field} = null ? {} : {${str(f.json)}: ${
            sentExpr(f.sent, field, depth + 1)
          }})`;
        });
        return `($type(${y}) = "object" ? $merge([${fields.join(", ")}]) : ${y})`;
      }
    }
  };
  if (sent.kind === "as is") return x;
  // The items of a list a flow sends are its values, never arrays (a `json` is sent as is), so
  // `[$map(…)]` keeps them whole.
  return `($type(${x}) = "array" ? [$map(${x}, function(${item}) { ${one(item)} })] : ${one(x)})`;
}

/** The name of the fill function of the table's `i`th message. */
function fillName(i: number): string {
  return `$dd_fill${i}`;
}

/** The answer `x` as a protobuf reader reads it: a block defining one function per message, then the top's call. */
export function connectFilled(table: FillTable, x: string): string {
  const index = new Map(table.messages.map((m, i) => [m.name, i]));
  const fill = (name: string, y: string, depth: string): string => {
    const i = index.get(name);
    return i === undefined ? y : `${fillName(i)}(${y}, ${depth})`;
  };
  const functions = table.messages.map((m, i) => {
    const fields = m.fields.map((f) => {
      const v = look("$v", f.json);
      const missing = `($not($exists(${v})) or ${v} = null)`;
      const zero = f.zero === undefined ? "{}" : `{${str(f.json)}: ${stringifyJson(f.zero)}}`;
      if (f.message === undefined) return `(${missing} ? ${zero} : {})`;
      const filled = f.zero === undefined
        ? `{${str(f.json)}: ${fill(f.message, v, "$d + 1")}}`
        : `($type(${v}) = "array" ? {${str(f.json)}: $reduce(${v}, function($a, $x) { $append($a, ($y := ${
          fill(f.message, "$x", "$d + 1")
        }; $type($y) = "array" ? [[$y]] : [$y])) }, [])} : {})`;
      return `(${missing} ? ${zero} : ${filled})`;
    });
    return `${
      fillName(i)
    } := function($v, $d) { $type($v) = "object" and $d <= ${MAX_MESSAGE_DEPTH} ? $merge([$v${
      fields.map((f) => `, ${f}`).join("")
    }]) : $v }`;
  });
  return `(${[...functions, fill(table.top, x, "0")].join("; ")})`;
}
