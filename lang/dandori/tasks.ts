/**
 * Resolution of a flow's tasks (docs/design/dandori.md#ways-of-calling-a-task): how each is called,
 * which items that way takes (E007, by the table of items.ts and the few checks that need more
 * than the item and the method), what it does to a case (E008), and for a book task, how it fits
 * its transfer (E016).
 * @module
 */

import { assert, unreachable } from "../common/assert.ts";
import { didYouMean } from "../common/nearest.ts";
import { hintOf, type Reporter } from "../common/reporter.ts";
import { type Text, tr } from "../common/text.ts";
import { type ArnKind, arnShape, hasArnShape } from "./arns.ts";
import { AWS_SERVICES } from "./aws.ts";
import { AWS_MODELS, awsOperations } from "./aws_operations.ts";
import type { DandoriCode } from "./codes.ts";
import type { ElidedAst, FieldAst, Pos, Str, TaskAst, TaskItemAst, TypeAst, Word } from "./ast.ts";
import { bookCall } from "./booktasks.ts";
import type { BookPort } from "./books.ts";
import { CALLBACK_WAYS, type ItemAspect, itemRefusal, NO_PLAIN_URL } from "./items.ts";
import { durationSeconds } from "./lexer.ts";
import { checkAgentTask, providerOf } from "./agent_check.ts";
import {
  type AgentDef,
  type BookCall,
  BUILTIN_ERRORS,
  DEFAULT_ANSWER_SECONDS,
  DEFAULT_BACKOFF,
  DEFAULT_RETRY_INTERVAL_SECONDS,
  type Method,
  type Retry,
  type TaskDef,
  type Timeout,
} from "./model.ts";
import type { Placed, Where } from "./descriptions.ts";
import { matchOperation, type OpenApi } from "./openapi.ts";
import { type AwsTaskShape, JSON_TEXT_MEMBERS, matchAwsOperation, type Smithy } from "./smithy.ts";
import { matchConnect, type Proto } from "./proto.ts";
import { CONNECT_STATUS, connectCall, declaredCode } from "./connect.ts";
import { type FieldDef, type Range, showTy, type Ty, type TypeTable } from "./types.ts";
import { readUrl } from "./urls.ts";

/** What resolving a task reads from its flow: the reporter, the books, the API descriptions, and the types. */
export interface TaskScope {
  readonly r: Reporter<DandoriCode>;
  readonly books: ReadonlyMap<string, BookPort>;
  readonly apis: ReadonlyMap<string, OpenApi>;
  /** The Smithy models of `use smithy`, by the name an `aws` task writes as its service. */
  readonly smithies: ReadonlyMap<string, Smithy>;
  /** The proto descriptions of `use proto`, by the name a `connect` task writes as its API. */
  readonly protos: ReadonlyMap<string, Proto>;
  readonly types: TypeTable;
  readonly fields: (asts: readonly (FieldAst | ElidedAst)[], what: Text) => FieldDef[];
  readonly type: (t: TypeAst) => Ty | null;
  readonly range: (ast: NonNullable<FieldAst["range"]>, type: Ty) => Range | null;
}

/** A task's item as written: everything but `…`. */
type Item = Exclude<TaskItemAst, ElidedAst>;

/** The item of kind `K` (an intersection, so the kinds that share a shape narrow too). */
type ItemOf<K extends Item["kind"]> = Item & { readonly kind: K };

/** Items that say how a task is called; at most one may be written (E007). */
const METHOD_ITEMS: ReadonlyMap<Item["kind"], Method> = new Map<Item["kind"], Method>([
  ["lambda", "lambda"],
  ["http", "http"],
  ["aws", "aws"],
  ["connect", "connect"],
  ["agent", "agent"],
  ["jev", "jev"],
  ["book", "book"],
  ["flow", "flow"],
  ["event", "event"],
  ["child", "child"],
]);

/** How a task calling an OpenAPI operation is called: its URL (null when it did not match) and body. */
interface ApiCall {
  readonly url: string | null;
  readonly form: boolean;
}

/** Items that may be written once under a task (E007 when twice). */
const ONCE_ITEMS: readonly Item["kind"][] = [
  "errors",
  "retry",
  "timeout",
  "key",
  "idempotent",
  "callback",
  "observes",
  "starts",
  "sends",
  "refused as",
  "model",
  "url",
  "queue",
  "image",
  "connection",
  "effort",
  "confidence",
  "refusal",
  "plaintext",
];

/** The first item of a kind, or undefined. */
function firstOf<K extends Item["kind"]>(
  items: readonly Item[],
  kind: K,
): ItemOf<K> | undefined {
  return items.find((i) => i.kind === kind) as ItemOf<K> | undefined;
}

/** The first item of a kind, which the task is known to have (its method's item). */
function only<K extends Item["kind"]>(items: readonly Item[], kind: K): ItemOf<K> {
  const item = firstOf(items, kind);
  assert(item !== undefined, `a task called by \`${kind}\` has a \`${kind}\` item`);
  return item;
}

