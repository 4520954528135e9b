#!/usr/bin/env bash
# compare.sh — closed-loop maximum throughput of loadgen, wrk and hey against
# the trivial handler and the reference fakeserver, same connection count;
# then an open-loop latency comparison with k6 (constant-arrival-rate) at a
# fixed rate. Every figure is the median of RUNS runs (tools interleaved, so
# drift in the machine's load spreads over all of them). Prints side-by-side
# tables with ratios.
#
# Fairness on a small machine: the targets are pinned to TARGET_CPU and each
# generator in turn to GEN_CPU with taskset (wrk then runs -t1; Go tools size
# GOMAXPROCS from the affinity mask, k6 included), so a generator competes
# with the target only for what the kernel does on both sides of loopback.
# PIN=0 runs everything unpinned (wrk -t2).
#
# Usage (from the repository root):
#   loadgen/compare/compare.sh
# Settings (environment): CONNS (50), SECS (10), RATE (1000), RUNS (3),
# PIN (1), TARGET_CPU (0), GEN_CPU (1), K6 (path to k6; the open-loop part is
# loadgen only without it), OUT (/tmp/loadgen-compare).
# Needs wrk, hey, jq, bc, taskset, /usr/bin/time.
set -euo pipefail

CONNS=${CONNS:-50}
SECS=${SECS:-10}
RATE=${RATE:-1000}
RUNS=${RUNS:-3}
PIN=${PIN:-1}
TARGET_CPU=${TARGET_CPU:-0}
GEN_CPU=${GEN_CPU:-1}
OUT=${OUT:-/tmp/loadgen-compare}
K6=${K6:-$(command -v k6 || true)}
mkdir -p "$OUT"
for tool in wrk hey jq bc taskset /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "compare.sh: $tool is not installed" >&2; exit 2; }
done

if [ "$PIN" = 1 ]; then
  ontarget=(taskset -c "$TARGET_CPU")
  ongen=(taskset -c "$GEN_CPU")
  WRK_THREADS=1
else
  ontarget=()
  ongen=()
  WRK_THREADS=2
fi

go build -o "$OUT/loadgen" ./cmd/loadgen
go build -o "$OUT/fakeserver" ./cmd/fakeserver

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# wait_match file regex — poll until the file has a line matching regex (the
# server printing its address), 10 s deadline; prints the first match.
wait_match() {
  local deadline=$((SECONDS + 10)) m
  until m=$(grep -o -m1 -E "$2" "$1" 2>/dev/null); do
    (( SECONDS < deadline )) || { echo "compare.sh: no address in $1" >&2; cat "$1" >&2; exit 2; }
    sleep 0.05 # poll interval while the server starts, bounded by the deadline
  done
  printf '%s\n' "$m"
}

# Both targets listen on a port the kernel picks; their addresses are read
# back from what they print.
"${ontarget[@]}" "$OUT/loadgen" serve-trivial -addr 127.0.0.1:0 >"$OUT/trivial.out" 2>&1 &
pids+=($!)
TARGET_PORT=0 BMTC_RATE_LIMIT_PER_HOUR=500 "${ontarget[@]}" "$OUT/fakeserver" >"$OUT/fakeserver.out" 2>&1 &
pids+=($!)
TRIVIAL=$(wait_match "$OUT/trivial.out" 'http://127\.0\.0\.1:[0-9]+')
FAKESERVER=http://$(wait_match "$OUT/fakeserver.out" 'addr=127\.0\.0\.1:[0-9]+' | cut -d= -f2)
echo "targets: trivial $TRIVIAL, fakeserver $FAKESERVER (pinned: $PIN, target cpu $TARGET_CPU, generator cpu $GEN_CPU)"

BUCKET=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
BODY="{\"route_id\":\"335E\",\"direction_id\":0,\"segments\":[{\"from_stop_id\":\"20558\",\"to_stop_id\":\"29374\",\"duration_sec\":180,\"dwell_sec\":20,\"mapmatch_conf\":0.9,\"observed_at_utc\":\"$(date -u -d '-10 min' +%FT%TZ)\"}],\"submitted_at\":\"$(date -u +%FT%TZ)\",\"device_bucket\":\"$BUCKET\"}"
printf '%s' "$BODY" > "$OUT/body.json"
cat > "$OUT/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = io.open("$OUT/body.json"):read("*a")
LUA
# loadgen sends the same single-bucket body (BUCKETS=1) through its template.
printf '%s' "$BODY" | sed "s/,\"device_bucket\":\"$BUCKET\"//" > "$OUT/template.json"

