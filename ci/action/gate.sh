#!/usr/bin/env bash
# Step 2 of the rlspec action (action.yml): run the acceptance suite and
# record its exit status and report directory as step outputs; the verdict
# step fails the job, after the summary and the upload have run.
set -uo pipefail

# Inputs left empty arrive as empty variables: unset them so rlspec takes
# its defaults instead of rejecting "".
for v in TARGET_URL TARGET_URL_DISABLED TARGET_IMAGE RL_LIMIT RL_WINDOW PROFILE FEATURES TAGS CLIENT_IPS STRICT; do
	if [ -z "${!v:-}" ]; then unset "$v"; fi
done
export REPORT_DIR=${REPORT_DIR:-${RUNNER_TEMP:?}/rlspec-reports}
mkdir -p "$REPORT_DIR"
echo "report-dir=$REPORT_DIR" >>"${GITHUB_OUTPUT:?}"

"${RLSPEC:-rlspec}" acceptance
code=$?
echo "exit-code=$code" >>"$GITHUB_OUTPUT"