/** The task as the later stages read it, from its parts and its items. */
function definition(
  t: TaskAst,
  items: readonly Item[],
  parts: Pick<TaskDef, "params" | "result" | "method" | "book" | "errors" | "connect">,
  called: ApiCall | null,
): TaskDef {
  const http = firstOf(items, "http");
  const aws = firstOf(items, "aws");
  const flow = firstOf(items, "flow");
  const retry = firstOf(items, "retry");
  const starts = firstOf(items, "starts");
  return {
    name: t.name.text,
    line: t.line,
    col: t.col,
    ...parts,
    verb: http?.method.text ?? (aws === undefined ? null : aws.operation.text),
    url: http === undefined || (called !== null && called.url === null)
      ? null
      : { text: called?.url ?? http.url.text, line: http.url.line, col: http.url.col },
    form: called?.form ?? http?.form != null,
    callee: firstOf(items, "lambda")?.value.text ??
      (aws === undefined ? null : `${aws.service.text}:${aws.operation.text}`) ??
      connectCallee(firstOf(items, "connect")),
    discloses: new Set(items.flatMap((i) => i.kind === "discloses" ? i.params.map((w) => w.text) : [])),
    plaintext: firstOf(items, "plaintext") !== undefined,
    child: flow === undefined ? null : { path: flow.value.text, line: flow.line, col: flow.value.col },
    retry: retry === undefined ? null : retryOf(retry),
    timeout: timeoutOf(
      firstOf(items, "timeout"),
      parts.method === "event" || firstOf(items, "callback") !== undefined,
    ),
    key: firstOf(items, "key") !== undefined,
    idempotent: firstOf(items, "idempotent") !== undefined,
    event: parts.method === "event",
    callback: firstOf(items, "callback") !== undefined,
    starts: starts === undefined ? null : starts.machine.map((w) => w.text).join("."),
    sends: firstOf(items, "sends")?.event.text ?? null,
    agent: parts.method === "agent" ? agentOf(items) : null,
  };
}

/** A `connect` task's callee as its secrecy notes name it: `<api> <Service>/<Method>`; null for another task. */
function connectCallee(connect: ItemOf<"connect"> | undefined): string | null {
  return connect === undefined ? null : `${connect.api.text} ${connect.method.text}`;
}

/** An agent task's request as written (an unknown provider, E007, is read as `openai`). */
function agentOf(items: readonly Item[]): AgentDef {
  const agent = only(items, "agent");
  const url = firstOf(items, "url");
  return {
    provider: providerOf(agent) ?? "openai",
    instructions: agent.instructions.text,
    model: firstOf(items, "model")?.value.text ?? "",
    url: url === undefined ? null : { text: url.value.text, line: url.value.line, col: url.value.col },
    effort: firstOf(items, "effort")?.level.text ?? null,
  };
}

/** A `retry` item with its defaults. */
function retryOf(item: ItemOf<"retry">): Retry {
  return {
    line: item.line,
    col: item.col,
    times: Number(item.times.text),
    everySeconds: item.every === null ? DEFAULT_RETRY_INTERVAL_SECONDS : durationSeconds(item.every),
    backoff: item.backoff?.text ?? DEFAULT_BACKOFF,
    on: item.on.length === 0 ? null : item.on.map((w) => w.text),
  };
}

/** A task's `timeout`, or the day a task that waits for an answer waits without one. */
function timeoutOf(item: ItemOf<"timeout"> | undefined, waits: boolean): Timeout | null {
  if (item !== undefined && item.until !== null) return { kind: "until", param: item.until.text };
  if (item !== undefined && item.after !== null) {
    return { kind: "after", seconds: durationSeconds(item.after), written: true };
  }
  return waits ? { kind: "after", seconds: DEFAULT_ANSWER_SECONDS, written: false } : null;
}

/**
 * How a task is called, from its method items: the first one, with a child's platform and a
 * `flow "<path>"` going together; E007 for a second way.
 */
function methodOf(
  t: TaskAst,
  items: readonly Item[],
  r: Reporter<DandoriCode>,
): { method: Method; at: Pos | null } {
  let method: Method = "own";
  let at: Pos | null = null;
  for (const item of items) {
    const m = METHOD_ITEMS.get(item.kind);
    if (m === undefined) continue;
    const compatible = (method === "flow" && m === "child") ||
      (method === "child" && (m === "child" || m === "flow"));
    if (method !== "own" && !compatible) {
      r.error(
        "E007",
        item,
        tr(
          `\`${t.name.text}\` is called two ways: \`${item.kind}\` and \`${method}\``,
          `\`${t.name.text}\` の呼び出し方が二つあります: \`${item.kind}\` と \`${method}\``,
        ),
        {
          hint: tr(
            "a task is called one way; keep one",
            "タスクの呼び出し方は一つです。一つを残してください",
          ),
        },
      );
      continue;
    }
    method = method === "child" && m === "flow" ? "flow" : method === "flow" ? "flow" : m;
    at ??= item;
  }
  return { method, at };
}

/** E007 for an item written twice where once is all a task takes. */
function writtenOnce(t: TaskAst, items: readonly Item[], r: Reporter<DandoriCode>): void {
  const seen = new Set<string>();
  for (const item of items) {
    if (!ONCE_ITEMS.includes(item.kind)) continue;
    if (seen.has(item.kind)) {
      r.error(
        "E007",
        item,
        tr(
          `\`${item.kind}\` is written twice under \`${t.name.text}\``,
          `\`${t.name.text}\` の下に \`${item.kind}\` が二つあります`,
        ),
        { hint: tr("write it once", "一度だけ書いてください") },
      );
    }
    seen.add(item.kind);
  }
}