lg() { # base-url -> req/s
  REPORT_DIR="$OUT/lg" TARGET_URL="$1" RATE=0 CONNECTIONS=$CONNS DURATION=${SECS}s WARMUP=0 BUCKETS=1 \
    BODY_TEMPLATE="$OUT/template.json" THRESHOLDS= "${ongen[@]}" "$OUT/loadgen" run >"$OUT/lg.log" 2>&1 || true
  jq -r '.achieved_rate' "$OUT/lg/load.json"
}
wrkr() { "${ongen[@]}" wrk -t"$WRK_THREADS" -c"$CONNS" -d"${SECS}s" -s "$OUT/post.lua" "$1" 2>&1 | awk '/Requests\/sec/ {print $2}'; }
heyr() { "${ongen[@]}" hey -c "$CONNS" -z "${SECS}s" -m POST -T application/json -D "$OUT/body.json" "$1" 2>&1 | awk '/Requests\/sec/ {print $2}'; }
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

printf '\nClosed loop, %d connections, %ds each, median of %d (requests per second)\n' "$CONNS" "$SECS" "$RUNS"
printf '%-12s %10s %10s %10s %12s %12s   %s\n' target loadgen wrk hey loadgen/wrk loadgen/hey "runs (loadgen | wrk | hey)"
for t in "trivial $TRIVIAL" "fakeserver $FAKESERVER"; do
  read -r name base <<<"$t"
  url=$base/v1/ride_summary
  ls=() ws=() hs=()
  for _ in $(seq "$RUNS"); do
    ls+=("$(lg "$base")"); ws+=("$(wrkr "$url")"); hs+=("$(heyr "$url")")
  done
  l=$(median "${ls[@]}"); w=$(median "${ws[@]}"); h=$(median "${hs[@]}")
  printf '%-12s %10.0f %10.0f %10.0f %12.2f %12.2f   %s | %s | %s\n' "$name" "$l" "$w" "$h" \
    "$(echo "$l / $w" | bc -l)" "$(echo "$l / $h" | bc -l)" \
    "$(printf '%.0f ' "${ls[@]}")" "$(printf '%.0f ' "${ws[@]}")" "$(printf '%.0f ' "${hs[@]}")"
done

# Open loop: loadgen and k6 send the same bodies (1000 buckets, each body
# built once) at RATE for SECS after a 2 s warm-up that neither reports.
lgo() { # run-index -> "p50 p95 p99 up50 up95 up99 cpu_s"
  REPORT_DIR="$OUT/lgo$1" TARGET_URL=$FAKESERVER RATE=$RATE DURATION=${SECS}s WARMUP=2s BUCKETS=1000 \
    BODY_TEMPLATE="$OUT/template.json" THRESHOLDS= /usr/bin/time -f '%U %S' -o "$OUT/lgo$1.time" \
    "${ongen[@]}" "$OUT/loadgen" run >"$OUT/lgo$1.log" 2>&1 || true
  printf '%s %s\n' "$(jq -r '[.latency_ms.p50, .latency_ms.p95, .latency_ms.p99, .uncorrected_latency_ms.p50, .uncorrected_latency_ms.p95, .uncorrected_latency_ms.p99] | join(" ")' "$OUT/lgo$1/load.json")" \
    "$(awk '{print $1 + $2}' "$OUT/lgo$1.time")"
}
cat > "$OUT/k6.js" <<JS
import http from 'k6/http';
import crypto from 'k6/crypto';
const template = open('$OUT/template.json');
// Bodies are built once per VU in the init context, like loadgen's pool, for
// the same 1000 buckets in every VU (64 hex: sha256 of the run id and index);
// an iteration only picks one by index.
const bodies = Array.from({length: 1000}, (_, n) => { const b = JSON.parse(template); b.device_bucket = crypto.sha256(__ENV.RUN + '/' + n, 'hex'); return JSON.stringify(b); });
const params = { headers: { 'Content-Type': 'application/json' } };
const url = '$FAKESERVER/v1/ride_summary';
let i = 0;
export const options = {
  discardResponseBodies: true,
  summaryTrendStats: ['med', 'p(90)', 'p(95)', 'p(99)', 'max'],
  scenarios: {
    warmup: { executor: 'constant-arrival-rate', rate: $RATE, timeUnit: '1s', duration: '2s', preAllocatedVUs: 16, maxVUs: 64 },
    load: { executor: 'constant-arrival-rate', rate: $RATE, timeUnit: '1s', startTime: '2s', duration: '${SECS}s', preAllocatedVUs: 16, maxVUs: 64 },
  },
  // Thresholds that always hold, only so the summary has the load scenario's own figures.
  thresholds: {
    'http_req_duration{scenario:load}': ['max>=0'],
    'http_req_blocked{scenario:load}': ['max>=0'],
    'iteration_duration{scenario:load}': ['max>=0'],
  },
};
export default function () { http.post(url, bodies[(i++) % bodies.length], params); }
JS
k6o() { # run-index -> "p50 p95 p99 blocked_p99 iteration_p99 cpu_s"
  /usr/bin/time -f '%U %S' -o "$OUT/k6$1.time" "${ongen[@]}" "$K6" run --quiet -e RUN="$1-$RANDOM$RANDOM" --summary-export "$OUT/k6$1.json" "$OUT/k6.js" >"$OUT/k6$1.log" 2>&1 || true
  printf '%s %s\n' "$(jq -r '[.metrics."http_req_duration{scenario:load}" | .med, ."p(95)", ."p(99)"] + [.metrics."http_req_blocked{scenario:load}"."p(99)", .metrics."iteration_duration{scenario:load}"."p(99)"] | join(" ")' "$OUT/k6$1.json")" \
    "$(awk '{print $1 + $2}' "$OUT/k6$1.time")"
}

