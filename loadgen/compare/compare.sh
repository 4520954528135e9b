#!/usr/bin/env bash
# compare.sh — loadgen side by side with wrk, hey and k6, in one run.
#
# Part 1, closed loop: maximum throughput of loadgen, wrk and
# hey against the trivial handler and the reference fakeserver, same
# connection count. The machine is shared and noisy (steal time on a VM moves
# throughput by 2× between seconds), so the comparison is paired: ROUNDS
# rounds, each running every tool once for SECS, in an order that rotates
# from round to round; a ratio is computed within each round and the median
# of those ratios is reported with its range and how many rounds met the
# target (loadgen ≥ wrk, ≥ 1.2 × hey). CPU per request (user+sys of the
# generator over its requests) is reported beside throughput: it is what a
# generator takes from a target it shares a machine with.
#
# Part 2, open loop: at RATE, loadgen and k6 (constant-arrival-rate), ROUNDS
# rounds, after a 2 s warm-up that neither reports, against
# the fakeserver and against the trivial handler with a log-normal service
# time (median DELAY, sigma 0.5) — a target whose latency is large next to
# either tool's own overhead, so the two tools' percentiles can be
# calibrated against each other. With WIRE=1 (default when dumpcap and
# tshark are installed) every run is also captured on loopback and the
# latency on the wire (request packet to response packet, per connection) is
# reported beside what each tool measured: the ground truth against which a
# tool's own overhead shows. By default (CONCURRENT=1) loadgen and k6 run at
# the same time, at RATE/2 each (k6 bound to 127.0.0.2 so the wire tells them
# apart): on a machine whose speed drifts from minute to minute (steal time),
# only requests sent side by side meet the same target. CONCURRENT=0
# alternates them, each alone at RATE.
#
# Fairness on a small machine: targets are pinned to TARGET_CPU and each
# generator in turn to GEN_CPU with taskset (wrk then runs -t1; Go tools size
# GOMAXPROCS from the affinity mask, k6 included). PIN=0 runs everything
# unpinned (wrk -t2). PIN=budget pins as PIN=1 and also holds each
# closed-loop generator to BUDGET CPUs (default 0.3) with a cgroup CPU quota
# (v2 cpu.max or v1 cfs quota, 10 ms period; needs root): every tool is then
# the bottleneck, the target never is, and throughput measures what a
# generator sends per CPU second — the placement in which one generator can
# outrun another at all. The open-loop part runs as PIN=1.
#
# Usage (from the repository root):
#   loadgen/compare/compare.sh
# Settings (environment): CONNS (50), SECS (4), ROUNDS (7), RATE (1000),
# OPEN_SECS (8), CONCURRENT (1), DELAY (2ms), PIN (1, 0 or budget), BUDGET (0.3),
# TARGET_CPU (0), GEN_CPU (1), K6 (path
# to k6; without it part 2 is loadgen only), WIRE (auto), PARTS ("closed
# open"), OUT (/tmp/loadgen-compare).
# Needs wrk, hey, jq, bc, taskset, /usr/bin/time; WIRE needs dumpcap, tshark.
set -euo pipefail

CONNS=${CONNS:-50}
SECS=${SECS:-4}
ROUNDS=${ROUNDS:-7}
RATE=${RATE:-1000}
OPEN_SECS=${OPEN_SECS:-8}
CONCURRENT=${CONCURRENT:-1}
DELAY=${DELAY:-2ms}
PIN=${PIN:-1}
BUDGET=${BUDGET:-0.3}
TARGET_CPU=${TARGET_CPU:-0}
GEN_CPU=${GEN_CPU:-1}
PARTS=${PARTS:-closed open}
OUT=${OUT:-/tmp/loadgen-compare}
K6=${K6:-$(command -v k6 || true)}
WARMUP_S=2
if [ -z "${WIRE:-}" ] || [ "$WIRE" = auto ]; then
  if command -v dumpcap >/dev/null && command -v tshark >/dev/null; then WIRE=1; else WIRE=0; fi
fi
mkdir -p "$OUT"
for tool in wrk hey jq bc taskset /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "compare.sh: $tool is not installed" >&2; exit 2; }
done