/**
 * The errors a task declares, by name; E006 for one declared twice or one every task has (`timeout`,
 * `failure`).
 */
function declaredErrors(items: readonly Item[], r: Reporter<DandoriCode>): Map<string, Pos> {
  const errors = new Map<string, Pos>();
  for (const item of items) {
    if (item.kind !== "errors") continue;
    for (const e of item.errors) {
      const builtin = BUILTIN_ERRORS.includes(e.name.text);
      if (!builtin && !errors.has(e.name.text)) {
        errors.set(e.name.text, e.name);
        continue;
      }
      r.error(
        "E006",
        e.name,
        builtin
          ? tr(
            `\`${e.name.text}\` is an error every task has; it is not declared`,
            `\`${e.name.text}\` はどのタスクにもあるエラーで、宣言しません`,
          )
          : tr(
            `the error \`${e.name.text}\` is declared twice`,
            `エラー \`${e.name.text}\` が二度宣言されています`,
          ),
      );
    }
  }
  return errors;
}

/**
 * The aspects of an error written under `errors` (items.ts), most particular first, each with
 * how a message spells it.
 */
function errorAspects(e: ItemOf<"errors">["errors"][number]): [ItemAspect, string][] {
  const name = e.name.text;
  if (e.value === null) return [["errors <name>", `errors ${name}`]];
  if (e.value.kind === "status") return [["<error> = …", `${name} = …`]];
  return [["<error> = <exception>", `${name} = ${e.value.name.text}`], ["<error> = …", `${name} = …`]];
}

/**
 * The items of one task against the way it is called: E007 for
 * what the method does not take, by the table of items.ts, and E002, E003, E007 for what needs
 * more than the item and the method.
 */
class ItemCheck {
  constructor(
    private readonly r: Reporter<DandoriCode>,
    private readonly t: TaskAst,
    private readonly def: TaskDef,
    private readonly items: readonly Item[],
    /** True for an `aws` task whose service a `use smithy` describes: the model says which operations exist. */
    private readonly modelled: boolean,
  ) {}

  run(methodAt: Pos | null): void {
    for (const item of this.items) this.item(item);
    if (this.def.event) this.eventTask(methodAt);
    if (this.def.method === "flow") this.flowCallbacks();
  }

  private item(item: Item): void {
    switch (item.kind) {
      case "key":
        return this.key(item);
      case "refused as":
        if (this.takes(item, [["refused as", "refused as"]])) {
          this.declaredOrBuiltin(item.error, tr("`refused as`", "`refused as`"));
        }
        return;
      case "errors":
        for (const e of item.errors) this.takes(e, errorAspects(e));
        if (this.def.method === "http") this.statusesApart(item);
        if (this.def.method === "connect") this.codesApart(item);
        return;
      case "retry":
        for (const w of item.on) this.declaredOrBuiltin(w, tr("`retry … on`", "`retry … on`"));
        this.takes(item, [["retry", "retry"]]);
        return;
      case "timeout":
        if (item.until !== null) this.timeoutUntil(item, item.until);
        return;
      case "callback":
        if (this.takes(item, [["callback", "callback"]])) this.awsCallback(item);
        return;
      case "image":
      case "model":
      case "effort":
      case "url":
      case "confidence":
      case "refusal":
        this.takes(item, [[item.kind, item.kind]]);
        return;
      case "plaintext":
        return this.plaintext(item);
      case "discloses":
        return this.discloses(item);
      // How the task is called (methodOf), what every method takes, and what the case rules judge (E008).
      case "aws":
        return this.awsService(item);
      case "http":
        return this.url(item);
      case "lambda":
        return this.address(item, item.value, "function");
      case "connection":
        return this.address(item, item.value, "connection");
      case "child":
        if (item.platform === "state machine") this.address(item, item.value, "state machine");
        if (item.platform === "durable function") this.address(item, item.value, "function");
        return;
      case "connect":
      case "agent":
      case "jev":
      case "book":
      case "flow":
      case "event":
      case "queue":
      case "idempotent":
      case "observes":
      case "starts":
      case "sends":
        return;
      default:
        return unreachable(item, "task item");
    }
  }

  /**
   * E007 for the first aspect of an item the task's method does not take (items.ts); true when
   * it takes them all.
   */
  private takes(at: Pos, aspects: readonly (readonly [ItemAspect, string])[]): boolean {
    for (const [aspect, what] of aspects) {
      const why = itemRefusal(aspect, this.def.method);
      if (why === null) continue;
      this.no(at, what, why);
      return false;
    }
    return true;
  }

  private no(at: Pos, what: string, why: Text, hint: Text | null = null): void {
    this.r.error(
      "E007",
      at,
      tr(
        `\`${what}\` cannot be written under \`${this.t.name.text}\`: ${why.en}`,
        `\`${this.t.name.text}\` の下に \`${what}\` は書けません。${why.ja}`,
      ),
      hintOf(hint),
    );
  }

  private param(w: Word): FieldDef | undefined {
    return this.def.params.find((p) => p.name === w.text);
  }

