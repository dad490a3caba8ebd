/**
 * The flow's I/O files (docs/targets.md#temporal-go): `io.go` is the runtime's `io.go` followed by
 * the flow's `Transport` (with `Book` when the flow uses books), its `TransportOptions` (`AWS` when it
 * calls Lambda or AWS, `Books` when it uses books) and the default `NewTransport`; `io_aws.go`, only
 * when the flow calls Lambda or AWS, is the runtime's with the clients of the AWS services the flow
 * calls (Go has no import put off until a call needs it) and the operations of each one's model
 * (`lang/dandori/aws_operations.ts`), the only methods of a client it calls; `io_books.go`, only when the flow uses
 * books, is the runtime's with the names chobo's Go client gives each transfer the flow calls
 * (`targets/chobo/names.ts`, from every transfer of the book).
 * @module
 */

import { assert } from "../../../lang/common/assert.ts";
import { AWS_MODELS, awsOperations } from "../../../lang/dandori/aws_operations.ts";
import type { Plan } from "../../../lang/dandori/plan.ts";
import { transferMembers } from "../../chobo/names.ts";
import { goStr } from "../go/names.ts";
import { aligned, runtimeBody } from "./go_text.ts";
import { AWS_RUNTIME, BOOKS_RUNTIME, IO_RUNTIME } from "./runtimes.ts";

/** The AWS services the default Transport has clients of: their Go packages under the AWS SDK for Go v2. */
export const AWS_SERVICES: readonly string[] = ["eventbridge", "lambda", "s3", "sns", "sqs"];

/** The module of the AWS SDK for Go v2's service package. */
export function awsServiceModule(service: string): string {
  return `github.com/aws/aws-sdk-go-v2/service/${service}`;
}

/** Whether the flow calls Lambda or AWS. */
export function callsAws(plan: Plan): boolean {
  return plan.tasks.some((t) => t.callee.kind === "lambda" || t.callee.kind === "aws");
}

/** The AWS services the flow calls that the default Transport has clients of, sorted. */
export function awsServices(plan: Plan): string[] {
  const used = new Set(plan.tasks.flatMap((t) => t.callee.kind === "aws" ? [t.callee.service] : []));
  return AWS_SERVICES.filter((s) => used.has(s));
}

/** Whether the flow uses books. */
export function usesBooks(plan: Plan): boolean {
  return plan.tasks.some((t) => t.callee.kind === "book");
}

/** Whether the flow has an agent task. */
export function hasAgents(plan: Plan): boolean {
  return plan.tasks.some((t) => t.callee.kind === "agent");
}

/** The text of `io.go` from its package clause on. */
export function ioModule(plan: Plan, pkg: string): string {
  const aws = callsAws(plan);
  const books = usesBooks(plan);
  const agents = hasAgents(plan);
  const lines = [
    "",
    "// ---------------------------------------------------------------------------------------------",
    "// The flow's Transport.",
    "",
    "// Transport is everything a dandori-written activity sends; a test gives one that records.",
    "// AWS answers an operation's output, or an *AWSError for the service's exception.",
    "type Transport interface {",
    "\tHTTP(ctx context.Context, request HTTPRequest) (HTTPResponse, error)",
    "\tLambda(ctx context.Context, function string, payload any) (LambdaResult, error)",
    "\tAWS(ctx context.Context, service, operation string, args map[string]any) (any, error)",
    ...(books ? ["\tBook(ctx context.Context, call BookCall) (BookResult, error)"] : []),
    ...(agents ? ["\tAgent(ctx context.Context, request AgentRequest) (any, error)"] : []),
    "}",
    "",
    `// TransportOptions is what the default Transport is given: the HTTP client (nil:`,
    `// http.DefaultClient)${aws ? ", the AWS configuration" : ""}${
      books ? ", the chobo client (a *Book) of each book by the flow's name for it" : ""
    }${
      agents ? ", the headers an Open Responses server (an agent's url) is sent besides the request's" : ""
    }.`,
    "type TransportOptions struct {",
    ...aligned([
      ["HTTPClient", "*http.Client"],
      ...(aws ? [["AWS", "*AWSConfig"]] : []),
      ...(books ? [["Books", "map[string]any"]] : []),
      ...(agents ? [["ResponsesHeaders", "map[string]string"]] : []),
    ], "\t"),
    "}",
    "",
    "// NewTransport is the default Transport: HTTP through net/http, Lambda and AWS through the AWS",
    "// SDK for Go v2, books through chobo's Go clients.",
    "func NewTransport(options TransportOptions) Transport {",
    "\treturn ddTransport{options: options}",
    "}",
    "",
    "type ddTransport struct {",
    "\toptions TransportOptions",
    "}",
    "",
    "// HTTP sends a request through the HTTP client given.",
    "func (t ddTransport) HTTP(ctx context.Context, request HTTPRequest) (HTTPResponse, error) {",
    "\treturn ddSendHTTP(ctx, t.options.HTTPClient, request)",
    "}",
    ...(agents
      ? [
        "",
        "// Agent sends an agent's request through its provider's SDK with the HTTP client given.",
        "func (t ddTransport) Agent(ctx context.Context, request AgentRequest) (any, error) {",
        "\treturn ddSendAgent(ctx, t.options.HTTPClient, t.options.ResponsesHeaders, request)",
        "}",
      ]
      : []),
  ];
  if (!aws) {
    lines.push(
      "",
      "// Lambda: the flow calls no Lambda function.",
      "func (t ddTransport) Lambda(ctx context.Context, function string, payload any) (LambdaResult, error) {",
      '\treturn LambdaResult{}, errors.New("dandori: the flow calls no Lambda function")',
      "}",
      "",
      "// AWS: the flow calls no AWS operation.",
      "func (t ddTransport) AWS(ctx context.Context, service, operation string, args map[string]any) (any, error) {",
      '\treturn nil, errors.New("dandori: the flow calls no AWS operation")',
      "}",
    );
  }
  return runtimeBody(IO_RUNTIME, pkg) + lines.join("\n") + "\n";
}