pids=()
BUDGET_CG=
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [ -n "$BUDGET_CG" ]; then rmdir "$BUDGET_CG" 2>/dev/null || true; fi
}
trap cleanup EXIT

# budget_cgroup quota-cpus — a fresh cgroup whose CPU bandwidth is quota-cpus
# per 10 ms period; prints its directory.
budget_cgroup() {
  local us dir v1
  us=$(awk -v c="$1" 'BEGIN { printf "%d", c * 10000 }')
  (( us >= 1000 )) || { echo "compare.sh: BUDGET=$1 is below 0.1 CPU" >&2; return 1; }
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then # v2
    grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control || echo +cpu >/sys/fs/cgroup/cgroup.subtree_control || return 1
    dir=/sys/fs/cgroup/rlspec-compare-$$
    mkdir "$dir" && echo "$us 10000" >"$dir/cpu.max" || return 1
  else
    v1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/mounts)
    [ -n "$v1" ] || { echo "compare.sh: no cgroup cpu controller mounted" >&2; return 1; }
    dir=$v1/rlspec-compare-$$
    mkdir "$dir" && echo 10000 >"$dir/cpu.cfs_period_us" && echo "$us" >"$dir/cpu.cfs_quota_us" || return 1
  fi
  printf '%s\n' "$dir"
}

# ongen runs an open-loop generator, closedgen a closed-loop one.
case $PIN in
  1 | budget)
    ontarget=(taskset -c "$TARGET_CPU")
    ongen=(taskset -c "$GEN_CPU")
    closedgen=("${ongen[@]}")
    WRK_THREADS=1
    if [ "$PIN" = budget ]; then
      BUDGET_CG=$(budget_cgroup "$BUDGET") || { echo "compare.sh: PIN=budget needs a writable cgroup cpu controller (root)" >&2; exit 2; }
      # shellcheck disable=SC2016 # $0 and $@ belong to the inner bash
      closedgen=(bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$BUDGET_CG" "${ongen[@]}")
    fi ;;
  0)
    ontarget=()
    ongen=()
    closedgen=()
    WRK_THREADS=2 ;;
  *) echo "compare.sh: PIN=$PIN: want 1, 0 or budget" >&2; exit 2 ;;
esac

go build -o "$OUT/loadgen" ./cmd/loadgen
go build -o "$OUT/fakeserver" ./cmd/fakeserver

# wait_match file regex — poll until the file has a line matching regex (a
# server printing its address, dumpcap announcing its capture), 10 s
# deadline; prints the first match.
wait_match() {
  local deadline=$((SECONDS + 10)) m
  until m=$(grep -o -m1 -E "$2" "$1" 2>/dev/null); do
    (( SECONDS < deadline )) || { echo "compare.sh: no '$2' in $1" >&2; cat "$1" >&2; exit 2; }
    sleep 0.05 # poll interval, bounded by the deadline
  done
  printf '%s\n' "$m"
}

# Targets listen on ports the kernel picks; their addresses are read back
# from what they print.
"${ontarget[@]}" "$OUT/loadgen" serve-trivial -addr 127.0.0.1:0 >"$OUT/trivial.out" 2>&1 &
pids+=($!)
"${ontarget[@]}" "$OUT/loadgen" serve-trivial -addr 127.0.0.1:0 -delay "$DELAY" >"$OUT/delayed.out" 2>&1 &
pids+=($!)
TARGET_PORT=0 BMTC_RATE_LIMIT_PER_HOUR=500 "${ontarget[@]}" "$OUT/fakeserver" >"$OUT/fakeserver.out" 2>&1 &
pids+=($!)
TRIVIAL=$(wait_match "$OUT/trivial.out" 'http://127\.0\.0\.1:[0-9]+')
DELAYED=$(wait_match "$OUT/delayed.out" 'http://127\.0\.0\.1:[0-9]+')
FAKESERVER=http://$(wait_match "$OUT/fakeserver.out" 'addr=127\.0\.0\.1:[0-9]+' | cut -d= -f2)
echo "targets: trivial $TRIVIAL, trivial+delay $DELAYED, fakeserver $FAKESERVER (pinned: $PIN${BUDGET_CG:+, closed-loop generators held to $BUDGET CPU}, target cpu $TARGET_CPU, generator cpu $GEN_CPU; wire capture: $WIRE)"

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