  /** E007 for an argument an item names that the task does not have. */
  private hasParam(at: Pos, what: string, w: Word): void {
    if (this.param(w) !== undefined) return;
    this.no(
      at,
      what,
      tr(`the task has no argument \`${w.text}\``, `タスクに引数 \`${w.text}\` がありません`),
      didYouMean(w.text, this.def.params.map((p) => p.name)),
    );
  }

  /** E002 for an error an item names that the task does not declare and no task has built in. */
  private declaredOrBuiltin(w: Word, where: Text): void {
    if (this.def.errors.has(w.text) || BUILTIN_ERRORS.includes(w.text)) return;
    const name = this.t.name.text;
    this.r.error(
      "E002",
      w,
      tr(
        `\`${name}\` declares no error \`${w.text}\` (${where.en})`,
        `\`${name}\` はエラー \`${w.text}\` を宣言していません(${where.ja})`,
      ),
      {
        hint: didYouMean(w.text, [...this.def.errors.keys(), ...BUILTIN_ERRORS]) ?? tr(
          `declare it with \`errors ${w.text}\`, or use failure or timeout`,
          `\`errors ${w.text}\` で宣言するか、failure か timeout を使ってください`,
        ),
      },
    );
  }

  /** `key`, and `key <argument>` naming an argument the task has. */
  private key(item: ItemOf<"key">): void {
    if (item.param === null) {
      this.takes(item, [["key", "key"]]);
      return;
    }
    const what = `key ${item.param.text}`;
    if (this.takes(item, [["key <argument>", what], ["key", "key"]])) this.hasParam(item, what, item.param);
  }

  /** E007 for two errors of an `http` task with one status: the answer cannot tell them apart. */
  private statusesApart(item: ItemOf<"errors">): void {
    const statuses = new Map<string, string>();
    for (const e of item.errors) {
      if (e.value?.kind !== "status") continue;
      const other = statuses.get(e.value.status.text);
      if (other !== undefined) {
        this.no(
          e,
          `${e.name.text} = ${e.value.status.text}`,
          tr(
            `\`${other}\` has the same status; the two cannot be told apart`,
            `\`${other}\` と同じステータスなので、二つを見分けられません`,
          ),
        );
      }
      statuses.set(e.value.status.text, e.name.text);
    }
  }

  /**
   * E007 at a declared error whose Connect code has the HTTP status of one declared before it
   * (`invalid_argument`, `failed_precondition` and `out_of_range` are all 400): a call tells them
   * apart by status (connect.ts). A name that is no Connect code is E016's (proto.ts).
   */
  private codesApart(item: ItemOf<"errors">): void {
    const statuses = new Map<number, string>();
    for (const e of item.errors) {
      const code = declaredCode(e);
      if (!Object.hasOwn(CONNECT_STATUS, code)) continue;
      const status = CONNECT_STATUS[code];
      const other = statuses.get(status);
      if (other !== undefined) {
        this.no(
          e,
          e.value === null ? code : `${e.name.text} = ${code}`,
          tr(
            `\`${other}\` names a code of the same HTTP status (${status}); the two cannot be told apart`,
            `\`${other}\` と同じ HTTP のステータス(${status})のコードなので、二つを見分けられません`,
          ),
        );
      }
      statuses.set(status, e.name.text);
    }
  }

  /**
   * `timeout until <argument>` (docs/design/dandori.md#timeouts): only a task that waits for an answer waits
   * until a time, and not an `aws` callback (the time is sent with the id, and an `aws` task's arguments
   * are the API's), the argument is a `timestamp`, and no retry comes after the time has passed.
   */
  private timeoutUntil(item: Pos, until: Word): void {
    if (!this.def.event && !this.def.callback) {
      this.no(
        item,
        "timeout until",
        tr(
          "only a task that waits for an answer (`event` or `callback`) waits until a time",
          "時刻まで待てるのは、答えを待つタスク(`event` か `callback`)だけです",
        ),
      );
      return;
    }
    if (this.def.method === "aws") {
      this.no(
        item,
        "timeout until",
        tr(
          "an `aws` task's arguments are the API's, so its callback cannot send the time with its id",
          "`aws` のタスクの引数は API の引数なので、そのコールバックは ID と一緒に時刻を送れません",
        ),
      );
      return;
    }
    const p = this.param(until);
    const name = this.t.name.text;
    if (p === undefined) {
      this.r.error(
        "E002",
        until,
        tr(
          `\`${name}\` has no argument \`${until.text}\``,
          `\`${name}\` に引数 \`${until.text}\` はありません`,
        ),
        hintOf(didYouMean(until.text, this.def.params.map((p) => p.name))),
      );
    } else if (p.type.kind !== "timestamp") {
      const ty = showTy(p.type);
      this.r.error(
        "E003",
        until,
        tr(
          `\`timeout until\` takes a \`timestamp\` argument, and \`${p.name}\` is \`${ty}\``,
          `\`timeout until\` には \`timestamp\` の引数を書きます。\`${p.name}\` は \`${ty}\` です`,
        ),
      );
    }
    const retry = firstOf(this.items, "retry");
    if (retry !== undefined && (retry.on.length === 0 || retry.on.some((w) => w.text === "timeout"))) {
      this.no(
        retry,
        "retry",
        tr(
          "a retry after the time has passed would time out at once; retry only declared errors or failure",
          "期限を過ぎてからのリトライはすぐにまたタイムアウトします。宣言したエラーか failure だけをリトライしてください",
        ),
      );
    }
  }

