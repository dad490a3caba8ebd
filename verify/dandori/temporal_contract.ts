/**
 * What a Temporal runner is given and what it gives back (docs/targets.md#the-runner-contract): the
 * seam between the differential harness (`temporal.ts`, which knows the interpreter, the scenarios and
 * the comparison) and a runner written in the language of one Temporal SDK (`temporal_runner.ts` for
 * TypeScript; Python and Go runners implement the same contract). Everything that crosses it is JSON,
 * so a runner in any language reads and writes the same shapes.
 *
 * The harness writes one jobs file (`RunnerJobs`) and starts the runner with its path as the one
 * argument, on a dev server it started with one namespace per flow. The runner:
 *
 * - for each flow, loads the code copy in `dir` (the package the target generated, with what real time
 *   would make long shortened), runs its generated worker in the flow's namespace with only `Transport`
 *   and the user's tasks replaced by stubs that record each call as sent and answer it from the
 *   scenario (the SDK's heartbeat throttle at most `limits.heartbeatMs`), and on each of the flow's
 *   child queues a worker of the child stub: a workflow of any type that records itself as the call
 *   `{child, id, queue, input}` and ends with the scenario's next answer (a timeout: it never ends);
 * - starts the runs in the order of `runs`, at most `limits.atOnce` in flight over all flows, each
 *   with the generated `start` (workflow id = the run's `id`, search attributes on); answers callbacks
 *   with the generated `answer` (checking that an unknown id and a second answer are refused), sends
 *   events with `send` once `status` says they are awaited (checking that an event not awaited is
 *   refused), asks the server for cancels, and makes a `timeout` answer the server's: the stub stops
 *   heartbeating and blocks until the run has ended (whenever a busy server times it out);
 * - when a flow's last run has ended, replays every history of its runs (continuations included) on
 *   the generated `replay`, writes them to `historiesFile` when one is named, and prints the flow's
 *   line (`FlowLine`) on stdout: one JSON object a line, flows in the order they finish.
 *
 * A flow's `part` may split it between two runners on one server and namespace (the cross-SDK run,
 * `temporal_cross.ts`): the runner given `"workflow"` runs the flow's workflow alone (a worker with no
 * activities) and does all of the above but the stubs; the runner given `"activities"` runs the
 * activities alone (a worker with no workflows), the child stubs and the stubs with their callbacks and
 * cancels through its own generated client, starts no run, and, once its stdin is closed (every run has
 * ended), prints the flow's line with each run's calls, lateness and problems (ending, cases: null).
 *
 * stdout carries those lines alone (the SDK's logs go to stderr); the runner exits 0 once every flow
 * has its line. A flow that cannot be played (its copy does not load, its worker does not start) has
 * a line with `error` and no other flow is stopped by it. The harness decides agreement: it compares
 * each run's calls, ending and cases with the interpreter, plays a run again when it disagrees and
 * the runner said it was late, and reports each `Problem`.
 * @module
 */

/** One answer of a scenario (docs/formats.md#dandori-scenarios-dandori-run---scenario-dandori-scenarios). */
export type AnswerJson = { ok: unknown } | { error: string; cause?: string | null } | { cancel: true };

/** A task as the stubs need it: its kind (the plan's callee kind) and its declared errors' wire names. */
export interface TaskInfo {
  readonly kind: string;
  /** Error name → what the wire carries for it (an HTTP status, a Lambda `errorType`, an AWS exception). */
  readonly wires: Record<string, string>;
}

/** How long things may take, the same for every flow of a jobs file. */
export interface RunnerLimits {
  /** Runs in flight at once, over all flows. */
  readonly atOnce: number;
  /** How long one run may take: past it the run is terminated and reported late. */
  readonly runMs: number;
  /**
   * The longest the SDK may hold a heartbeat back (its heartbeat throttle, otherwise 0.8 × the heartbeat
   * timeout): well inside the copy's heartbeat timeout, so only the activities a scenario times out time out.
   */
  readonly heartbeatMs: number;
  /** How often `status` is asked while a run of a flow with events is running. */
  readonly eventPollMs: number;
}

/**
 * Which parts of a flow a runner plays: all of it, its workflow alone, or its activities (with the
 * child stubs and the scenario's answers) alone.
 */
export type FlowPart = "whole" | "workflow" | "activities";

