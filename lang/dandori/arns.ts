/**
 * The addresses a flow names AWS resources by (docs/dandori.md#addresses-of-aws-resources), each
 * held to its shape (E007): a Lambda function (`lambda` under a task or a `use book`, `durable
 * function`), an EventBridge connection (`connection`) and a state machine (`state machine`). A
 * target writes the address as it is: Step Functions as a literal string of a JSONata definition,
 * where a string that is `{% … %}` would be evaluated, so an address holds none of `{`, `%`, `$`
 * but a version's `$LATEST`, no space and no quote.
 *
 * The shapes are those of the AWS APIs that take them: Lambda's `Invoke` (`FunctionName`: a name, a
 * partial ARN `<account>:function:<name>` or an ARN, with a version or an alias after `:`),
 * EventBridge's `CreateConnection` (`<name>/<id>`), and Step Functions' `StartExecution` (a
 * state machine's name: 1 to 80 characters, none of them a space, a control character or one of
 * `< > { } [ ] ? * " # % \ ^ | ~ ` $ & , ; : /`; a version number or an alias after `:`).
 * @module
 */

import { type Text, tr } from "../common/text.ts";

/** What an address names. */
export type ArnKind = "function" | "connection" | "state machine";

const PARTITION = "aws(?:-[a-z]+)*";
const REGION = "[a-z]{2}(?:-[a-z]+)+-[0-9]+";
const ACCOUNT = "[0-9]{12}";
const ARN = (service: string) => `arn:${PARTITION}:${service}:${REGION}:${ACCOUNT}:`;

const FUNCTION = new RegExp(
  `^(?:${
    ARN("lambda")
  }function:|${ACCOUNT}:function:)?[A-Za-z0-9_-]{1,64}(?::(?:\\$LATEST|[A-Za-z0-9_-]{1,128}))?$`,
);
const CONNECTION = new RegExp(`^${ARN("events")}connection/[A-Za-z0-9._-]{1,64}/[A-Za-z0-9-]{1,64}$`);
const STATE_MACHINE = new RegExp(
  `^${
    ARN("states")
  }stateMachine:[^\\p{Cc}\\p{Cf}\\p{Z}\\s<>{}\\[\\]?*"#%\\\\^|~\`$&,;:/]{1,80}(?::[A-Za-z0-9_-]{1,80})?$`,
  "u",
);

const SHAPES: Record<ArnKind, { readonly pattern: RegExp; readonly shape: Text }> = {
  function: {
    pattern: FUNCTION,
    shape: tr(
      "a Lambda function: its name (`notify`), or its ARN `arn:aws:lambda:<region>:<account>:function:<name>`, with a version or an alias after `:` if any",
      "Lambda の関数(名前の `notify` か、ARN の `arn:aws:lambda:<リージョン>:<アカウント>:function:<名前>`。`:` のあとにバージョンかエイリアスを書いてもよい)",
    ),
  },
  connection: {
    pattern: CONNECTION,
    shape: tr(
      "an EventBridge connection's ARN, `arn:aws:events:<region>:<account>:connection/<name>/<id>`",
      "EventBridge の接続の ARN(`arn:aws:events:<リージョン>:<アカウント>:connection/<名前>/<ID>`)",
    ),
  },
  "state machine": {
    pattern: STATE_MACHINE,
    shape: tr(
      "a state machine's ARN, `arn:aws:states:<region>:<account>:stateMachine:<name>`, with a version or an alias after `:` if any (a name is up to 80 characters, with no space, no control character, no backquote and none of `< > { } [ ] ? * \" # % \\ ^ | ~ $ & , ; : /`)",
      'ステートマシンの ARN(`arn:aws:states:<リージョン>:<アカウント>:stateMachine:<名前>`。`:` のあとにバージョンかエイリアスを書いてもよい。名前は 80 文字までで、空白、制御文字、バッククォート、`< > { } [ ] ? * " # % \\ ^ | ~ $ & , ; : /` を含まない)',
    ),
  },
};

/** The shape an address of `kind` has, in words. */
export function arnShape(kind: ArnKind): Text {
  return SHAPES[kind].shape;
}

/**
 * True when `text` has the shape of an address of `kind`.
 *
 * @example
 * ```ts
 * hasArnShape("function", "arn:aws:lambda:eu-west-2:123456789012:function:notify"); // true
 * hasArnShape("function", "{% 'arn:aws:lambda:eu-west-2:1:function:' & $card %}"); // false
 * ```
 */
export function hasArnShape(kind: ArnKind, text: string): boolean {
  return SHAPES[kind].pattern.test(text);
}
