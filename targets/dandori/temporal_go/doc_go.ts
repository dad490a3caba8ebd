/**
 * `doc.go`: the package's documentation, with the Go version and the modules (at the versions
 * dandori is tested with) the module that holds the package requires — dandori writes no
 * `go.mod`, as it writes no `package.json` for TypeScript.
 * @module
 */

import type { Plan } from "../../../lang/dandori/plan.ts";
import { goStr } from "../go/names.ts";
import { awsServiceModule, awsServices, callsAws, hasAgents } from "./io_go.ts";

/**
 * The versions the generated code is built and tested with. `go.temporal.io/sdk` v1.51.0 is the
 * newest the Go module proxy serves here (1.44–1.51); the seed used v1.49.0, and what the package
 * calls is the same in both; both ask for Go 1.26. `go.temporal.io/api` is the version the SDK
 * requires, and `google.golang.org/protobuf` the version they require (only `codec.go` imports it). The AWS SDK for Go v2's modules are the newest the proxy serves, for the flows that
 * call Lambda or AWS; openai-go and anthropic-sdk-go the newest it serves, for the flows with an
 * agent task (`io_agents.go`).
 */
export const GO_MODULES: Readonly<Record<string, string>> = {
  "go.temporal.io/sdk": "v1.51.0",
  "go.temporal.io/api": "v1.64.3",
  "google.golang.org/protobuf": "v1.36.11",
  "github.com/aws/aws-sdk-go-v2": "v1.48.0",
  "github.com/aws/smithy-go": "v1.28.9",
  [awsServiceModule("eventbridge")]: "v1.55.11",
  [awsServiceModule("lambda")]: "v1.117.0",
  [awsServiceModule("s3")]: "v1.115.0",
  [awsServiceModule("sns")]: "v1.48.0",
  [awsServiceModule("sqs")]: "v1.53.0",
  "github.com/openai/openai-go/v3": "v3.102.0",
  "github.com/anthropics/anthropic-sdk-go/v2": "v2.17.0",
};

/** The Go version the modules ask for. */
export const GO_VERSION = "1.26.0";

/** The modules a flow's package imports. */
export function goModules(plan: Plan): string[] {
  // codec.go writes a payload as its protobuf, as the TypeScript and Python codecs do.
  const temporal = ["go.temporal.io/sdk", "go.temporal.io/api"];
  if (plan.workflow.historyEncrypted) temporal.push("google.golang.org/protobuf");
  const agents = hasAgents(plan)
    ? ["github.com/openai/openai-go/v3", "github.com/anthropics/anthropic-sdk-go/v2"]
    : [];
  if (!callsAws(plan)) return [...temporal, ...agents];
  const services = [...new Set(["lambda", ...awsServices(plan)])].sort().map(awsServiceModule);
  return [...temporal, "github.com/aws/aws-sdk-go-v2", "github.com/aws/smithy-go", ...services, ...agents];
}

/** The text of `doc.go` from before its package clause on. */
export function docModule(plan: Plan, pkg: string): string {
  const modules = goModules(plan).map((m) => `//\t${m} ${GO_MODULES[m]}`);
  return [
    `// Package ${pkg} is the workflow ${
      goStr(plan.workflow.name)
    } v${plan.workflow.version} on Temporal's Go SDK,`,
    "// as `dandori build --target temporal-go` writes it (docs/targets.md#temporal-go): NewWorker",
    "// runs it, Start starts a run, Answer, Send and Status talk to one, and Histories with Replay",
    "// check a new build against the runs in flight.",
    "//",
    `// It asks for Go ${
      GO_VERSION.replace(/\.0$/, "")
    } and these modules, which the module that holds it requires`,
    "// (dandori writes no go.mod):",
    "//",
    ...modules,
    "//",
    "// go.temporal.io/sdk v1.51.0 is the newest the Go module proxy served when this target was made",
    "// (the seed's was v1.49.0, and what the package calls is the same in both).",
    `package ${pkg}`,
    "",
  ].join("\n");
}