  /**
   * E007 for a service Step Functions' table does not have (no error of it could be named), and
   * for an operation its API does not have (aws_operations.ts): an SDK's helper, such as a
   * presigned URL, runs on the worker with its credentials and is no call to AWS.
   */
  private awsService(item: ItemOf<"aws">): void {
    const service = item.service.text;
    const operation = item.operation.text;
    if (AWS_SERVICES.has(service)) {
      const operations = awsOperations(service);
      if (operations.has(operation) || this.modelled) return;
      this.r.error(
        "E007",
        item.operation,
        tr(
          `\`${service}\` has no operation \`${operation}\` in its API (the SDKs' helpers, such as presigned URLs, paginators and waiters, are no operations)`,
          `\`${service}\` の API に操作 \`${operation}\` はありません(署名付き URL、ページネーター、ウェイターのような SDK の補助は操作ではありません)`,
        ),
        {
          hint: operations.size === 0
            ? tr(
              `${AWS_MODELS} has no model of \`${service}\`: AWS has discontinued it`,
              `${AWS_MODELS} には \`${service}\` のモデルがありません。AWS が提供を終えたサービスです`,
            )
            : didYouMean(operation, operations) ?? tr(
              `Step Functions calls the operations of ${AWS_MODELS}'s model of \`${service}\`, in camelCase`,
              `Step Functions が呼ぶのは、${AWS_MODELS} の \`${service}\` のモデルの操作です(camelCase で書きます)`,
            ),
        },
      );
      return;
    }
    this.no(
      item.service,
      `aws ${item.service.text}:${item.operation.text}`,
      tr(
        `\`${item.service.text}\` is not an AWS service Step Functions calls (its table of AWS SDK integrations); services are written in lower case, as \`dynamodb\` or \`sesv2\``,
        `\`${item.service.text}\` は Step Functions が呼ぶ AWS のサービス(AWS SDK の統合の表)にありません。サービスは \`dynamodb\` や \`sesv2\` のように小文字で書きます`,
      ),
    );
  }

  /** E007 for an address of an AWS resource that does not have its shape (arns.ts). */
  private address(item: Item, value: Str, kind: ArnKind): void {
    if (hasArnShape(kind, value.text)) return;
    const what = item.kind === "child" ? item.platform : item.kind;
    const name = this.t.name.text;
    const shape = arnShape(kind);
    this.r.error(
      "E007",
      value,
      tr(
        `\`${what}\` of \`${name}\` is not ${shape.en}`,
        `\`${name}\` の \`${what}\` が、${shape.ja}になっていません`,
      ),
    );
  }

  /**
   * E007 for a URL that means something other than it reads (urls.ts), at its character; for an
   * operation of a `use openapi`, E016 at the path for the URL made of the server and the path.
   */
  private url(item: ItemOf<"http">): void {
    if (item.api !== null) return this.apiUrl(item);
    const reading = readUrl(item.url.text, this.def.params.map((p) => p.name));
    if (reading.ok) return;
    const { at, why, hint } = reading.fault;
    const before = [...item.url.text].slice(0, at);
    // Before the first fault there is no backslash, so each character is one column but a quote (`\"`).
    const col = item.url.col + 1 + before.reduce((n, c) => n + (c === '"' ? 2 : 1), 0);
    const name = this.t.name.text;
    this.r.error(
      "E007",
      { line: item.url.line, col },
      tr(`the URL of \`${name}\` ${why.en}`, `\`${name}\` の URL ${why.ja}`),
      hintOf(hint),
    );
  }

  /** The URL of an operation (the description's server, or the `use`'s `url`, and the path) read as a template. */
  private apiUrl(item: ItemOf<"http">): void {
    if (this.def.url === null) return;
    const reading = readUrl(this.def.url.text, this.def.params.map((p) => p.name));
    if (reading.ok) return;
    const { why, hint } = reading.fault;
    const name = this.t.name.text;
    this.r.error(
      "E016",
      item.url,
      tr(
        `the URL of \`${name}\`, ${this.def.url.text} (the server and the operation's path), ${why.en}`,
        `\`${name}\` の URL ${this.def.url.text}(サーバーと操作のパス)${why.ja}`,
      ),
      hintOf(hint),
    );
  }

  /** An `aws` task sends a callback only through `sqs:sendMessage`. */
  private awsCallback(item: Pos): void {
    if (this.def.method === "aws" && this.def.verb !== "sendMessage") {
      this.no(item, "callback", CALLBACK_WAYS);
    }
  }

