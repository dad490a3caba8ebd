/**
 * Flows made of hostile names and strings, for the naming property test: every name a host language,
 * a target's generated code or JavaScript's objects read as their own (keywords, built-ins, the
 * generated locals' shapes, `Object.prototype`'s members, names NFKC folds, `dd_` names, trailing
 * `_`s), and strings an expression language or a chart would read (`{% %}`, `$`, `%%{…}%%`, a comment's end,
 * `${`, backticks, backslashes). Each flow is made from a seed, so a failure reproduces from it.
 * @module
 */

import { RESERVED } from "../../lang/dandori/lexer.ts";
import { generator } from "./random.ts";

/** Names some host or generated code takes, by where they come from. */
const NAME_POOL: readonly string[] = [
  // JavaScript: reserved words, globals the generated code reads, its own declarations and locals.
  "E",
  "R",
  "A",
  "e",
  "c",
  "n",
  "id",
  "input",
  "resume",
  "cases",
  "status",
  "answer",
  "event",
  "callback",
  "tasks",
  "own",
  "transport",
  "Object",
  "JSON",
  "Promise",
  "Math",
  "Array",
  "String",
  "undefined",
  "NaN",
  "class",
  "const",
  "var",
  "new",
  "delete",
  "typeof",
  "void",
  "await",
  "arguments",
  "eval",
  "a_s20",
  "got_s24",
  "m_s27",
  "i_s30",
  "e0",
  "dd_list",
  "dd_now_s20",
  "dd_x",
  // Python: keywords, built-ins, the generated modules' names.
  "str",
  "dict",
  "int_",
  "type",
  "case",
  "print",
  "len",
  "typing",
  "field",
  "copy",
  "dataclass",
  "annotations",
  "_own",
  "_transport",
  "self",
  "lambda",
  "None",
  "True",
  // Object.prototype's members.
  "__proto__",
  "toString",
  "valueOf",
  "constructor",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  // TypeScript's type names and types.ts's own.
  "number",
  "boolean",
  "any",
  "unknown",
  "never",
  "object",
  "symbol",
  "WorkflowInput",
  "WorkflowOutput",
  "Args_x",
  // Names NFKC folds, and the names they fold into.
  "ｎｏｔｅ",
  "note",
  "ﬁ",
  "fi",
  "ｃｌａｓｓ",
  // Trailing _ after taken names.
  "class_",
  "E_",
  "str_",
  "dd_x_",
  // JSONata's functions and Step Functions' own.
  "count",
  "sum",
  "states",
  // Python's refused names, and ordinary ones.
  "__init__",
  "__x",
  "注文",
  "在庫",
  "order",
].filter((n) => !RESERVED.has(n));

/** Pieces of text an expression language, a template or a chart would read. */
const TEXT_POOL: readonly string[] = [
  "{{% 'arn:aws:lambda:eu-west-2:1:function:' & $card %}}",
  "{{%",
  "%}}",
  "$states.input",
  "%%{{init: {{theme: dark}}}}%%",
  "*/ injected /*",
  "${{process.exit(1)}}",
  "`backtick`",
  "back\\\\slash\\\\",
  'a \\"quoted\\" word',
  "<b>bold</b> & |pipe|",
  "#quot; #35;",
  "tab\tand\u00a0space",
  "注文 在庫",
  "plain",
];

/** A generated flow: its text, and the seed it was made from. */
export interface HostileFlow {
  readonly seed: number;
  readonly text: string;
}

/** Takes `k` distinct names from the pool. */
function pick(random: () => number, k: number): string[] {
  const pool = [...NAME_POOL];
  const out: string[] = [];
  while (out.length < k) out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
  return out;
}

/** A string literal of the flow made of hostile pieces. */
function text(random: () => number): string {
  const n = 1 + Math.floor(random() * 3);
  return `"${Array.from({ length: n }, () => TEXT_POOL[Math.floor(random() * TEXT_POOL.length)]).join(" ")}"`;
}

/**
 * The flow of `seed`: an enum, a record with an optional field, two inputs, three tasks (two Lambda
 * functions and an HTTP call whose URL takes an argument), and a flow that calls them, splits an
 * optional value, loops, collects and ends with outputs — every name from the pool.
 */
export function hostileFlow(seed: number): HostileFlow {
  const random = generator(seed);
  const [
    enumName,
    v1,
    v2,
    record,
    f1,
    f2,
    f3,
    in1,
    in2,
    out1,
    out2,
    t1,
    t2,
    t3,
    p1,
    p2,
    p3,
    x1,
    x2,
    x3,
    x4,
    x5,
    x6,
  ] = pick(random, 23);
  const flow = `workflow w${seed} v1
description ${text(random)}

enum ${enumName} = ${v1} | ${v2}

record ${record}
  ${f1} : string
  ${f2} : string?
  ${f3} : ${enumName}

inputs
  ${in1} : ${record}
  ${in2} : string?

outputs
  ${out1} : string
  ${out2} : ${enumName}?

task ${t1}(${p1}: string, ${p2}: ${record}?) -> ${record}
  lambda "arn:aws:lambda:ap-northeast-1:123456789012:function:one"
  key

task ${t2}(${p3}: string) -> string
  http POST "https://api.example.com/v1/items/{${p3}}"
  connection "arn:aws:events:ap-northeast-1:123456789012:connection/items/1"
  errors busy = 409
  retry 1 times on busy
  key

task ${t3}(${p1}: string)
  lambda "arn:aws:lambda:ap-northeast-1:123456789012:function:three"
  idempotent

flow
  let ${x1} = ${t1}(${p1}: ${text(random)}, ${p2}: ${in1})
  match ${x1}.${f2}
    none => let ${x2} = ${text(random)}
    some ${x3} => let ${x2} = "{${x3}} ${text(random).slice(1, -1)}"
  let ${x4} = for ${x5} in [${in1}, ${x1}] at most 3
    let ${x6} = ${t2}(${p3}: ${x5}.${f1})
      on busy => fail Busy ${text(random)}
    yield ${x6}
  ${t3}(${p1}: ${x2})
  match ${in2}
    none => succeed ${out1} = ${x2}, ${out2} = ${x1}.${f3}
    some ${x3} => succeed ${out1} = "{${x3}} {${x2}}"
`;
  return { seed, text: flow };
}
