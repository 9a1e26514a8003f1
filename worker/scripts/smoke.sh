#!/usr/bin/env bash
# Manual smoke test of the inference worker: builds it, starts it on a free port with temporary model and package
# directories, and checks /health, /generate (a valid WAV > 0.5 s), /generate/stream (chunks arrive progressively),
# error shapes, auth, and that /health stays fast while 8 generations run at once.
#
#   worker/scripts/smoke.sh            # build + run
#   SKIP_BUILD=1 worker/scripts/smoke.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
WORK="$(mktemp -d)"
WORKER_PID=""
cleanup() {
  if [[ -n "$WORKER_PID" ]] && kill -0 "$WORKER_PID" 2>/dev/null; then
    kill "$WORKER_PID" && wait "$WORKER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; [[ -f "$WORK/worker.log" ]] && tail -n 20 "$WORK/worker.log" >&2; exit 1; }
pass() { echo "ok   $*"; }

if [[ -z "${SKIP_BUILD:-}" ]]; then
  npx nest build worker >/dev/null
fi

free_port() { node -e 'const s=require("net").createServer();s.listen(0,()=>{console.log(s.address().port);s.close()})'; }

start_worker() { # extra env assignments as arguments
  PORT="$(free_port)"
  BASE="http://127.0.0.1:$PORT"
  env PORT="$PORT" INFERENCE_MODELS_PATH="$WORK/models" PACKAGES_DIR="$WORK/packages" "$@" \
    node dist/worker/main.js >"$WORK/worker.log" 2>&1 &
  WORKER_PID=$!
  for _ in $(seq 1 100); do
    curl -fs "$BASE/health" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  fail "worker did not start"
}

stop_worker() { kill "$WORKER_PID"; wait "$WORKER_PID" 2>/dev/null || true; WORKER_PID=""; }

# --- start-up validation ------------------------------------------------------------------------------------------
set +e
out="$(INFERENCE_DEVICE=tpu node dist/worker/main.js 2>&1)"; code=$?
set -e
[[ $code -eq 1 && "$out" == *"INFERENCE_DEVICE"* && $(echo "$out" | wc -l) -eq 1 ]] || fail "bad INFERENCE_DEVICE: exit $code, output: $out"
pass "INFERENCE_DEVICE=tpu → exit 1: $out"

start_worker
# --- health -------------------------------------------------------------------------------------------------------
health="$(curl -fs "$BASE/health")"
echo "$health" | grep -q '"status":"ok"' || fail "health: $health"
pass "GET /health → $health"

# --- generate (WAV) -----------------------------------------------------------------------------------------------
body='{"backend":"espeak","text":"Hello world. This is Chorus speaking.","language":"en"}'
status="$(curl -s -o "$WORK/x.wav" -w '%{http_code} %{content_type} %{time_total}s' -X POST "$BASE/generate" \
  -H 'content-type: application/json' -d "$body")"
[[ "$status" == 200\ audio/wav* ]] || fail "generate: $status $(cat "$WORK/x.wav")"
duration="$(soxi -D "$WORK/x.wav")"
node -e "process.exit(Number(process.argv[1]) > 0.5 ? 0 : 1)" "$duration" || fail "WAV too short: $duration s"
pass "POST /generate → $status, $(soxi -r "$WORK/x.wav") Hz, $(soxi -c "$WORK/x.wav") ch, ${duration}s"

# --- stream (PCM) -------------------------------------------------------------------------------------------------
long='{"backend":"espeak","text":"'"$(printf 'This is sentence number %s of the streaming test. ' $(seq 1 40))"'"}'
curl -s -N --no-buffer -D "$WORK/stream.headers" -X POST "$BASE/generate/stream" -H 'content-type: application/json' \
  -d "$long" | node -e '
    const t0 = Date.now(); let chunks = 0, bytes = 0, first;
    process.stdin.on("data", (d) => { chunks++; bytes += d.length; first ??= Date.now() - t0; });
    process.stdin.on("end", () => { console.log(JSON.stringify({ chunks, bytes, firstMs: first, totalMs: Date.now() - t0 })); });
  ' >"$WORK/stream.json"
grep -qi '^x-sample-rate: 22050' "$WORK/stream.headers" || fail "stream headers: $(cat "$WORK/stream.headers")"
grep -qi '^transfer-encoding: chunked' "$WORK/stream.headers" || fail "stream is not chunked"
node -e 'const r=require(process.argv[1]); process.exit(r.chunks > 1 && r.bytes > 22050 * 2 ? 0 : 1)' "$WORK/stream.json" \
  || fail "stream: $(cat "$WORK/stream.json")"
pass "POST /generate/stream → $(cat "$WORK/stream.json")"

# --- errors -------------------------------------------------------------------------------------------------------
expect_status() { # method path body expected
  local got
  got="$(curl -s -o "$WORK/err.json" -w '%{http_code}' -X "$1" "$BASE$2" -H 'content-type: application/json' ${3:+-d "$3"})"
  [[ "$got" == "$4" ]] || fail "$1 $2 → $got (wanted $4): $(cat "$WORK/err.json")"
  pass "$1 $2 → $got $(cat "$WORK/err.json")"
}
expect_status POST /generate '{"backend":"espeak","text":"Hi","voice_path":"xx-nope"}' 400
expect_status POST /generate '{"backend":"espeak","text":"Hi","speed":9}' 400
expect_status POST /generate '{"backend":"espeak","text":"","extra":1}' 400
expect_status POST /generate '{"backend":"nope","text":"Hi"}' 400
expect_status GET /backends/nope/status '' 404
expect_status GET /backends/espeak/status '' 200

# --- /health stays fast while 8 generations run -------------------------------------------------------------------
big='{"backend":"espeak","text":"'"$(printf 'The quick brown fox jumps over the lazy dog near the riverbank. %.0s' $(seq 1 120))"'","speed":0.5}'
pids=()
for _ in $(seq 1 8); do
  curl -s -o /dev/null -X POST "$BASE/generate" -H 'content-type: application/json' -d "$big" & pids+=($!)
done
sleep 0.3
worst=0
for _ in $(seq 1 20); do
  ms="$(curl -s -o /dev/null -w '%{time_total}' "$BASE/health" | awk '{printf "%d", $1 * 1000}')"
  (( ms > worst )) && worst=$ms
  sleep 0.05
done
busy="$(curl -s "$BASE/backends/espeak/status" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const q=JSON.parse(s).queues;console.log(JSON.stringify(q))})')"
wait "${pids[@]}"
(( worst < 100 )) || fail "/health took ${worst} ms during generation"
pass "/health worst ${worst} ms while 8 generations ran (queues then: $busy)"
stop_worker

# --- auth ---------------------------------------------------------------------------------------------------------
start_worker INFERENCE_AUTH_TOKEN=smoke-secret
[[ "$(curl -s -o /dev/null -w '%{http_code}' "$BASE/health")" == 200 ]] || fail "health must be public"
[[ "$(curl -s -o /dev/null -w '%{http_code}' "$BASE/backends")" == 401 ]] || fail "backends without token must be 401"
[[ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer wrong' "$BASE/backends")" == 401 ]] || fail "wrong token"
[[ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer smoke-secret' "$BASE/backends")" == 200 ]] || fail "right token"
[[ "$(curl -s -o /dev/null -w '%{http_code}' "$BASE/openapi.json")" == 401 ]] || fail "openapi without token"
grep -q 'smoke-secret' "$WORK/worker.log" && fail "the token appears in the log"
pass "auth: /health open, others 401 without/with a wrong token, 200 with it; token never logged"
stop_worker

echo "smoke test passed"