median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
ratio() { echo "$1 / $2" | bc -l; }
cpu_per_req() { awk -v c="$1" -v r="$2" -v s="$3" 'BEGIN { printf "%.2f", (r > 0 ? c * 1e6 / (r * s) : 0) }'; }

# Closed-loop runs: tool base-url -> "req/s cpu-µs/req".
closed_run() {
  local tool=$1 base=$2 url=$2/v1/ride_summary rps cpu
  case $tool in
    loadgen)
      REPORT_DIR="$OUT/lg" TARGET_URL="$base" RATE=0 CONNECTIONS=$CONNS DURATION=${SECS}s WARMUP=0 BUCKETS=1 \
        BODY_TEMPLATE="$OUT/template.json" THRESHOLDS='' /usr/bin/time -f '%U %S' -o "$OUT/run.time" \
        "${closedgen[@]}" "$OUT/loadgen" run >"$OUT/lg.log" 2>&1 || true
      rps=$(jq -r '.achieved_rate' "$OUT/lg/load.json") ;;
    wrk)
      /usr/bin/time -f '%U %S' -o "$OUT/run.time" "${closedgen[@]}" wrk -t"$WRK_THREADS" -c"$CONNS" -d"${SECS}s" -s "$OUT/post.lua" "$url" >"$OUT/wrk.log" 2>&1 || true
      rps=$(awk '/Requests\/sec/ {print $2}' "$OUT/wrk.log") ;;
    hey)
      /usr/bin/time -f '%U %S' -o "$OUT/run.time" "${closedgen[@]}" hey -c "$CONNS" -z "${SECS}s" -m POST -T application/json -D "$OUT/body.json" "$url" >"$OUT/hey.log" 2>&1 || true
      rps=$(awk '/Requests\/sec/ {print $2}' "$OUT/hey.log") ;;
  esac
  cpu=$(awk '{print $1 + $2}' "$OUT/run.time")
  printf '%s %s\n' "${rps:-0}" "$(cpu_per_req "$cpu" "${rps:-0}" "$SECS")"
}

closed_part() {
  local tools=(loadgen wrk hey) n=3
  printf '\nClosed loop, %d connections, %ds per run, %d rounds (tool order rotates each round)\n' "$CONNS" "$SECS" "$ROUNDS"
  for t in "trivial $TRIVIAL" "fakeserver $FAKESERVER"; do
    local name base
    read -r name base <<<"$t"
    declare -A rps=() cpu=()
    for r in $(seq 0 $((ROUNDS - 1))); do
      for k in $(seq 0 $((n - 1))); do
        local tool=${tools[$(((r + k) % n))]} a b
        read -r a b < <(closed_run "$tool" "$base")
        rps[$tool]+=" $a"; cpu[$tool]+=" $b"
      done
    done
    printf '\n%s\n%-18s %10s %12s   %s\n' "$name" tool "req/s" "cpu-µs/req" "runs (req/s)"
    for tool in "${tools[@]}"; do
      # shellcheck disable=SC2086
      printf '%-18s %10.0f %12.2f  %s\n' "$tool" "$(median ${rps[$tool]})" "$(median ${cpu[$tool]})" "${rps[$tool]}"
    done
    printf '%-26s %8s %16s %10s\n' "paired ratio" median "range" "rounds ok"
    for pair in "loadgen wrk 1.0" "loadgen hey 1.2"; do
      local x y want
      read -r x y want <<<"$pair"
      local -a xs ys rs=()
      read -r -a xs <<<"${rps[$x]}"
      read -r -a ys <<<"${rps[$y]}"
      local ok=0
      for i in "${!xs[@]}"; do
        local q
        q=$(ratio "${xs[$i]}" "${ys[$i]}")
        rs+=("$q")
        (( $(echo "$q >= $want" | bc -l) )) && ok=$((ok + 1))
      done
      local sorted
      sorted=$(printf '%s\n' "${rs[@]}" | sort -g)
      printf '%-26s %8.2f %7.2f – %-6.2f %6d/%d  (target ≥ %s)\n' "$x/$y" "$(median "${rs[@]}")" \
        "$(head -1 <<<"$sorted")" "$(tail -1 <<<"$sorted")" "$ok" "${#rs[@]}" "$want"
    done
    unset rps cpu
  done
}