  /**
   * `plaintext "<reason>"` (docs/design/dandori.md#secrets-and-plain-http): a reason, on a task that sends to
   * an `http://` URL of its own (written, or its operation's server or `url`).
   */
  private plaintext(item: Pos & { readonly value: Str }): void {
    if (item.value.text.trim() === "") {
      this.no(item, "plaintext", tr("the reason is empty", "理由が空です"));
      return;
    }
    if (!this.takes(item, [["plaintext", "plaintext"]])) return;
    // The URL the task calls: an agent's `url`, an `http` task's as written, or the server and path
    // of its operation (null when the operation did not match, which E016 said).
    const url = firstOf(this.items, "http") === undefined ? firstOf(this.items, "url")?.value : this.def.url;
    if (url === undefined) return this.no(item, "plaintext", NO_PLAIN_URL);
    if (url === null) return;
    const reading = readUrl(url.text, this.def.params.map((p) => p.name));
    const plain = reading.ok && reading.template.protocol === "http:";
    if (reading.ok && !plain) this.no(item, "plaintext", NO_PLAIN_URL);
  }

  /** `discloses <argument>, … "<reason>"`: a reason, and arguments the task has. */
  private discloses(item: ItemOf<"discloses">): void {
    if (item.reason.text.trim() === "") this.no(item, "discloses", tr("the reason is empty", "理由が空です"));
    for (const w of item.params) this.hasParam(w, `discloses ${w.text}`, w);
  }

  /**
   * An event task (docs/design/dandori.md#ways-of-calling-a-task) sends nothing and waits for its event: no
   * argument but the time, no callback.
   */
  private eventTask(methodAt: Pos | null): void {
    const until = this.items.find((i) => i.kind === "timeout" && i.until !== null);
    const untilName = until?.kind === "timeout" ? until.until?.text : undefined;
    for (const p of this.def.params) {
      if (p.name === untilName) continue;
      this.no(
        p,
        p.name,
        tr(
          "an event task sends nothing, so it takes no argument but the time of `timeout until`",
          "イベントのタスクは何も送らないので、`timeout until` の時刻のほかに引数を取りません",
        ),
      );
    }
    if (this.def.callback) {
      this.no(
        methodAt ?? this.t,
        "callback",
        tr(
          "an event task waits for its event, not for a callback",
          "イベントのタスクはイベントを待ち、コールバックは待ちません",
        ),
      );
    }
  }

  /** A `flow` task's callbacks: besides the table's reason, its child answers when it ends. */
  private flowCallbacks(): void {
    for (const item of this.items) {
      if (item.kind !== "callback") continue;
      this.no(
        item,
        "callback",
        tr("a child flow answers when it ends", "子のフローは終わったときに答えます"),
      );
    }
  }
}

class TaskResolver {
  constructor(private readonly s: TaskScope) {}

  task(t: TaskAst): TaskDef {
    const items = t.items.filter((i): i is Item => i.kind !== "elided");
    const params = this.s.fields(t.params, tr("a parameter", "引数"));
    const resultType = t.result === null ? null : this.s.type(t.result.type);
    const result = resultType === null || t.result === null ? null : {
      type: resultType,
      range: t.result.range === null ? null : this.s.range(t.result.range, resultType),
      secret: t.result.secret,
    };
    const { method, at } = methodOf(t, items, this.s.r);
    writtenOnce(t, items, this.s.r);
    const errors = declaredErrors(items, this.s.r);
    const book = method === "book"
      ? bookCall(this.s.r, this.s.books, t, only(items, "book"), params, result?.type ?? null)
      : null;
    const http = method === "http" ? only(items, "http") : null;
    const called = http === null || http.api === null ? null : this.apiCall(t, http, params, result, items);
    const connect = method === "connect"
      ? this.connectCall(t, only(items, "connect"), params, result, items)
      : null;
    const def = definition(t, items, { params, result, method, book, errors, connect }, called);
    const aws = method === "aws" ? only(items, "aws") : null;
    const model = aws === null ? undefined : this.s.smithies.get(aws.service.text);
    if (aws !== null && model !== undefined) this.awsCall(t, aws, model, def, items);
    new ItemCheck(this.s.r, t, def, items, model !== undefined).run(at);
    // An agent does nothing to a case: its `starts`, `sends` and `observes` are E007 (agent_check.ts).
    if (method === "agent") checkAgentTask(this.s.r, t, def, items, this.s.types);
    else this.caseItems(t, def, items);
    return def;
  }

  /**
   * An `http <METHOD> <api> "<path>"` task against its operation (openapi.ts): E002 for an API no
   * `use openapi` declares, E007 for `form` (the description says how the body is sent), one E016 per
   * mismatch at the place of the flow it is about, with the place in the description as a note.
   */
  private apiCall(
    t: TaskAst,
    http: ItemOf<"http">,
    params: readonly FieldDef[],
    result: TaskDef["result"],
    items: readonly Item[],
  ): ApiCall {
    const name = (http.api as Word).text;
    if (http.form !== null) {
      this.s.r.error(
        "E007",
        http.form,
        tr(
          `\`form\` cannot be written on a call of \`${name}\`: its description says how the body is sent`,
          `\`${name}\` を呼ぶタスクに \`form\` は書けません。本文の送り方は記述が言います`,
        ),
      );
    }
    const api = this.s.apis.get(name);
    if (api === undefined) {
      this.s.r.error(
        "E002",
        http.api as Word,
        tr(`there is no API \`${name}\``, `API \`${name}\` はありません`),
        {
          hint: didYouMean(name, this.s.apis.keys()) ??
            tr(
              'declare it with `use openapi <name> from "<file.json>"`',
              '`use openapi <名前> from "<ファイル.json>"` で宣言してください',
            ),
        },
      );
      return { url: null, form: false };
    }
    const statuses = items.flatMap((i) =>
      i.kind === "errors"
        ? i.errors.flatMap((e) =>
          e.value?.kind === "status"
            ? [{ error: e.name.text, status: e.value.status.text, at: e.value.status }]
            : []
        )
        : []
    );
    const matched = matchOperation(api, {
      name: t.name.text,
      method: http.method.text.toUpperCase(),
      path: http.url.text,
      params,
      result: result === null ? null : { type: result.type, range: result.range },
      statuses,
    }, this.s.types);
    this.placeFaults(t, name, matched.faults, http.url);
    return matched.faults.length === 0
      ? { url: matched.url, form: matched.form }
      : { url: null, form: false };
  }

