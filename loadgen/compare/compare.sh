#!/usr/bin/env bash
# compare.sh — closed-loop maximum throughput of loadgen, wrk and hey against
# the trivial handler and the reference fakeserver, same connection count, in
# one run; then an open-loop latency comparison with k6 (constant-arrival-rate)
# at a fixed rate. Prints side-by-side tables with ratios.
#
# Usage (from the repository root):
#   loadgen/compare/compare.sh
# Settings (environment): CONNS (50), SECS (10), RATE (1000), K6 (path to k6;
# skipped with a note when absent), OUT (/tmp/loadgen-compare).
# Needs wrk and hey (apt-get install -y wrk hey), jq.
set -euo pipefail

CONNS=${CONNS:-50}
SECS=${SECS:-10}
RATE=${RATE:-1000}
OUT=${OUT:-/tmp/loadgen-compare}
K6=${K6:-$(command -v k6 || true)}
mkdir -p "$OUT"
for tool in wrk hey jq; do
  command -v "$tool" >/dev/null || { echo "compare.sh: $tool is not installed" >&2; exit 2; }
done

go build -o "$OUT/loadgen" ./cmd/loadgen
go build -o "$OUT/fakeserver" ./cmd/fakeserver

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

wait_port() { # host:port — poll until it accepts, 10 s deadline
  local deadline=$((SECONDS + 10))
  until (exec 3<>"/dev/tcp/${1%:*}/${1#*:}") 2>/dev/null; do
    (( SECONDS < deadline )) || { echo "compare.sh: $1 did not come up" >&2; exit 2; }
    sleep 0.05 # poll interval while waiting for the port, bounded by the deadline
  done
}

"$OUT/loadgen" serve-trivial -addr 127.0.0.1:18081 >/dev/null &
pids+=($!)
TARGET_PORT=18082 BMTC_RATE_LIMIT_PER_HOUR=500 "$OUT/fakeserver" >/dev/null 2>&1 &
pids+=($!)
wait_port 127.0.0.1:18081
wait_port 127.0.0.1:18082

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

lg() { # url -> req/s
  REPORT_DIR="$OUT/lg" TARGET_URL="$1" RATE=0 CONNECTIONS=$CONNS DURATION=${SECS}s WARMUP=0 BUCKETS=1 \
    BODY_TEMPLATE="$OUT/template.json" THRESHOLDS= "$OUT/loadgen" run >"$OUT/lg.log" 2>&1 || true
  jq -r '.achieved_rate' "$OUT/lg/load.json"
}
wrkr() { wrk -t2 -c"$CONNS" -d"${SECS}s" -s "$OUT/post.lua" "$1" 2>&1 | awk '/Requests\/sec/ {print $2}'; }
heyr() { hey -c "$CONNS" -z "${SECS}s" -m POST -T application/json -D "$OUT/body.json" "$1" 2>&1 | awk '/Requests\/sec/ {print $2}'; }

printf '\nClosed loop, %d connections, %ds each (requests per second)\n' "$CONNS" "$SECS"
printf '%-12s %12s %12s %12s %14s %14s\n' target loadgen wrk hey loadgen/wrk loadgen/hey
for t in trivial:http://127.0.0.1:18081/v1/ride_summary fakeserver:http://127.0.0.1:18082/v1/ride_summary; do
  name=${t%%:*}; url=${t#*:}
  base=${url%/v1/ride_summary}
  l=$(lg "$base"); w=$(wrkr "$url"); h=$(heyr "$url")
  printf '%-12s %12.0f %12.0f %12.0f %14.2f %14.2f\n' "$name" "$l" "$w" "$h" \
    "$(echo "$l / $w" | bc -l)" "$(echo "$l / $h" | bc -l)"
done

printf '\nOpen loop at %d req/s for %ds on the fakeserver (ms)\n' "$RATE" "$SECS"
REPORT_DIR="$OUT/lgo" TARGET_URL=http://127.0.0.1:18082 RATE=$RATE DURATION=${SECS}s WARMUP=2s BUCKETS=1000 \
  THRESHOLDS= "$OUT/loadgen" run >"$OUT/lgo.log" 2>&1 || true
if [ -z "$K6" ]; then
  echo "k6 not found (set K6=/path/to/k6); loadgen only:"
  jq -r '.latency_ms | "loadgen corrected   p50 \(.p50)  p95 \(.p95)  p99 \(.p99)"' "$OUT/lgo/load.json"
  exit 0
fi
cat > "$OUT/k6.js" <<JS
import http from 'k6/http';
const body = open('$OUT/template.json');
function bucket() { let s = ''; for (let i = 0; i < 64; i++) s += '0123456789abcdef'[Math.floor(Math.random() * 16)]; return s; }
const buckets = Array.from({length: 1000}, bucket);
let i = 0;
export const options = {
  discardResponseBodies: true,
  summaryTrendStats: ['med', 'p(90)', 'p(95)', 'p(99)', 'max'],
  scenarios: { load: { executor: 'constant-arrival-rate', rate: $RATE, timeUnit: '1s', duration: '${SECS}s', preAllocatedVUs: 16, maxVUs: 64 } },
};
export default function () {
  const b = JSON.parse(body); b.device_bucket = buckets[(i++) % buckets.length];
  http.post('http://127.0.0.1:18082/v1/ride_summary', JSON.stringify(b), { headers: { 'Content-Type': 'application/json' } });
}
JS
"$K6" run --quiet --summary-export "$OUT/k6.json" "$OUT/k6.js" >"$OUT/k6.log" 2>&1 || true
read -r lp50 lp95 lp99 < <(jq -r '.latency_ms | "\(.p50) \(.p95) \(.p99)"' "$OUT/lgo/load.json")
read -r up50 up95 up99 < <(jq -r '.uncorrected_latency_ms | "\(.p50) \(.p95) \(.p99)"' "$OUT/lgo/load.json")
read -r kp50 kp95 kp99 < <(jq -r '.metrics.http_req_duration | "\(.med) \(."p(95)") \(."p(99)")"' "$OUT/k6.json")
printf '%-26s %10s %10s %10s\n' "" p50 p95 p99
printf '%-26s %10.3f %10.3f %10.3f\n' "loadgen corrected" "$lp50" "$lp95" "$lp99"
printf '%-26s %10.3f %10.3f %10.3f\n' "loadgen uncorrected" "$up50" "$up95" "$up99"
printf '%-26s %10.3f %10.3f %10.3f\n' "k6 http_req_duration" "$kp50" "$kp95" "$kp99"
printf '%-26s %10.2f %10.2f %10.2f\n' "corrected/k6" "$(echo "$lp50/$kp50" | bc -l)" "$(echo "$lp95/$kp95" | bc -l)" "$(echo "$lp99/$kp99" | bc -l)"
printf '%-26s %10.2f %10.2f %10.2f\n' "uncorrected/k6" "$(echo "$up50/$kp50" | bc -l)" "$(echo "$up95/$kp95" | bc -l)" "$(echo "$up99/$kp99" | bc -l)"
