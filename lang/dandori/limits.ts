/**
 * The limits of the case analysis, with their reasons: the checker stops at them and says so
 * (E023), and the code registry writes their numbers into E023's explanation.
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
