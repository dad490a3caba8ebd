/**
 * Argo Workflows' own code, built once for the tests and `deno task verify argo` (docs/targets.md#argo):
 * `github.com/argoproj/argo-workflows/v4` at `ARGO_VERSION` from the Go module proxy, which serves it with
 * security advisories — it is linked only here, in the test harness, never into anything dandori
 * builds for users.
 *
 * - `argo-validate` (`verify/dandori/argo/main.go`, its own module pinning Argo and the Kubernetes
 *   modules): `workflow/validate` (what `argo lint` runs) and the WorkflowTemplate CRD's OpenAPI schema.
 * - `argo-controller`: the test binary of Argo's `workflow/controller` package with
 *   `verify/dandori/argo/controller/harness_test.go` beside Argo's own tests, built in a copy of the
 *   module as Argo builds its tests (its own `go.mod`), so the harness uses the controller the way
 *   those tests do.
 *
 * Both are built with `go build -trimpath` (`go test -c -trimpath`) into
 * `~/.cache/dandori/argo-<hash of the sources and the Go version>/`, never into the repository, and
 * reused while the sources stay the same. Without Go, or when the proxy does not serve the module,
 * `argoTools` says why, and the callers SKIP.
 * @module
 */

import { createHash } from "node:crypto";
import { hasGo } from "../chobo/runners/go/build.ts";

/** The Argo Workflows module the harness links, and its version (the newest the Go module proxy serves here). */
export const ARGO_MODULE = "github.com/argoproj/argo-workflows/v4";
export const ARGO_VERSION = "v4.0.5";

/** Where the WorkflowTemplate CRD is in the module. */
const CRD = "manifests/base/crds/full/argoproj.io_workflowtemplates.yaml";

const HERE = new URL("./argo/", import.meta.url).pathname;
const SOURCES = ["go.mod", "go.sum", "main.go", "controller/harness_test.go"];

/** The built tools: the validator, the controller's test binary, and the CRD they read. */
export interface ArgoTools {
  readonly validate: string;
  readonly controller: string;
  readonly crd: string;
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Runs a command in `cwd`; its standard output, or an error with its standard error. */
async function run(cmd: string, args: readonly string[], cwd: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args: [...args], cwd, stdout: "piped", stderr: "piped" })
    .output();
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")} failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/** The cache directory of these sources built by this Go. */
async function cacheDir(): Promise<string> {
  const h = createHash("sha256");
  for (const f of SOURCES) h.update(`${f}\0`).update(Deno.readFileSync(`${HERE}${f}`));
  h.update(await run("go", ["version"], HERE));
  return `${Deno.env.get("HOME") ?? "/tmp"}/.cache/dandori/argo-${h.digest("hex").slice(0, 16)}`;
}

/** Builds both tools into a new directory beside `dir`, then renames it to `dir` (a build at once with another leaves one). */
async function buildInto(dir: string): Promise<void> {
  const work = `${dir}.${Deno.pid}.tmp`;
  Deno.mkdirSync(`${work}/validator`, { recursive: true });
  try {
    for (const f of ["go.mod", "go.sum", "main.go"]) {
      Deno.copyFileSync(`${HERE}${f}`, `${work}/validator/${f}`);
    }
    const listed = JSON.parse(
      await run("go", ["mod", "download", "-json", `${ARGO_MODULE}@${ARGO_VERSION}`], `${work}/validator`),
    ) as { Dir?: string; Error?: string };
    if (listed.Dir === undefined) throw new Error(`go mod download: ${listed.Error ?? "no directory"}`);
    await run("go", ["build", "-trimpath", "-o", `${work}/argo-validate`, "."], `${work}/validator`);
    Deno.copyFileSync(`${listed.Dir}/${CRD}`, `${work}/crd.yaml`);
    await run("cp", ["-r", listed.Dir, `${work}/argo`], work);
    await run("chmod", ["-R", "u+w", `${work}/argo`], work);
    Deno.copyFileSync(
      `${HERE}controller/harness_test.go`,
      `${work}/argo/workflow/controller/zz_dandori_harness_test.go`,
    );
    await run(
      "go",
      [
        "test",
        "-c",
        "-trimpath",
        "-tags",
        "dandori_harness",
        "-o",
        `${work}/argo-controller`,
        "./workflow/controller",
      ],
      `${work}/argo`,
    );
    Deno.removeSync(`${work}/argo`, { recursive: true });
    Deno.removeSync(`${work}/validator`, { recursive: true });
    try {
      Deno.renameSync(work, dir);
    } catch (e) {
      if (!exists(`${dir}/argo-controller`)) throw e;
    }
  } finally {
    if (exists(work)) Deno.removeSync(work, { recursive: true });
  }
}

/** The tools, built when this cache has none; or why they cannot be (SKIP). */
export async function argoTools(): Promise<ArgoTools | { readonly skip: string }> {
  if (!await hasGo()) return { skip: "go is not installed" };
  const dir = await cacheDir();
  const tools = {
    validate: `${dir}/argo-validate`,
    controller: `${dir}/argo-controller`,
    crd: `${dir}/crd.yaml`,
  };
  if (exists(tools.validate) && exists(tools.controller) && exists(tools.crd)) return tools;
  try {
    await buildInto(dir);
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e);
    return {
      skip: `${ARGO_MODULE}@${ARGO_VERSION} could not be built here: ${
        text.split("\n").slice(0, 6).join(" ")
      }`,
    };
  }
  return tools;
}

/** What Argo and the CRD's schema find wrong with each WorkflowTemplate file, by file. */
export async function validateTemplates(
  tools: ArgoTools,
  files: readonly string[],
): Promise<Map<string, readonly string[]>> {
  const out = await new Deno.Command(tools.validate, {
    args: [tools.crd, ...files],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`argo-validate failed: ${new TextDecoder().decode(out.stderr)}`);
  const found = new Map<string, readonly string[]>();
  for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
    if (line === "") continue;
    const r = JSON.parse(line) as { file: string; errors: string[] };
    found.set(r.file, r.errors);
  }
  return found;
}

/** `deno run -A verify/dandori/argo_tools.ts`: builds the tools once (CI does, before the runs that use them). */
if (import.meta.main) {
  const started = performance.now();
  const tools = await argoTools();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    "skip" in tools
      ? `SKIP: argo: ${tools.skip}`
      : `argo: ${tools.validate} and ${tools.controller}, ${seconds} s`,
  );
}
