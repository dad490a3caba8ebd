// The failure converter of every dandori Temporal TypeScript package whose flow writes `history
// encrypted` (docs/targets.md#the-payload-codec-of-history-encrypted): a failure's message and
// stack trace go into its encoded attributes, a payload the codec encrypts, instead of into the
// history as text. `codec.ts` names this file (`FAILURE_CONVERTER_PATH`): the worker bundles it
// into the workflow and loads it for the activities, the client loads it too.

import { DefaultFailureConverter } from "@temporalio/common";

/** The failure converter the SDK loads from this file by its name. */
export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