# Wire latency of a capture: per connection, from the first packet of a
# request (client to port, with payload) to the first packet of its
# response (the responses here fit in one segment), for requests sent
# WARMUP_S or more after the capture's first packet. -> "p50 p95 p99" ms.
wire_latency() { # pcap port [display-filter]
  tshark -r "$1" ${3:+-Y "$3"} -T fields -e frame.time_epoch -e tcp.stream -e tcp.srcport -e tcp.len 2>/dev/null |
    awk -v port="$2" -v skip="$WARMUP_S" '
      NR == 1 { t0 = $1 }
      $4 > 0 {
        if ($3 != port) { if (!($2 in pend)) pend[$2] = $1 }
        else if ($2 in pend) { if (pend[$2] - t0 >= skip) print ($1 - pend[$2]) * 1000; delete pend[$2] }
      }' |
    sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "0 0 0"; exit } printf "%.3f %.3f %.3f\n", v[int((NR - 1) * 0.50) + 1], v[int((NR - 1) * 0.95) + 1], v[int((NR - 1) * 0.99) + 1] }'
}

# capture_start name port / capture_stop: dumpcap on loopback around a run.
capture_start() {
  [ "$WIRE" = 1 ] || return 0
  rm -f "$OUT/$1.pcap"
  "${ontarget[@]}" dumpcap -i lo -f "tcp port $2" -s 96 -w "$OUT/$1.pcap" >"$OUT/dumpcap.log" 2>&1 &
  CAP_PID=$!
  wait_match "$OUT/dumpcap.log" 'Capturing on' >/dev/null
}
capture_stop() {
  [ "$WIRE" = 1 ] || return 0
  kill -INT "$CAP_PID" 2>/dev/null || true
  wait "$CAP_PID" 2>/dev/null || true
}

cat > "$OUT/k6.js" <<'JS'
import http from 'k6/http';
import crypto from 'k6/crypto';
const template = open(__ENV.TEMPLATE);
// Bodies are built once per VU in the init context, like loadgen's pool, for
// the same 1000 buckets in every VU (64 hex: sha256 of the run id and index);
// an iteration only picks one by index.
const bodies = Array.from({length: 1000}, (_, n) => { const b = JSON.parse(template); b.device_bucket = crypto.sha256(__ENV.RUN + '/' + n, 'hex'); return JSON.stringify(b); });
const params = { headers: { 'Content-Type': 'application/json' } };
const url = __ENV.URL;
const rate = Number(__ENV.RATE);
let i = 0;
export const options = {
  discardResponseBodies: true,
  summaryTrendStats: ['med', 'p(90)', 'p(95)', 'p(99)', 'max'],
  scenarios: {
    warmup: { executor: 'constant-arrival-rate', rate: rate, timeUnit: '1s', duration: __ENV.WARMUP, preAllocatedVUs: 16, maxVUs: 64 },
    load: { executor: 'constant-arrival-rate', rate: rate, timeUnit: '1s', startTime: __ENV.WARMUP, duration: __ENV.SECS, preAllocatedVUs: 16, maxVUs: 64 },
  },
  // Thresholds that always hold, only so the summary has the load scenario's own figures.
  thresholds: {
    'http_req_duration{scenario:load}': ['max>=0'],
    'http_req_blocked{scenario:load}': ['max>=0'],
  },
};
export default function () { http.post(url, bodies[(i++) % bodies.length], params); }
JS

