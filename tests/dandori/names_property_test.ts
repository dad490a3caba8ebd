/**
 * The naming property (docs/dandori.md#names-in-generated-code): flows made of hostile names and
 * strings (tests/support/hostile_flows.ts) each check, and every target either builds them or stops
 * with a diagnostic of its own (E006, E040, E050) — never an exception. What is built compiles:
 * both TypeScript targets under `tsc --strict`, both Python targets under `py_compile` and
 * `mypy --strict` (temporal-python's with `temporalio` installed), temporal-go under `gofmt -l`
 * (nothing listed) and `go vet`, argo's WorkflowTemplates under Argo's own validation (`argo lint`'s
 * code and the CRD's schema), and every Step Functions definition passes asl-validator and agrees with the
 * interpreter on every generated scenario on the JSONata runner. The counts are printed.
 */

import { mypyCache } from "../support/mypy.ts";
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { dirname } from "node:path";
import { checkFlow } from "../../lang/dandori/check.ts";
import { NO_SUCH_FILE } from "../../lang/dandori/env.ts";
import { lower } from "../../lang/dandori/lower.ts";
import { VERSION } from "../../lang/common/version.ts";
import { DANDORI_TARGETS } from "../../targets/dandori/targets.ts";
import { stringify } from "yaml";
import { buildFlowTarget, DEFAULT_BUILD } from "../../targets/dandori/target.ts";
import type { RunnableFlow } from "../../verify/dandori/flows.ts";
import { argoTools, validateTemplates } from "../../verify/dandori/argo_tools.ts";
import { verifyFlows } from "../../verify/dandori/stepfunctions.ts";
import { hostileFlow } from "../support/hostile_flows.ts";
import { go, gofmtList, goModText, hasGo } from "../support/go_module.ts";
import { tsc } from "../support/tsc.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** How many flows the property makes (the issue on naming asks for at least 200). */
const FLOWS = 200;

/** The codes a target may stop a build with: what it cannot name, hold or run. */
const TARGET_STOPS = new Set(["E006", "E040", "E050"]);

async function python(args: string[], cwd: string): Promise<{ code: number; out: string } | null> {
  try {
    const run = await new Deno.Command("python3", { args, cwd, stdout: "piped", stderr: "piped" }).output();
    const t = new TextDecoder();
    return { code: run.code, out: t.decode(run.stdout) + t.decode(run.stderr) };
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    return null;
  }
}

