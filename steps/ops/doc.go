// Package ops holds the steps of how a target is run rather than what it
// limits, on whichever design the scenario uses (a device bucket or a
// key): fail modes with the store taken away (FAIL-1, FAIL-2), persistence
// across a restart (PS-1), several instances on one store (MI-1), bypass
// headers (SL-10) and endpoint tiers (the tiers feature, SL-9: endpoints
// with limits of their own; penalty levels are package penalties').
package ops