/** One flow: where its code copy is, where it runs, and what its stubs need. */
export interface FlowJobs {
  /** The flow's path: names it in messages. */
  readonly flow: string;
  /** The namespace its workers and runs are in: two flows may share a workflow type and run ids. */
  readonly namespace: string;
  /**
   * The code copy: the generated package in the SDK's language (for Go, the flow's package in the
   * module of the one runner binary, which holds every flow's: the runner finds it by the directory's name).
   */
  readonly dir: string;
  readonly tasks: Record<string, TaskInfo>;
  /** A worker of child stubs runs on each, answering a child workflow from the scenario. */
  readonly children: readonly { readonly queue: string }[];
  /** Whether the flow waits for events (then `status` is polled while its runs run). */
  readonly events: boolean;
  /**
   * Where to write every history of the flow's runs, as the CLI's JSON (`[{workflowId, history}]`; the Go
   * runner adds each run's `runId`); null: nowhere.
   */
  readonly historiesFile: string | null;
  /**
   * Whether the flow writes `history encrypted`: then its package cannot run without a payload codec,
   * and the runner gives its worker, its client and its `replay` the package's own codec (`codec.ts`,
   * `codec.py`, `codec.go`) with `codecKey`.
   */
  readonly encrypted: boolean;
  /**
   * The key of an encrypted flow's codec, made by the harness once per flow and verification and given
   * to every runner that plays the flow (the two of a cross-SDK run read each other's payloads with it);
   * null for a flow in clear. A runner refuses an encrypted flow without a key and a flow in clear with one.
   */
  readonly codecKey: CodecKeyJson | null;
  /** What of the flow this runner plays. */
  readonly part: FlowPart;
}

/**
 * A payload codec's key as the jobs file carries it: the codec's `CodecKey` with its bytes written as
 * text. Random for each verification, never a constant of the repository, never printed.
 */
export interface CodecKeyJson {
  /** The key's id, written in clear beside every payload it encrypts. */
  readonly id: string;
  /** The key's 32 bytes (AES-256) as 64 lowercase hexadecimal digits. */
  readonly hex: string;
}

/** One run to play: its flow (an index into `flows`), its workflow id, its input and its answers. */
export interface RunJob {
  readonly flow: number;
  /** The workflow id, the interpreter's `execution` (it is in keys and callback ids). */
  readonly id: string;
  readonly input: unknown;
  readonly answers: readonly AnswerJson[];
}

/** The jobs file. */
export interface RunnerJobs {
  /** The dev server's frontend, `host:port`. */
  readonly address: string;
  readonly limits: RunnerLimits;
  readonly flows: readonly FlowJobs[];
  /** Every run, in the order to start them (the harness puts the longest first). */
  readonly runs: readonly RunJob[];
}

/** Something a run did that it must not, though its calls and ending may agree. */
export type Problem =
  | { readonly kind: "unknown callback taken"; readonly callback: string }
  | { readonly kind: "second answer taken"; readonly callback: string }
  | { readonly kind: "event not awaited taken" };

/** One call as sent: the `temporal` view, and the `transport` view of what reached `Transport`. */
export interface SentCall {
  readonly temporal: unknown;
  transport?: unknown;
  /**
   * An activity's `startToCloseTimeout` in seconds, as the workflow scheduled it: written by a runner of
   * an SDK whose copy keeps activities' timeouts (`TemporalSdk.durations`), and compared apart from the call.
   */
  startToCloseSeconds?: number;
}

/** What one run did. */
export interface RunResult {
  readonly id: string;
  readonly calls: readonly SentCall[];
  /**
   * The ending as `endingJson` writes it (`{succeed}`, `{fail: {error, reason}}`, `{cancelled: true}`), or
   * `{error: "<what happened>"}` / `{failed: "<failure>"}` for what no flow ends with.
   */
  readonly ending: unknown;
  /** The cases of the query `dandori.status` after the run ended; null when it was not asked. */
  readonly query: unknown;
  /** The search attribute `DandoriCases` after the run ended; null when it was not read. */
  readonly searchAttribute: unknown;
  /** A timing the copy could not keep (a timeout the scenario did not give, an answer refused as too late). */
  readonly late: boolean;
  /** Why it was late, for people. */
  readonly lateWhy: readonly string[];
  readonly problems: readonly Problem[];
  /** Runs of the execution: 1, and one more for each Continue-As-New. */
  readonly runs: number;
  /** Milliseconds from the start to the ending. */
  readonly ms: number;
  /** The most events one of its runs wrote into its history. */
  readonly events: number;
  /**
   * What each timer of the run (continuations included, in the order they started) asked, from the
   * summary the copy gives it (`{"retry": seconds}`, `{"wait": seconds}`): written by a runner of an SDK
   * whose copy keeps what timers ask (`TemporalSdk.durations`); a timer without a summary is left out.
   */
  readonly timers?: readonly Readonly<Record<string, number>>[];
}

/** A flow's line on stdout: its runs' results and whether its histories replay, or why it could not be played. */
export type FlowLine =
  | {
    readonly flow: string;
    readonly results: readonly RunResult[];
    /** Null when every history replayed on the generated `replay`; else the first error. */
    readonly replay: string | null;
    readonly histories: number;
  }
  | { readonly flow: string; readonly error: string };
