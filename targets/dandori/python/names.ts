/**
 * How every Python target (pydantic-graph today) spells a flow's names as Python identifiers
 * (docs/dandori.md#names-in-generated-code). Python reads an identifier after NFKC normalization
 * (`ｎｏｔｅ` and `ﬁ` are `note` and `fi`), so a name is spelt normalized; a name whose base is a
 * keyword (soft ones too: `match`, `case`, `type`) or a built-in name (`str`, `list`, `id` …) gets
 * `_` after it (`avoidTaken`), as does one the target's own code takes. A name that starts with
 * `__` is refused: inside a class Python rewrites it (`__x` becomes `_Node__x`), and `__x__` names
 * are Python's own.
 * @module
 */

import { type Text, tr } from "../../../lang/common/text.ts";
import { PYTHON_KEYWORDS } from "../../chobo/names.ts";
import { avoidTaken } from "../naming.ts";

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
export function pythonIdent(name: string, taken: ReadonlySet<string>): string {
  return avoidTaken(
    pythonNormal(name),
    (base) => RESERVED.has(base) || taken.has(base) || base.startsWith("dd_"),
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
