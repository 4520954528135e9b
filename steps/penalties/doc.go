// Package penalties holds the steps of the penalties feature (PN-1 to
// PN-5): the violations a key's refusals count, the penalty each level of
// RL_PENALTIES starts (its "levels"), and what refusals under a penalty do.
package penalties
