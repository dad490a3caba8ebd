/**
 * dandori's syntax tree: what `parseFlow` reads from a `.flow` file (docs/design/dandori.md).
 *
 * Every node the checker may point at carries its 1-based line and column (code points). Nothing
 * here is resolved: names are words as written, types are spellings, and which name means a rule, a
 * task, a case or a variable is the resolver's business.
 * @module
 */

/** A place in the source: 1-based line, 1-based column in code points. */
export interface Pos {
  readonly line: number;
  readonly col: number;
}

/** A word of the source (a name, a keyword argument, a number's digits) with its place. */
export interface Word extends Pos {
  readonly text: string;
}

/** A string literal read as plain text (escapes `\"` and `\\` undone); braces are kept as written. */
export interface Str extends Pos {
  readonly text: string;
}

/**
 * `…` written where the design's examples shorten a text (docs/design/dandori.md#file-shape). It is read
 * so those examples parse;
 * `FlowAst.elisions` lists every one so a later stage can refuse a file that still has them.
 */
export interface ElidedAst extends Pos {
  readonly kind: "elided";
}

// ---------------------------------------------------------------------------------------------
// Types and ranges (docs/design/dandori.md#types, docs/design/dandori.md#ranges)

/** `int`, `string`, `Booking`, `payment_intent.status`, `warehouse.Order.Line`: a dotted name. */
export interface NamedTypeAst extends Pos {
  readonly kind: "named";
  readonly parts: readonly Word[];
}

/**
 * A number with a unit: `money[円, incl_tax]`, `mass[kg]`, `temperature[℃]`, `rate[step 0.1%]`.
 * `step` is the rate's step as written (`0.1%`; a full-width `％` is read as `%`).
 */
export interface UnitTypeAst extends Pos {
  readonly kind: "unit";
  readonly dimension: Word;
  readonly step: Word | null;
  readonly unit: Word | null;
  readonly tax: Word | null;
}

/** `list[T]` */
export interface ListTypeAst extends Pos {
  readonly kind: "list";
  readonly element: TypeAst;
}

/** `T?`, placed where `T` starts. */
export interface OptionalTypeAst extends Pos {
  readonly kind: "optional";
  readonly inner: TypeAst;
}

/** A type as written. */
export type TypeAst = NamedTypeAst | UnitTypeAst | ListTypeAst | OptionalTypeAst;

/** The value of one end of a range: a number (maybe with a unit), a date, or an enum value. */
export type BoundValueAst =
  | { readonly kind: "number"; readonly number: Word; readonly unit: Word | null }
  | { readonly kind: "date"; readonly date: Word }
  | { readonly kind: "name"; readonly name: Word };

/** `>=<value>` or `<=<value>` */
export interface BoundAst extends Pos {
  readonly op: ">=" | "<=";
  readonly value: BoundValueAst;
}

/** `range >=1 <=30`, `range >=2026-01-01 offset +09:00`; either end may be missing. */
export interface RangeAst extends Pos {
  readonly lower: BoundAst | null;
  readonly upper: BoundAst | null;
  /** `+09:00` as written, when `offset` follows the ends. */
  readonly offset: Word | null;
}

/**
 * `name : type [range …] [secret]`: a record field, an input, an output, or a task parameter
 * (`name: type …` in the task's parentheses).
 */
export interface FieldAst extends Pos {
  readonly kind: "field";
  readonly name: Word;
  readonly type: TypeAst;
  readonly range: RangeAst | null;
  /** Where `secret` is written (docs/design/dandori.md#secrets-and-plain-http), or null. */
  readonly secret: Pos | null;
}

// ---------------------------------------------------------------------------------------------
// Expressions and statements (docs/design/dandori.md#statements-and-values)

/** One piece of a string literal in a value: text, or an embedded `{value}`. */
export type StringPartAst =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "hole"; readonly value: ExprAst };

