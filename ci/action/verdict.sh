#!/usr/bin/env bash
# Step 5 of the rlspec action (action.yml): fail the job on rlspec's exit
# status, 1 (a scenario failed) or 2 (could not run), after the summary and
# the upload. An empty status means the gate never ran (the install failed).
set -euo pipefail

case ${EXIT_CODE:-} in
0) echo "rlspec: every scenario that ran passed" ;;
1) echo "::error::rlspec: a scenario failed (see the job summary and the rlspec-reports artifact)"; exit 1 ;;
"") echo "::error::rlspec did not run (see the Install rlspec step)"; exit 2 ;;
*) echo "::error::rlspec could not run (exit status $EXIT_CODE; its last line in the Acceptance suite step says why)"; exit 2 ;;
esac
