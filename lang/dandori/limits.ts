/**
 * The limits of the checker and of what the commands make of a flow, with their reasons: the case
 * analysis stops at its limits and says so (E023), the check of child flows at its own (E015),
 * and the code registry writes their numbers into the explanations; `dandori scenarios` and
 * `dandori doc` refuse a flow past theirs, and say which.
 * @module
 */

/**
 * The most states kept at one point of the flow. States are told apart only by their case pairs
 * (variables merge), so a flow with few cases stays far below; the bound keeps a pathological
 * input with very many cases from growing without end. Reaching it is E023.
 */
export const MAX_STATES = 20000;

/**
 * The most rounds a loop's body is run to reach its fixpoint. The states are finite, so a loop
 * settles; it takes many rounds only when its body moves many cases on one after another, a
 * round each. Reaching the bound is E023.
 */
export const MAX_LOOP_ROUNDS = 64;

/**
 * The most child flows one check reads: the flow given, its children, theirs, and so on, each
 * counted once by its real path however many tasks run it (a flow that runs the next one twice,
 * eighteen deep, is eighteen children, not 2¹⁸ checks). Far more than a workflow names; the bound
 * keeps a tree of flows made to be large from taking the check's time and memory. Reaching it is
 * E015 at the task whose child is not read.
 */
export const MAX_CHILD_FLOWS = 100;

/**
 * The most choices the scenario generator makes in all the runs it tries, and writes in the
 * variations it makes of them. A choice is a value of the input or the answer of one attempt of a
 * call, so the scenarios `dandori scenarios` writes, and the page's runs, never hold more; the
 * generation's time and memory grow with them. The flows of the repository make at most 3,303
 * (examples/billing); a flow of 100 calls one after another makes 1.6 million (2 s), as the
 * count grows with the cube of such a flow's length; one of 10,000 calls would make billions
 * (`scenarios` took minutes and gigabytes). Past it the generation stops, and `scenarios` and
 * `doc` refuse the flow as too large to explore whole, writing nothing.
 */
export const MAX_SCENARIO_CHOICES = 2_000_000;

/**
 * The most statements `dandori doc` draws. A chart is read by people, and one of thousands of
 * nodes is not (Mermaid stops drawing long before); the flows of the repository have at most a
 * few dozen. Past it `doc` refuses the flow, writing nothing.
 */
export const MAX_PAGE_STATEMENTS = 2_000;