# Open-loop runs. open_start tool base-url rate tag [local-ip] starts one in
# the background (k6 bound to local-ip when given, so its packets can be told
# apart on the wire); open_figs tool tag prints "p50 p95 p99 [up50 up95 up99]
# cpu_s" of a finished run.
open_start() {
  local tool=$1 base=$2 rate=$3 tag=$4 ip=${5:-}
  if [ "$tool" = loadgen ]; then
    REPORT_DIR="$OUT/lgo$tag" TARGET_URL="$base" RATE=$rate DURATION=${OPEN_SECS}s WARMUP=${WARMUP_S}s BUCKETS=1000 \
      BODY_TEMPLATE="$OUT/template.json" THRESHOLDS='' /usr/bin/time -f '%U %S' -o "$OUT/lgo$tag.time" \
      "${ongen[@]}" "$OUT/loadgen" run >"$OUT/lgo$tag.log" 2>&1 &
  else
    /usr/bin/time -f '%U %S' -o "$OUT/k6$tag.time" "${ongen[@]}" "$K6" run --quiet -e RUN="$tag-$RANDOM$RANDOM" -e URL="$base/v1/ride_summary" \
      -e TEMPLATE="$OUT/template.json" -e RATE="$rate" -e WARMUP="${WARMUP_S}s" -e SECS="${OPEN_SECS}s" ${ip:+--local-ips "$ip"} \
      --summary-export "$OUT/k6$tag.json" "$OUT/k6.js" >"$OUT/k6$tag.log" 2>&1 &
  fi
  RUN_PID=$!
}
open_figs() {
  local tool=$1 tag=$2 figs
  if [ "$tool" = loadgen ]; then
    figs=$(jq -r '[.latency_ms.p50, .latency_ms.p95, .latency_ms.p99, .uncorrected_latency_ms.p50, .uncorrected_latency_ms.p95, .uncorrected_latency_ms.p99] | join(" ")' "$OUT/lgo$tag/load.json")
    printf '%s %s\n' "$figs" "$(awk '{print $1 + $2}' "$OUT/lgo$tag.time")"
  else
    figs=$(jq -r '[.metrics."http_req_duration{scenario:load}" | .med, ."p(95)", ."p(99)"] | join(" ")' "$OUT/k6$tag.json")
    printf '%s %s\n' "$figs" "$(awk '{print $1 + $2}' "$OUT/k6$tag.time")"
  fi
}