/** A value: names and fields, literals, `none`, `now`, `{…}` records, `[…]` lists. */
export type ExprAst =
  | ({ readonly kind: "path"; readonly parts: readonly Word[] } & Pos)
  | ({ readonly kind: "number"; readonly text: string } & Pos)
  | ({ readonly kind: "string"; readonly parts: readonly StringPartAst[] } & Pos)
  | ({ readonly kind: "bool"; readonly value: boolean } & Pos)
  | ({ readonly kind: "none" } & Pos)
  | ({ readonly kind: "now" } & Pos)
  | ({ readonly kind: "record"; readonly fields: readonly RecordEntryAst[] } & Pos)
  | ({ readonly kind: "list"; readonly items: readonly ExprAst[] } & Pos)
  | ElidedAst;

/** `name: value` in a `{…}` record. */
export interface RecordEntryAst extends Pos {
  readonly name: Word;
  readonly value: ExprAst;
}

/** `name: value` in a call, or `…`. */
export type ArgAst =
  | ({ readonly kind: "arg"; readonly name: Word; readonly value: ExprAst } & Pos)
  | ElidedAst;

/** `t(a: …)`, `terms.payment(received: now)`: the callee as a dotted name and the named arguments. */
export interface CallAst extends Pos {
  readonly callee: readonly Word[];
  readonly args: readonly ArgAst[];
}

/** `on e1, e2 => …` under a call: the errors it handles and what runs then. */
export interface HandlerAst extends Pos {
  readonly errors: readonly Word[];
  readonly body: readonly StmtAst[];
}

/** One pattern of a `match` arm. */
export type PatternAst =
  | ({ readonly kind: "value"; readonly name: Word } & Pos)
  | ({ readonly kind: "bool"; readonly value: boolean } & Pos)
  | ({ readonly kind: "none" } & Pos)
  | ({ readonly kind: "some"; readonly name: Word } & Pos)
  | ElidedAst;

/** `<pattern>, … => …` */
export interface ArmAst extends Pos {
  readonly patterns: readonly PatternAst[];
  readonly body: readonly StmtAst[];
}

/** `<n> seconds|minutes|hours|days` (singular words too). */
export interface DurationAst extends Pos {
  readonly amount: Word;
  readonly unit: Word;
}

/** `let x = t(…)`, `t(…)`, `c <- t(…)` with the handlers written under it. */
export interface CallStmtAst extends Pos {
  readonly kind: "call";
  /** `let x[: T] =` or `c <-` before the call, or null for a bare call. */
  readonly bind:
    | { readonly kind: "let"; readonly name: Word; readonly type: TypeAst | null }
    | { readonly kind: "case"; readonly name: Word }
    | null;
  readonly call: CallAst;
  readonly handlers: readonly HandlerAst[];
}

/** `let x[: T] = <value>` */
export interface LetStmtAst extends Pos {
  readonly kind: "let";
  readonly name: Word;
  readonly type: TypeAst | null;
  readonly value: ExprAst;
}

/** `match <value>` and its arms. */
export interface MatchStmtAst extends Pos {
  readonly kind: "match";
  readonly subject: ExprAst;
  readonly arms: readonly ArmAst[];
}

/** `wait <n> <time word>` or `wait until <timestamp>`. */
export interface WaitStmtAst extends Pos {
  readonly kind: "wait";
  readonly duration: DurationAst | null;
  readonly until: ExprAst | null;
}

/** `repeat at most <n> times` and its body. */
export interface RepeatStmtAst extends Pos {
  readonly kind: "repeat";
  readonly atMost: Word;
  readonly body: readonly StmtAst[];
}

/** `[let r =] for x in <list> at most <n> [in parallel[, <k> at a time]]` and its body. */
export interface ForStmtAst extends Pos {
  readonly kind: "for";
  readonly bind: Word | null;
  readonly variable: Word;
  readonly list: ExprAst;
  readonly atMost: Word;
  /** Where `in parallel` is written and the `k` of `, k at a time`, or null for one at a time. */
  readonly parallel: { readonly at: Pos; readonly together: Word | null } | null;
  readonly body: readonly StmtAst[];
}

/** `succeed [<output> = <value>, …]` */
export interface SucceedStmtAst extends Pos {
  readonly kind: "succeed";
  readonly outputs: readonly { readonly name: Word; readonly value: ExprAst }[];
}

