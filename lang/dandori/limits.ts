/**
 * The limits of the checker, with their reasons: the case analysis stops at its limits and says so
 * (E023), the check of child flows at its own (E015), and the code registry writes their numbers
 * into the explanations.
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