Deno.test(`${FLOWS} flows of hostile names and strings build on every target or stop with E006, E040 or E050, and what is built compiles and agrees`, async () => {
  const dir = Deno.makeTempDirSync({ prefix: "dandori-names-" });
  Deno.writeTextFileSync(`${dir}/package.json`, `{ "type": "module" }\n`);
  Deno.symlinkSync(`${ROOT}node_modules`, `${dir}/node_modules`);
  try {
    const built = new Map<string, number>();
    const stopped = new Map<string, number>();
    const runnable: RunnableFlow[] = [];
    const texts = new Map<string, string>();
    const tsFiles: string[] = [];
    const pyPackages: string[] = [];
    const temporalPackages: string[] = [];
    const argoFiles: string[] = [];
    for (let seed = 1; seed <= FLOWS; seed++) {
      const flow = hostileFlow(seed);
      const path = `w${seed}.flow`;
      const checked = checkFlow(path, flow.text, { read: () => NO_SUCH_FILE }).checked;
      ok(checked !== null, `seed ${seed} checks:\n${flow.text}`);
      const plan = lower(checked);
      runnable.push({ path, checked, plan });
      texts.set(path, flow.text);
      const origin = { file: path, path, text: flow.text, sha: "0".repeat(16), version: VERSION };
      for (const target of DANDORI_TARGETS) {
        const result = buildFlowTarget(target, plan, origin, { ...DEFAULT_BUILD, yaml: stringify });
        if ("diagnostics" in result) {
          for (const d of result.diagnostics) {
            ok(TARGET_STOPS.has(d.code), `seed ${seed} on ${target.name}: ${d.code} ${d.message.en}`);
            stopped.set(`${target.name} ${d.code}`, (stopped.get(`${target.name} ${d.code}`) ?? 0) + 1);
          }
          continue;
        }
        built.set(target.name, (built.get(target.name) ?? 0) + 1);
        if (target.name === "stepfunctions") continue;
        const out = `${dir}/${target.name.replaceAll("-", "_")}/w${seed}`;
        Deno.mkdirSync(out, { recursive: true });
        for (const [name, text] of result.files) {
          Deno.mkdirSync(dirname(`${out}/${name}`), { recursive: true });
          Deno.writeTextFileSync(`${out}/${name}`, text);
          if (name.endsWith(".argo.yaml")) argoFiles.push(`${out}/${name}`);
          if (name.endsWith(".ts")) tsFiles.push(`${out}/${name}`.slice(dir.length + 1));
        }
        if (target.name === "pydantic-graph") pyPackages.push(`${out}`.slice(dir.length + 1));
        if (target.name === "temporal-python") temporalPackages.push(`${out}`.slice(dir.length + 1));
      }
    }
    console.log(
      `names property: ${FLOWS} flows; built ${[...built].map(([t, n]) => `${t} ${n}`).join(", ")}; stopped ${
        [...stopped].map(([t, n]) => `${t} ×${n}`).join(", ") || "none"
      }`,
    );

    const ts = await tsc(tsFiles, dir);
    if (ts !== null) strictEqual(ts.code, 0, ts.out);

    if (!(await hasGo())) console.log("SKIP: go: the go command is not installed");
    else {
      const goDir = `${dir}/temporal_go`;
      Deno.writeTextFileSync(`${goDir}/go.mod`, goModText("dandori.invalid/names"));
      await go(["mod", "tidy"], goDir);
      strictEqual(await gofmtList(goDir), "", "gofmt -l lists no file");
      await go(["vet", "./..."], goDir);
    }

    const compiled = await python(["-m", "compileall", "-q", ...pyPackages, ...temporalPackages], dir);
    if (compiled === null) console.log("SKIP: python3: not installed");
    else {
      strictEqual(compiled.code, 0, compiled.out);
      const version = await python(["-m", "mypy", "--version"], dir);
      if (version === null || version.code !== 0) {
        console.log("SKIP: mypy: not installed (pip install -r verify/requirements.txt)");
      } else {
        const mypy = await python(
          ["-m", "mypy", "--strict", "--cache-dir", mypyCache("names-property"), ...pyPackages],
          dir,
        );
        strictEqual(mypy?.code, 0, mypy?.out);
        const temporalio = await python(["-c", "import temporalio"], dir);
        if (temporalio?.code !== 0) {
          console.log(
            "SKIP: mypy of temporal-python: temporalio is not installed (verify/requirements-temporal.txt)",
          );
        } else {
          const typed = await python(
            ["-m", "mypy", "--strict", "--cache-dir", mypyCache("names-property"), ...temporalPackages],
            dir,
          );
          strictEqual(typed?.code, 0, typed?.out);
        }
      }
    }

    const tools = await argoTools();
    if ("skip" in tools) console.log(`SKIP: argo: ${tools.skip}`);
    else {
      const found = await validateTemplates(tools, argoFiles);
      for (const f of argoFiles) deepStrictEqual(found.get(f), [], f);
      console.log(
        `names property: argo lint and the CRD's schema pass ${argoFiles.length} WorkflowTemplates`,
      );
    }

    const report = await verifyFlows(runnable, (p) => texts.get(p) ?? "");
    console.log(
      `names property: Step Functions ${report.flows} flows, ${report.agreed}/${report.scenarios} scenarios agree on the JSONata runner, ${report.skipped.length} skipped`,
    );
    strictEqual(report.failures.length, 0, report.failures.slice(0, 5).join("\n"));
    strictEqual(report.agreed, report.scenarios);
    for (const target of DANDORI_TARGETS) {
      ok((built.get(target.name) ?? 0) >= FLOWS / 4, `${target.name} builds at least a quarter of the flows`);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