/** `fail <error> ["<reason>"] [leaving <case>, …]`; the reason may embed values. */
export interface FailStmtAst extends Pos {
  readonly kind: "fail";
  readonly error: Word;
  readonly reason: ExprAst | null;
  readonly leaving: readonly Word[];
}

/** A statement of `flow`, `on failure` or `on cancel`. */
export type StmtAst =
  | CallStmtAst
  | LetStmtAst
  | MatchStmtAst
  | WaitStmtAst
  | RepeatStmtAst
  | ForStmtAst
  | SucceedStmtAst
  | FailStmtAst
  | ({ readonly kind: "yield"; readonly value: ExprAst } & Pos)
  | ({ readonly kind: "break" } & Pos)
  | ({ readonly kind: "pass" } & Pos)
  | ElidedAst;

// ---------------------------------------------------------------------------------------------
// Declarations (docs/design/dandori.md#declarations)

/** `workflow <name> v<n> [implements <api>.<service>]` and the lines under it. */
export interface WorkflowAst extends Pos {
  readonly name: Word;
  /** `v1` as written. */
  readonly version: Word;
  /** The API of `use proto` and the service's name as written (simple, package or full name). */
  readonly implements: { readonly api: Word; readonly service: readonly Word[] } | null;
  readonly historyEncrypted: Pos | null;
  /** `now range …`: the period the workflow runs in (docs/design/dandori.md#the-workflow-period). */
  readonly period: RangeAst | null;
}

/** `description "…"` */
export interface DescriptionAst extends Pos {
  readonly text: string;
}

/** A line under `use`: `lambda "…"`, `connect "…"`, `connection "…"`, `url "…"`, `plaintext "…"`, `local`. */
export type UseItemAst =
  | ({
    readonly kind: "lambda" | "connect" | "connection" | "url" | "plaintext";
    readonly value: Str;
  } & Pos)
  | ({ readonly kind: "local" } & Pos);

/** `use rule|dates|book|openapi|smithy|proto <name> from "<path>"` and its lines. */
export interface UseAst extends Pos {
  readonly source: Word;
  readonly name: Word;
  readonly path: Str;
  readonly items: readonly UseItemAst[];
}

/** `record <Name>` and its fields. */
export interface RecordAst extends Pos {
  readonly name: Word;
  readonly fields: readonly (FieldAst | ElidedAst)[];
}

/** `enum <Name> = a | b | c` */
export interface EnumAst extends Pos {
  readonly name: Word;
  readonly values: readonly Word[];
}

/** The result after `->`: a type with its range and `secret`. */
export interface ResultAst extends Pos {
  readonly type: TypeAst;
  readonly range: RangeAst | null;
  readonly secret: Pos | null;
}

/** `<name> = 402` or `<name> = NotFoundException` in `errors`; `value` is null when only the name is written. */
export interface ErrorDeclAst extends Pos {
  readonly name: Word;
  readonly value:
    | { readonly kind: "status"; readonly status: Word }
    | { readonly kind: "name"; readonly name: Word }
    | null;
}

/**
 * A line under `jev` (a decision model, which this toolchain parses but does not check): a value's meaning
 * (`returns "…"`), a field's question (`verdict score "…"` with the meanings under it), or
 * `<field> confidence of <field>`.
 */
export type JevEntryAst =
  | ({
    readonly kind: "entry";
    readonly name: Word;
    readonly score: Pos | null;
    readonly text: Str | null;
    readonly entries: readonly JevEntryAst[];
  } & Pos)
  | ({ readonly kind: "confidence"; readonly name: Word; readonly of: Word } & Pos)
  | ElidedAst;

/** Where a child workflow is on each platform: `workflow "…"`, `state machine "…"`, … */
export type ChildPlatform = "workflow" | "state machine" | "durable function" | "workflow template";

