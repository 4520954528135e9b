#!/usr/bin/env bash
# Step 3 of the rlspec action (action.yml): the JUnit report as Markdown in
# the job summary. Writes only $GITHUB_STEP_SUMMARY (no checks: write), so it
# works on pull requests from forks.
set -euo pipefail

junit=${REPORT_DIR:?}/junit.xml
if [ -f "$junit" ]; then
	"${RLSPEC:-rlspec}" summary -junit "$junit" >>"${GITHUB_STEP_SUMMARY:?}"
else
	echo "### rlspec: no JUnit report (rlspec could not run; see the Acceptance suite step's log)" >>"${GITHUB_STEP_SUMMARY:?}"
fi