  /**
   * An `aws <service>:<operation>` task whose service a `use smithy` describes, against the model's
   * operation (smithy.ts): one E016 per mismatch at the place of the flow it is about, with the
   * shape or member of the model as a note. A callback task's answer is the callback's, so its
   * result is not compared with the operation's output.
   */
  private awsCall(t: TaskAst, aws: ItemOf<"aws">, model: Smithy, def: TaskDef, items: readonly Item[]): void {
    const errors: AwsTaskShape["errors"][number][] = [];
    for (const item of items) {
      if (item.kind !== "errors") continue;
      for (const e of item.errors) {
        if (e.value === null) errors.push({ error: e.name.text, exception: e.name.text, at: e.name });
        else if (e.value.kind === "name") {
          errors.push({ error: e.name.text, exception: e.value.name.text, at: e.value.name });
        }
      }
    }
    const key = firstOf(items, "key")?.param ?? null;
    const faults = matchAwsOperation(model, {
      operation: aws.operation.text,
      params: def.params,
      result: def.result === null || def.callback ? null : { type: def.result.type, range: def.result.range },
      errors,
      key: key === null ? null : { param: key.text, at: key },
      jsonText: JSON_TEXT_MEMBERS.get(`${aws.service.text}:${aws.operation.text}`) ?? null,
    }, this.s.types);
    this.placeFaults(t, aws.service.text, faults, aws.operation);
  }

  /**
   * A `connect <api> "<Service>/<Method>"` task against the method of its `use proto` (proto.ts): E002
   * for an API no `use proto` declares, one E016 per mismatch at the place of the flow it is about,
   * with the message or method of the description as a note. The call it makes when it matches.
   */
  private connectCall(
    t: TaskAst,
    connect: ItemOf<"connect">,
    params: readonly FieldDef[],
    result: TaskDef["result"],
    items: readonly Item[],
  ): TaskDef["connect"] {
    const proto = this.s.protos.get(connect.api.text);
    if (proto === undefined) {
      this.s.r.error(
        "E002",
        connect.api,
        tr(
          `there is no proto description \`${connect.api.text}\``,
          `proto の記述 \`${connect.api.text}\` はありません`,
        ),
        {
          hint: didYouMean(connect.api.text, this.s.protos.keys()) ??
            tr(
              'declare it with `use proto <name> from "<file.proto>"`',
              '`use proto <名前> from "<ファイル.proto>"` で宣言してください',
            ),
        },
      );
      return null;
    }
    const errors = items.flatMap((i) =>
      i.kind === "errors"
        ? i.errors.map((e) => ({
          error: e.name.text,
          code: e.value === null ? null : e.value.kind === "name" ? e.value.name.text : e.value.status.text,
          at: e.value === null ? e.name : e.value.kind === "name" ? e.value.name : e.value.status,
        }))
        : []
    );
    const { faults, method } = matchConnect(proto, {
      method: connect.method.text,
      params,
      result: result === null ? null : { type: result.type, range: result.range },
      errors,
    }, this.s.types);
    this.placeFaults(t, connect.api.text, faults, connect.method);
    if (faults.length > 0 || method === null || proto.url === null) return null;
    return { url: proto.url, call: connectCall(proto.pb, method, params, this.s.types) };
  }

  /** One E016 per mismatch with a description, at the place of the flow it is about; `operation` is where the operation is named. */
  private placeFaults(t: TaskAst, api: string, faults: readonly Placed[], operation: Pos): void {
    const place = (w: Where): Pos => {
      switch (w.kind) {
        case "operation":
          return operation;
        case "task":
          return t.name;
        case "param":
          return w.param;
        case "result":
          return t.result ?? t.name;
        case "field":
          return w.field;
        case "item":
          return w.at;
        default:
          return unreachable(w, "place");
      }
    };
    for (const f of faults) {
      this.s.r.error(
        "E016",
        place(f.where),
        tr(`\`${t.name.text}\`: ${f.message.en}`, `\`${t.name.text}\`: ${f.message.ja}`),
        {
          notes: [tr(`in the description \`${api}\` at ${f.pointer}`, `記述 \`${api}\` の ${f.pointer}`)],
        },
      );
    }
  }

