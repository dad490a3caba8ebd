/**
 * How every Python target (pydantic-graph, temporal-python) spells a flow's names as Python
 * identifiers (docs/dandori.md#names-in-generated-code). Python reads an identifier after NFKC
 * normalization (`ｎｏｔｅ` and `ﬁ` are `note` and `fi`), so a name is spelt normalized; a name whose
 * base is a keyword (soft ones too: `match`, `case`, `type`) or a built-in name (`str`, `list`, `id`
 * …) gets `_` after it (`avoidTaken`), as does one the target's own code takes. A name that starts
 * with `__` is refused: inside a class Python rewrites it (`__x` becomes `_Node__x`), and `__x__`
 * names are Python's own. Both targets write the same `types.py` (`types_py.ts`), so its names —
 * records and enums (`stock.reserve` → `stock_reserve`) and each task's `Args_<task>` — are spelt
 * here; each target spells its variables and tasks in its own `names.ts`.
 * @module
 */

import { pythonLiteral } from "../../chobo/python_names.ts";
import { type Text, tr } from "../../../lang/common/text.ts";
import { PYTHON_KEYWORDS } from "../../chobo/names.ts";
import type { Plan } from "../../../lang/dandori/plan.ts";
import { avoidTaken, type Refused, type Spelled, unspellable } from "../naming.ts";

/** The names of Python's `builtins` module (3.11–3.13), but its `__x__` names, which are refused anyway. */
const BUILTINS = [
  "ArithmeticError",
  "AssertionError",
  "AttributeError",
  "BaseException",
  "BaseExceptionGroup",
  "BlockingIOError",
  "BrokenPipeError",
  "BufferError",
  "BytesWarning",
  "ChildProcessError",
  "ConnectionAbortedError",
  "ConnectionError",
  "ConnectionRefusedError",
  "ConnectionResetError",
  "DeprecationWarning",
  "EOFError",
  "Ellipsis",
  "EncodingWarning",
  "EnvironmentError",
  "Exception",
  "ExceptionGroup",
  "FileExistsError",
  "FileNotFoundError",
  "FloatingPointError",
  "FutureWarning",
  "GeneratorExit",
  "IOError",
  "ImportError",
  "ImportWarning",
  "IndentationError",
  "IndexError",
  "InterruptedError",
  "IsADirectoryError",
  "KeyError",
  "KeyboardInterrupt",
  "LookupError",
  "MemoryError",
  "ModuleNotFoundError",
  "NameError",
  "NotADirectoryError",
  "NotImplemented",
  "NotImplementedError",
  "OSError",
  "OverflowError",
  "PendingDeprecationWarning",
  "PermissionError",
  "ProcessLookupError",
  "PythonFinalizationError",
  "RecursionError",
  "ReferenceError",
  "ResourceWarning",
  "RuntimeError",
  "RuntimeWarning",
  "StopAsyncIteration",
  "StopIteration",
  "SyntaxError",
  "SyntaxWarning",
  "SystemError",
  "SystemExit",
  "TabError",
  "TimeoutError",
  "TypeError",
  "UnboundLocalError",
  "UnicodeDecodeError",
  "UnicodeEncodeError",
  "UnicodeError",
  "UnicodeTranslateError",
  "UnicodeWarning",
  "UserWarning",
  "ValueError",
  "Warning",
  "ZeroDivisionError",
  "abs",
  "aiter",
  "all",
  "anext",
  "any",
  "ascii",
  "bin",
  "bool",
  "breakpoint",
  "bytearray",
  "bytes",
  "callable",
  "chr",
  "classmethod",
  "compile",
  "complex",
  "copyright",
  "credits",
  "delattr",
  "dict",
  "dir",
  "divmod",
  "enumerate",
  "eval",
  "exec",
  "exit",
  "filter",
  "float",
  "format",
  "frozenset",
  "getattr",
  "globals",
  "hasattr",
  "hash",
  "help",
  "hex",
  "id",
  "input",
  "int",
  "isinstance",
  "issubclass",
  "iter",
  "len",
  "license",
  "list",
  "locals",
  "map",
  "max",
  "memoryview",
  "min",
  "next",
  "object",
  "oct",
  "open",
  "ord",
  "pow",
  "print",
  "property",
  "quit",
  "range",
  "repr",
  "reversed",
  "round",
  "set",
  "setattr",
  "slice",
  "sorted",
  "staticmethod",
  "str",
  "sum",
  "super",
  "tuple",
  "vars",
  "zip",
];

