/**
 * The `pydantic-graph` target (docs/targets.md#pydantic-graph): a flow as a Python package for
 * pydantic-graph 2.x — `graph.py` (`State`, `Deps`, one node per statement, `graph`), `types.py`,
 * `tasks.py` (`make_tasks(own, transport)`), `io.py` (the `Transport`), `runtime.py`, `rules.py`
 * (the rules both Python targets share) and `__init__.py` — run in the user's own process. Every file starts with the header and the
 * workflow's description as comment lines that cannot leave their comment.
 * @module
 */

import type { Plan } from "../../../lang/dandori/plan.ts";
import type { DandoriTarget, FlowOrigin } from "../target.ts";
import { hashHeader } from "../python/header.ts";
import { ioModule } from "../python/io_py.ts";
import { RULES } from "../python/runtimes.ts";
import { typesModule } from "../python/types_py.ts";
import { pydanticGraphCheck } from "./check.ts";
import { graphModule } from "./graph_py.ts";
import { RUNTIME } from "./runtimes.ts";
import { tasksModule } from "./tasks_py.ts";

/** `__init__.py`: what a caller imports from the package. */
const INIT =
  `"""The workflow as a pydantic-graph graph (\`graph.graph\`): \`run\`, \`Deps\`, \`make_tasks\`, \`transport\`."""

from .graph import Deps, State, run
from .io import transport
from .tasks import OwnTasks, make_tasks

__all__ = ["Deps", "OwnTasks", "State", "make_tasks", "run", "transport"]
`;

function generate(plan: Plan, origin: FlowOrigin): ReadonlyMap<string, string> {
  const head = hashHeader(plan, origin);
  return new Map([
    ["__init__.py", head + INIT],
    ["graph.py", head + graphModule(plan)],
    ["types.py", head + typesModule(plan)],
    ["tasks.py", head + tasksModule(plan)],
    ["io.py", head + ioModule(plan)],
    ["runtime.py", head + RUNTIME],
    ["rules.py", head + RULES],
  ]);
}

/** The target record. */
export const PYDANTIC_GRAPH: DandoriTarget<"pydantic-graph"> = {
  name: "pydantic-graph",
  express: false,
  yaml: false,
  check: pydanticGraphCheck,
  generate,
};
