/**
 * The names a state machine gives what the plan names: each variable of the flow a state-machine
 * variable, each statement its states.
 *
 * - A flow's variable keeps its name (Step Functions' variables take Unicode identifiers),
 *   unless JSONata would read it as something else: `$count` or `$string` assigned would hide the
 *   functions every generated expression calls, `$states` is Step Functions' own, a member of
 *   every JavaScript object (`$toString`) is what JSONata's environment would read when unset, and
 *   names beginning with `dd_` are the generated state's. Such a name gets `_` after it (`count_`),
 *   again until no other variable has the spelling.
 * - A state is named after its statement's place and what it does there (`s40 charge_card`,
 *   `s40 result`), so a name says where in the flow it is, and Step Functions' rule that names are
 *   unique in the whole machine, nested iterations included, holds because places are.
 * @module
 */

/** Step Functions' longest state name. */
export const MAX_STATE_NAME = 80;

/** JSONata 2.0.6's functions, and those Step Functions adds ($partition … $parse). */
const JSONATA_FUNCTIONS = [
  "sum",
  "count",
  "max",
  "min",
  "average",
  "string",
  "substring",
  "substringBefore",
  "substringAfter",
  "lowercase",
  "uppercase",
  "length",
  "trim",
  "pad",
  "match",
  "contains",
  "replace",
  "split",
  "join",
  "formatNumber",
  "formatBase",
  "formatInteger",
  "parseInteger",
  "number",
  "floor",
  "ceil",
  "round",
  "abs",
  "sqrt",
  "power",
  "random",
  "boolean",
  "not",
  "map",
  "zip",
  "filter",
  "single",
  "reduce",
  "sift",
  "keys",
  "lookup",
  "append",
  "exists",
  "spread",
  "merge",
  "reverse",
  "each",
  "error",
  "assert",
  "type",
  "sort",
  "shuffle",
  "distinct",
  "base64encode",
  "base64decode",
  "encodeUrlComponent",
  "encodeUrl",
  "decodeUrlComponent",
  "decodeUrl",
  "eval",
  "toMillis",
  "fromMillis",
  "clone",
  "now",
  "millis",
  "partition",
  "range",
  "hash",
  "uuid",
  "parse",
];

/**
 * What no flow variable may be spelled as: JSONata's functions, Step Functions' `$states`, and the
 * members every JavaScript object has (JSONata keeps a state's variables in an object's keys, and
 * jsonata-js calls `bindings.hasOwnProperty`, so `$hasOwnProperty` assigned breaks every evaluation).
 */
const RESERVED = new Set([...JSONATA_FUNCTIONS, "states", ...Object.getOwnPropertyNames(Object.prototype)]);

/** The prefix of the variables the generated states keep for themselves. */
export const OWN_PREFIX = "dd_";

/**
 * Each flow variable's name in the state machine, in the order given.
 *
 * @example
 * ```ts
 * variableNames(["order", "count", "count_"]); // order → order, count → count__, count_ → count_
 * ```
 */
export function variableNames(names: readonly string[]): Map<string, string> {
  const taken = new Set(names.filter((n) => !RESERVED.has(n) && !n.startsWith(OWN_PREFIX)));
  const out = new Map<string, string>();
  for (const n of names) {
    if (!RESERVED.has(n) && !n.startsWith(OWN_PREFIX)) {
      out.set(n, n);
      continue;
    }
    let spelled = `${n}_`;
    while (taken.has(spelled)) spelled += "_";
    taken.add(spelled);
    out.set(n, spelled);
  }
  return out;
}

/**
 * A state's name: the place and what the state does there, cut to Step Functions' longest name
 * (the place and the role alone when the task's name makes it longer).
 */
export function stateName(place: string, role: string): string {
  const name = `${place} ${role}`;
  return [...name].length <= MAX_STATE_NAME ? name : place;
}

/** The place a state's name begins with (`s40` of `s40 charge_card`), or null for the machine's own states. */
export function placeOfState(name: string): string | null {
  const m = /^(s[0-9]+)(?: |$)/.exec(name);
  return m === null ? null : m[1];
}