# One round of part 2 -> two lines "tool figures… wire_p50 wire_p95 wire_p99".
# Alternating: each tool alone at RATE, in the order given. CONCURRENT=1:
# both at once at RATE/2 each (the target sees RATE), k6 from 127.0.0.2, so
# whatever the machine does to the target in that moment happens to both.
open_round() { # base-url round
  local base=$1 r=$2 port=${1##*:} order=(loadgen k6)
  (( r % 2 == 1 )) && order=(k6 loadgen)
  [ -z "$K6" ] && order=(loadgen)
  if [ "$CONCURRENT" = 1 ] && [ -n "$K6" ]; then
    local half pl pk
    half=$((RATE / 2))
    capture_start "both$r" "$port"
    open_start loadgen "$base" "$half" "$r"; pl=$RUN_PID
    open_start k6 "$base" "$half" "$r" 127.0.0.2; pk=$RUN_PID
    wait "$pl" || true; wait "$pk" || true
    capture_stop
    for tool in loadgen k6; do
      local wire="- - -" filter='!(ip.addr == 127.0.0.2)'
      [ "$tool" = k6 ] && filter='ip.addr == 127.0.0.2'
      [ "$WIRE" = 1 ] && wire=$(wire_latency "$OUT/both$r.pcap" "$port" "$filter")
      printf '%s %s %s\n' "$tool" "$(open_figs "$tool" "$r")" "$wire"
    done
    return
  fi
  for tool in "${order[@]}"; do
    capture_start "$tool$r" "$port"
    open_start "$tool" "$base" "$RATE" "$r"
    wait "$RUN_PID" || true
    capture_stop
    local wire="- - -"
    [ "$WIRE" = 1 ] && wire=$(wire_latency "$OUT/$tool$r.pcap" "$port")
    printf '%s %s %s\n' "$tool" "$(open_figs "$tool" "$r")" "$wire"
  done
}

open_part() {
  local how="alternating, each tool alone at $RATE req/s"
  [ "$CONCURRENT" = 1 ] && how="concurrent, each tool at $RATE/2 req/s at the same time"
  printf '\nOpen loop (%s), %ds after a %ds warm-up, %d rounds (ms; cpu = user+sys seconds of the tool; wire = the same requests on loopback)\n' "$how" "$OPEN_SECS" "$WARMUP_S" "$ROUNDS"
  for t in "fakeserver $FAKESERVER" "trivial+delay($DELAY) $DELAYED"; do
    local name base
    read -r name base <<<"$t"
    declare -A v=()
    for r in $(seq 0 $((ROUNDS - 1))); do
      while read -r tool rest; do
        local f
        read -r -a f <<<"$rest"
        if [ "$tool" = loadgen ]; then
          v[lp50]+=" ${f[0]}"; v[lp95]+=" ${f[1]}"; v[lp99]+=" ${f[2]}"
          v[up50]+=" ${f[3]}"; v[up95]+=" ${f[4]}"; v[up99]+=" ${f[5]}"; v[lcpu]+=" ${f[6]}"
          v[lw50]+=" ${f[7]}"; v[lw95]+=" ${f[8]}"; v[lw99]+=" ${f[9]}"
        else
          v[kp50]+=" ${f[0]}"; v[kp95]+=" ${f[1]}"; v[kp99]+=" ${f[2]}"; v[kcpu]+=" ${f[3]}"
          v[kw50]+=" ${f[4]}"; v[kw95]+=" ${f[5]}"; v[kw99]+=" ${f[6]}"
        fi
      done < <(open_round "$base" "$r")
    done
    declare -A m=()
    for c in "${!v[@]}"; do
      # shellcheck disable=SC2086
      m[$c]=$(median ${v[$c]})
    done
    printf '\n%s\n%-30s %9s %9s %9s %7s\n' "$name" "" p50 p95 p99 cpu_s
    row() { printf '%-30s %9s %9s %9s %7s\n' "$1" "${m[$2]:--}" "${m[$3]:--}" "${m[$4]:--}" "${5:+${m[$5]:--}}"; }
    row "loadgen corrected" lp50 lp95 lp99 lcpu
    row "loadgen uncorrected" up50 up95 up99
    [ "$WIRE" = 1 ] && row "  wire, loadgen's runs" lw50 lw95 lw99
    if [ -n "$K6" ]; then
      row "k6 http_req_duration" kp50 kp95 kp99 kcpu
      [ "$WIRE" = 1 ] && row "  wire, k6's runs" kw50 kw95 kw99
      # within 10% or 0.1 ms, per percentile
      local verdicts=()
      for p in 50 95 99; do
        local a=${m[up$p]} b=${m[kp$p]}
        if (( $(echo "define abs(x) { if (x < 0) return -x; return x; }; d = abs($a - $b); d <= 0.1 || d <= 0.1 * $b" | bc -l) )); then
          verdicts+=("ok"); else verdicts+=("off"); fi
      done
      printf '%-30s %9.2f %9.2f %9.2f\n' "loadgen uncorrected / k6" "$(ratio "${m[up50]}" "${m[kp50]}")" "$(ratio "${m[up95]}" "${m[kp95]}")" "$(ratio "${m[up99]}" "${m[kp99]}")"
      printf '%-30s %9s %9s %9s\n' "  within 10% or 0.1 ms" "${verdicts[@]}"
      if [ "$WIRE" = 1 ]; then
        printf '%-30s %9.3f %9.3f %9.3f\n' "loadgen uncorrected − wire" "$(echo "${m[up50]} - ${m[lw50]}" | bc -l)" "$(echo "${m[up95]} - ${m[lw95]}" | bc -l)" "$(echo "${m[up99]} - ${m[lw99]}" | bc -l)"
        printf '%-30s %9.3f %9.3f %9.3f\n' "k6 − wire" "$(echo "${m[kp50]} - ${m[kw50]}" | bc -l)" "$(echo "${m[kp95]} - ${m[kw95]}" | bc -l)" "$(echo "${m[kp99]} - ${m[kw99]}" | bc -l)"
      fi
    fi
    printf 'runs p95: loadgen uncorrected%s | k6%s\n' "${v[up95]}" "${v[kp95]:- (none)}"
    unset v m
  done
}

for part in $PARTS; do
  case $part in
    closed) closed_part ;;
    open) open_part ;;
    *) echo "compare.sh: unknown part $part (closed, open)" >&2; exit 2 ;;
  esac
done
