/**
 * The workload `deno task bench dandori` times as a whole process (so its number includes Deno's
 * start, as the baseline `deno eval 'null'` does): generating and running every scenario of
 * every test and example flow on the reference interpreter.
 * @module
 */

import { stringifyJson } from "../../lang/common/json.ts";
import { runFlow } from "../../lang/dandori/interp.ts";
import { readFlowScenarios, ScenarioAnswers } from "../../lang/dandori/scenario.ts";
import { generatedJson, generateFlowScenarios } from "../../lang/dandori/scenarios.ts";
import { runnableFlows } from "./flows.ts";

let flows = 0;
let scenarios = 0;
for (const f of runnableFlows("", ["tests/dandori/flows/", "examples/"])) {
  flows++;
  const generated = generateFlowScenarios(f.checked, f.plan).scenarios.map(generatedJson);
  for (const [i, s] of readFlowScenarios(f.checked, stringifyJson(generated)).entries()) {
    const answers = new ScenarioAnswers(s.answers);
    runFlow(f.checked, {
      input: s.input,
      now: s.now,
      answers,
      execution: `run-${i + 1}`,
      children: false,
    });
    answers.finish();
    scenarios++;
  }
}
console.log(`${flows} flows, ${scenarios} scenarios`);
