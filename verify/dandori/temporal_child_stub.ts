/**
 * The child stub (docs/targets.md#the-runner-contract): the workflow the TypeScript runner runs on each
 * child queue of a flow, whatever the child's type (it is the bundle's default, Temporal's dynamic
 * workflow). It asks the activity `dandori_child_stub` for its ending, which records the child as
 * started and answers from the parent's scenario. The same module for every flow: the runner bundles it
 * once. @module
 */

import { ActivityFailure, ApplicationFailure, proxyActivities, workflowInfo } from "@temporalio/workflow";

const { dandori_child_stub } = proxyActivities<{ dandori_child_stub(c: unknown): Promise<unknown> }>({
  startToCloseTimeout: "60 seconds",
  heartbeatTimeout: "10 seconds",
  retry: { maximumAttempts: 1 },
});

/** Every child type: its ending is the stub activity's answer, a declared error as the same error. */
export default async function childStub(input: unknown): Promise<unknown> {
  const i = workflowInfo();
  try {
    return await dandori_child_stub({ child: i.workflowType, id: i.workflowId, queue: i.taskQueue, input });
  } catch (e) {
    if (e instanceof ActivityFailure && e.cause instanceof ApplicationFailure) {
      throw ApplicationFailure.create({
        type: e.cause.type ?? undefined,
        message: e.cause.message,
        nonRetryable: true,
      });
    }
    throw e;
  }
}