/** One line under `task` (docs/design/dandori.md#ways-of-calling-a-task). */
export type TaskItemAst =
  | ({
    readonly kind: "lambda" | "connection" | "model" | "url" | "plaintext" | "flow" | "queue" | "image";
    readonly value: Str;
  } & Pos)
  | ({ readonly kind: "child"; readonly platform: ChildPlatform; readonly value: Str } & Pos)
  | ({
    readonly kind: "http";
    readonly method: Word;
    readonly api: Word | null;
    readonly url: Str;
    readonly form: Pos | null;
  } & Pos)
  | ({ readonly kind: "aws"; readonly service: Word; readonly operation: Word } & Pos)
  | ({ readonly kind: "agent"; readonly provider: Word | null; readonly instructions: Str } & Pos)
  | ({ readonly kind: "effort"; readonly level: Word } & Pos)
  | ({
    readonly kind: "jev";
    readonly provider: Word | null;
    readonly score: Pos | null;
    readonly question: Str | null;
    readonly entries: readonly JevEntryAst[];
  } & Pos)
  | ({ readonly kind: "confidence"; readonly threshold: Word; readonly error: Word } & Pos)
  | ({ readonly kind: "refusal"; readonly error: Word } & Pos)
  | ({ readonly kind: "connect"; readonly api: Word; readonly method: Str } & Pos)
  | ({ readonly kind: "errors"; readonly errors: readonly ErrorDeclAst[] } & Pos)
  | ({
    readonly kind: "retry";
    readonly times: Word;
    readonly every: DurationAst | null;
    readonly backoff: Word | null;
    readonly on: readonly Word[];
  } & Pos)
  | ({ readonly kind: "timeout"; readonly after: DurationAst | null; readonly until: Word | null } & Pos)
  | ({ readonly kind: "key"; readonly param: Word | null } & Pos)
  | ({ readonly kind: "idempotent" | "callback" | "event" | "observes" } & Pos)
  | ({ readonly kind: "starts"; readonly machine: readonly Word[]; readonly then: readonly Word[] } & Pos)
  | ({ readonly kind: "sends"; readonly event: Word } & Pos)
  | ({ readonly kind: "refused as"; readonly error: Word } & Pos)
  | ({ readonly kind: "book"; readonly book: Word; readonly transfer: Word; readonly operation: Word } & Pos)
  | ({ readonly kind: "discloses"; readonly params: readonly Word[]; readonly reason: Str } & Pos)
  | ElidedAst;

/** `task <name>(<params>) [-> <type>]` and its items. */
export interface TaskAst extends Pos {
  readonly name: Word;
  readonly params: readonly (FieldAst | ElidedAst)[];
  readonly result: ResultAst | null;
  readonly items: readonly TaskItemAst[];
}

/** One line under `case` (docs/design/dandori.md#cases). */
export type CaseItemAst =
  | ({ readonly kind: "held"; readonly input: Word; readonly value: ExprAst } & Pos)
  | ({ readonly kind: "external"; readonly events: readonly Word[] } & Pos)
  | ({ readonly kind: "state"; readonly field: Word } & Pos)
  | ({ readonly kind: "refused when"; readonly output: Word; readonly value: ExprAst } & Pos)
  | ElidedAst;

/** `case <name> : <record> follows <rule>.<machine>` (or `<book>.<transfer>` twice) and its items. */
export interface CaseAst extends Pos {
  readonly name: Word;
  readonly type: readonly Word[];
  readonly follows: readonly Word[];
  readonly items: readonly CaseItemAst[];
}

/** An `inputs` or `outputs` block: field lines like a record's. */
export interface PortsAst extends Pos {
  readonly fields: readonly (FieldAst | ElidedAst)[];
}

/** `flow`, `on failure` or `on cancel` and its statements. */
export interface BodyAst extends Pos {
  readonly body: readonly StmtAst[];
}

/** The syntax tree of one `.flow` file, each kind of declaration in written order. */
export interface FlowAst {
  readonly workflows: WorkflowAst[];
  readonly descriptions: DescriptionAst[];
  readonly uses: UseAst[];
  readonly records: RecordAst[];
  readonly enums: EnumAst[];
  readonly tasks: TaskAst[];
  readonly cases: CaseAst[];
  readonly inputs: PortsAst[];
  readonly outputs: PortsAst[];
  readonly flows: BodyAst[];
  readonly onFailure: BodyAst[];
  readonly onCancel: BodyAst[];
  /** Every `…` that was read, in source order. */
  readonly elisions: Pos[];
}
