// Package ci holds rlspec's CI integrations and their tests: the GitHub
// composite action (action.yml at the repository root, its shell in
// ci/action/), and the GitHub and GitLab templates (ci/github, ci/gitlab).
// There is no Go API here; the tests run the action's steps locally as a
// runner would.
package ci