/** What no Python name of a flow is spelt as: keywords and built-in names. */
const RESERVED = new Set([...PYTHON_KEYWORDS, ...BUILTINS]);

/** What Python takes as an identifier (after NFKC). */
export const PYTHON_IDENTIFIER = /^[\p{XID_Start}_][\p{XID_Continue}]*$/u;

/** A name as Python reads it: NFKC-normalized. */
export function pythonNormal(name: string): string {
  return name.normalize("NFKC");
}

/**
 * A name as a Python identifier: normalized, with `_` after a base that is reserved, that starts
 * with `dd_` (every target keeps those for itself) or that the target's code takes (`taken`).
 */
export function pythonIdent(name: string, taken: (base: string) => boolean): string {
  return avoidTaken(
    pythonNormal(name),
    (base) => RESERVED.has(base) || taken(base) || base.startsWith("dd_"),
  );
}

/** Why Python cannot take a name at all (it starts with `__`), or null. */
export function pythonRefusal(name: string): Text | null {
  return pythonNormal(name).startsWith("__")
    ? tr(
      "Python rewrites a name that starts with `__` inside a class, and keeps `__x__` names for itself",
      "Python はクラスの中で `__` で始まる名前を書き換え、`__x__` の名前は自分のものにしています",
    )
    : null;
}

/** The names `types.py` declares or imports itself. */
const TYPES_TAKEN = new Set(["dd", "typing", "annotations", "WorkflowInput", "WorkflowOutput"]);

/** A record's or an enum's type name in `types.py` (`stock.reserve` → `stock_reserve`). */
export function typeName(name: string): string {
  return pythonIdent(name.replaceAll(".", "_"), (base) => TYPES_TAKEN.has(base));
}

/** The TypedDict of a task's arguments in `types.py`. */
export function argsType(task: string): string {
  return `Args_${pythonNormal(task)}`;
}

/** A Python string literal in double quotes, one line. */
export function str(text: string): string {
  return pythonLiteral(text, '"');
}

/** Every name `types.py` declares for the flow: records and their checks, enums and their values, `Args_<task>`. */
export function typesNames(plan: Plan): Spelled[] {
  return [
    ...plan.records.flatMap((r) => {
      const t = { scope: "types.py", name: r.name, what: "record" as const, line: r.line };
      return [{ ...t, spelling: typeName(r.name) }, { ...t, spelling: `is_${typeName(r.name)}` }];
    }),
    ...plan.enums.flatMap((e) => {
      const t = { scope: "types.py", name: e.name, what: "enum" as const, line: e.line };
      return [{ ...t, spelling: typeName(e.name) }, { ...t, spelling: `${typeName(e.name)}_VALUES` }];
    }),
    ...plan.tasks.map((t) => ({
      scope: "types.py",
      name: t.name,
      what: "task" as const,
      line: t.line,
      spelling: argsType(t.name),
    })),
  ];
}

/** The names Python cannot take: those that start with `__`, and spellings that are no Python identifier. */
export function pythonRefused(spelled: readonly Spelled[]): Refused[] {
  const refused = spelled.flatMap((s) => {
    const why = pythonRefusal(s.name);
    return why === null ? [] : [{ name: s.name, what: s.what, line: s.line, why }];
  });
  const odd = unspellable(
    spelled,
    PYTHON_IDENTIFIER,
    tr("it is not a Python identifier", "Python の識別子ではありません"),
  );
  return [...new Map([...refused, ...odd].map((r) => [`${r.what}\u0000${r.name}`, r])).values()];
}

/** A statement's place as a part of an identifier (`s12:period` → `s12_period`). */
export function placeName(place: string): string {
  return place.replace(/[^A-Za-z0-9_]/g, "_");
}
