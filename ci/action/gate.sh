#!/usr/bin/env bash
# Step 2 of the rlspec action (action.yml): run the acceptance suite and
# record its exit status and report directory as step outputs; the verdict
# step fails the job, after the summary and the upload have run.
set -uo pipefail

# Inputs arrive as RLSPEC_INPUT_<VARIABLE> (action.yml). A given input sets
# its variable; an empty one leaves the variable as the job's env: has it, so
# a workflow may set TARGET_URL, RL_LIMIT, … there instead of in with:.
while IFS= read -r input; do
	if [ -n "${!input}" ]; then export "${input#RLSPEC_INPUT_}=${!input}"; fi
	unset "$input"
done < <(compgen -e -X '!RLSPEC_INPUT_*')
export REPORT_DIR=${REPORT_DIR:-${RUNNER_TEMP:?}/rlspec-reports}
mkdir -p "$REPORT_DIR"
echo "report-dir=$REPORT_DIR" >>"${GITHUB_OUTPUT:?}"

"${RLSPEC:-rlspec}" acceptance
code=$?
echo "exit-code=$code" >>"$GITHUB_OUTPUT"