  /**
   * E008 for what a task does to a case (docs/design/dandori.md#holds-of-a-book): a hold starts its case,
   * post and void send to it.
   */
  private caseItems(t: TaskAst, def: TaskDef, items: readonly Item[]): void {
    // A book task whose book, transfer or operation is not there has had its diagnostic; what it
    // would start or send is not known, and saying so again would blame lines that are right.
    if (unreadBookCall(def)) return;
    this.starts(t, def.book, firstOf(items, "starts"));
    this.sends(t, def.book, firstOf(items, "sends"));
    const observes = firstOf(items, "observes");
    if (observes !== undefined) {
      this.wrong(
        observes,
        tr(
          "a hold is read from what its operations return; `observes` has nothing to read",
          "仮押さえは操作の結果から読むので、`observes` で読むものはありません",
        ),
      );
    }
  }

  private wrong(at: Pos, message: Text, hint?: Text): void {
    this.s.r.error("E008", at, message, hint === undefined ? {} : { hint });
  }

  /** `starts <book>.<transfer>`: only the hold of that transfer starts its case, and in `held`. */
  private starts(t: TaskAst, b: BookCall | null, starts: ItemOf<"starts"> | undefined): void {
    if (starts === undefined) {
      if (b === null || b.op !== "hold") return;
      this.wrong(
        t.name,
        tr(
          `\`${t.name.text}\` makes a hold and does not say it starts the case`,
          `\`${t.name.text}\` は仮押さえを作りますが、案件を始めると書いていません`,
        ),
        tr(
          `write \`starts ${b.book}.${b.transfer.name}\` under it`,
          `下に \`starts ${b.book}.${b.transfer.name}\` と書いてください`,
        ),
      );
      return;
    }
    const name = starts.machine.map((w) => w.text).join(".");
    const [bookName, transferName] = starts.machine.map((w) => w.text);
    const transfer = this.s.books.get(bookName)?.transfers.find((x) => x.name === transferName);
    if (starts.machine.length !== 2 || transfer === undefined) {
      this.s.r.error(
        "E002",
        starts,
        tr(`there is no state machine \`${name}\``, `ステートマシン \`${name}\` はありません`),
        {
          hint: didYouMean(
            name,
            [...this.s.books].flatMap(([b, book]) =>
              book.transfers.filter((x) => x.machine !== null).map((x) => `${b}.${x.name}`)
            ),
          ) ?? tr(
            "a hold's machine is named `<book>.<transfer>` of a `use book`",
            "仮押さえのステートマシンは、`use book` の `<帳簿>.<振替>` です",
          ),
        },
      );
    } else if (transfer.machine === null) {
      this.wrong(
        starts,
        tr(
          `\`${name}\` is done at once and has no holds to start`,
          `\`${name}\` はすぐに確定する振替で、始める仮押さえがありません`,
        ),
      );
    } else if (b === null || b.op !== "hold" || b.transfer !== transfer) {
      this.wrong(
        starts,
        tr(
          `\`${t.name.text}\` cannot start \`${name}\`: a hold is started by \`book ${name}.hold\``,
          `\`${t.name.text}\` は \`${name}\` を始められません。仮押さえを始めるのは \`book ${name}.hold\` です`,
        ),
      );
    } else if (starts.then.length > 0) {
      this.wrong(
        starts.then[0],
        tr(
          "a hold starts in `held`; nothing is sent with `then`",
          "仮押さえは `held` で始まり、`then` で送るものはありません",
        ),
      );
    }
  }

  /** `sends post|void`: only a book's post and void send to a hold, each its own event. */
  private sends(t: TaskAst, b: BookCall | null, sends: ItemOf<"sends"> | undefined): void {
    if (sends === undefined) {
      if (b === null || (b.op !== "post" && b.op !== "void")) return;
      this.wrong(
        t.name,
        tr(
          `\`${t.name.text}\` ${
            b.op === "post" ? "posts" : "voids"
          } a hold and does not say it sends \`${b.op}\``,
          `\`${t.name.text}\` は仮押さえを${
            b.op === "post" ? "確定し" : "取り消し"
          }ますが、\`${b.op}\` を送ると書いていません`,
        ),
        tr(`write \`sends ${b.op}\` under it`, `下に \`sends ${b.op}\` と書いてください`),
      );
      return;
    }
    if (b === null) {
      this.wrong(
        sends,
        tr(
          `\`${t.name.text}\` cannot send \`${sends.event.text}\`: the events of a hold are sent by its book's \`post\` and \`void\``,
          `\`${t.name.text}\` は \`${sends.event.text}\` を送れません。仮押さえのイベントを送るのは、帳簿の \`post\` と \`void\` です`,
        ),
      );
    } else if (b.op !== sends.event.text || (b.op !== "post" && b.op !== "void")) {
      this.wrong(
        sends,
        tr(
          `\`book … ${b.op}\` does not send \`${sends.event.text}\``,
          `\`book … ${b.op}\` は \`${sends.event.text}\` を送りません`,
        ),
        b.op === "post" || b.op === "void"
          ? tr(`write \`sends ${b.op}\``, `\`sends ${b.op}\` と書いてください`)
          : undefined,
      );
    }
  }
}

/** True for a `book` task whose book, transfer or operation is not there (E002, E007 said it). */
export function unreadBookCall(t: TaskDef): boolean {
  return t.method === "book" && t.book === null;
}

/** Resolves one task against the flow's books and types. */
export function resolveTask(t: TaskAst, scope: TaskScope): TaskDef {
  return new TaskResolver(scope).task(t);
}
