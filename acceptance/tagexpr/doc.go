// Package tagexpr reads the TAGS setting: Cucumber tag expressions
// (`@AC1 or @AC2`, `@AC3 and not @extended`, parentheses, escapes), checked
// against Cucumber's published cases, and godog's older form (`@AC1,@AC2`,
// `&&`, `~@x`), into an Expr that says whether a scenario's tags are
// selected.
package tagexpr