printf '\nOpen loop at %d req/s for %ds on the fakeserver after 2 s warm-up, median of %d (ms; cpu = user+sys seconds of the tool)\n' "$RATE" "$SECS" "$RUNS"
cols=(lp50 lp95 lp99 up50 up95 up99 lcpu kp50 kp95 kp99 kblk kit kcpu)
declare -A runs=()
for r in $(seq "$RUNS"); do
  read -r a b c d e f g < <(lgo "$r")
  runs[lp50]+=" $a"; runs[lp95]+=" $b"; runs[lp99]+=" $c"; runs[up50]+=" $d"; runs[up95]+=" $e"; runs[up99]+=" $f"; runs[lcpu]+=" $g"
  if [ -n "$K6" ]; then
    read -r a b c d e f < <(k6o "$r")
    runs[kp50]+=" $a"; runs[kp95]+=" $b"; runs[kp99]+=" $c"; runs[kblk]+=" $d"; runs[kit]+=" $e"; runs[kcpu]+=" $f"
  fi
done
declare -A m=()
for c in "${cols[@]}"; do
  # shellcheck disable=SC2086
  [ -n "${runs[$c]:-}" ] && m[$c]=$(median ${runs[$c]})
done
printf '%-28s %9s %9s %9s %9s\n' "" p50 p95 p99 cpu_s
printf '%-28s %9.3f %9.3f %9.3f %9.1f\n' "loadgen corrected" "${m[lp50]}" "${m[lp95]}" "${m[lp99]}" "${m[lcpu]}"
printf '%-28s %9.3f %9.3f %9.3f\n' "loadgen uncorrected" "${m[up50]}" "${m[up95]}" "${m[up99]}"
if [ -z "$K6" ]; then
  echo "k6 not found (set K6=/path/to/k6): loadgen only"
  exit 0
fi
printf '%-28s %9.3f %9.3f %9.3f %9.1f\n' "k6 http_req_duration" "${m[kp50]}" "${m[kp95]}" "${m[kp99]}" "${m[kcpu]}"
printf '%-28s %9s %9s %9.3f\n' "k6 http_req_blocked" "" "" "${m[kblk]}"
printf '%-28s %9s %9s %9.3f\n' "k6 iteration_duration" "" "" "${m[kit]}"
ratio() { echo "$1 / $2" | bc -l; }
printf '%-28s %9.2f %9.2f %9.2f\n' "loadgen corrected/k6" "$(ratio "${m[lp50]}" "${m[kp50]}")" "$(ratio "${m[lp95]}" "${m[kp95]}")" "$(ratio "${m[lp99]}" "${m[kp99]}")"
printf '%-28s %9.2f %9.2f %9.2f\n' "loadgen uncorrected/k6" "$(ratio "${m[up50]}" "${m[kp50]}")" "$(ratio "${m[up95]}" "${m[kp95]}")" "$(ratio "${m[up99]}" "${m[kp99]}")"
printf 'runs: loadgen corrected p99%s | uncorrected p99%s | k6 p99%s\n' "${runs[lp99]}" "${runs[up99]}" "${runs[kp99]}"