/** The import line of the runtime's `io_aws.go` the service imports follow. */
const AWS_IMPORT_AFTER = '\t"github.com/aws/aws-sdk-go-v2/aws"\n';

/** The text of `io_aws.go` from its package clause on. */
export function ioAwsModule(plan: Plan, pkg: string): string {
  const services = awsServices(plan).filter((s) => s !== "lambda");
  const body = runtimeBody(AWS_RUNTIME, pkg);
  assert(body.split(AWS_IMPORT_AFTER).length === 2, "io_aws.go imports the AWS SDK once");
  // The runtime imports aws, lambda and smithy-go: the services sort between aws and lambda or after it.
  const imported = ["lambda", ...services].sort();
  const importLines = imported.map((s) => `\t"${awsServiceModule(s)}"\n`).join("");
  const text = body.replace(
    AWS_IMPORT_AFTER + `\t"${awsServiceModule("lambda")}"\n`,
    AWS_IMPORT_AFTER + importLines,
  );
  assert(text !== body || services.length === 0, "io_aws.go imports lambda after aws");
  const clients = ["lambda", ...services].sort();
  const cases = clients.flatMap((s) => [
    `\tcase ${goStr(s)}:`,
    `\t\treturn ${s}.NewFromConfig(cfg), true`,
  ]);
  const operations = clients.flatMap((s) => [
    `\tcase ${goStr(s)}:`,
    "\t\treturn []string{",
    ...wrapped([...awsOperations(s)].map(goStr), OPERATIONS_WIDTH).map((l) => `\t\t\t${l},`),
    "\t\t}",
  ]);
  return text + [
    "",
    "// ddAWSClient is the client of an AWS service the default Transport calls.",
    "func ddAWSClient(cfg aws.Config, service string) (any, bool) {",
    "\tswitch service {",
    ...cases,
    "\t}",
    "\treturn nil, false",
    "}",
    "",
    "// ddAWSOperations is the operations of the API of a service the default Transport has a client of,",
    `// as Step Functions names them: its model's in ${AWS_MODELS} (lang/dandori/aws_operations.ts).`,
    "func ddAWSOperations(service string) []string {",
    "\tswitch service {",
    ...operations,
    "\t}",
    "\treturn nil",
    "}",
  ].join("\n") + "\n";
}

/** How many characters of names a line of `ddAWSOperations` holds at most. */
const OPERATIONS_WIDTH = 96;

/** Items joined by `, ` in lines of at most `width` characters (an item longer than that alone on its line). */
function wrapped(items: readonly string[], width: number): string[] {
  const lines: string[] = [];
  for (const item of items) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 2 + item.length <= width) lines[last] += `, ${item}`;
    else lines.push(item);
  }
  return lines;
}

/** The text of `io_books.go` from its package clause on: the runtime's, then each called transfer's names. */
export function ioBooksModule(plan: Plan, pkg: string): string {
  const lines = [
    "",
    "// ddBookTransferOf is what chobo's Go client names a transfer the flow calls.",
    "func ddBookTransferOf(book, transfer string) (ddBookTransfer, bool) {",
    "\tbooks := map[string]map[string]ddBookTransfer{}",
  ];
  for (const b of plan.books) {
    const spelled = transferMembers(b.transfers, "go");
    const called = new Set(
      plan.tasks.flatMap((t) =>
        t.callee.kind === "book" && t.callee.book === b.name ? [t.callee.transfer] : []
      ),
    );
    if (called.size === 0) continue;
    lines.push(`\tbooks[${goStr(b.name)}] = map[string]ddBookTransfer{}`);
    for (const t of b.transfers) {
      if (!called.has(t.name)) continue;
      const member = spelled.transfers.get(t.name) ?? t.name;
      const params = spelled.transferParams.get(t.name) ?? new Map<string, string>();
      const fields = t.params.map((p) => `${goStr(p)}: ${goStr(params.get(p) ?? p)}`).join(", ");
      lines.push(
        `\tbooks[${goStr(b.name)}][${goStr(t.name)}] = ddBookTransfer{Member: ${
          goStr(member)
        }, Params: map[string]string{${fields}}}`,
      );
    }
  }
  lines.push("\tt, ok := books[book][transfer]", "\treturn t, ok", "}");
  return runtimeBody(BOOKS_RUNTIME, pkg) + lines.join("\n") + "\n";
}
