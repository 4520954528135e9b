// Package targetstore reaches a target's store from outside for the
// scenarios that need it: DBSeeder changes rows of TARGET_DB (SQLite or
// PostgreSQL, either contract schema, and the penalties' violation
// records), CommandStore takes the store away and back with STORE_DOWN_CMD
// and STORE_UP_CMD.
package targetstore
