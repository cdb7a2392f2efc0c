#!/usr/bin/env bash
# Benchmarks eventlog2fxprof on large real eventlogs (not a test: figures only).
#
#   tools/bench.sh [EVENTLOG...]
#
# It measures the release build tools/build-release.sh makes (profile-guided with gcc), in
# build-release/. Without EVENTLOG it uses build-release/large.eventlog, generating it first with
# tools/gen-large-eventlog.sh (needs GHC; ~300 MB; takes a few minutes).
# For the first eventlog it reports, best of 3 runs where it says so:
#   - decode-only throughput (MB/s, events/s): frame + decode every event, file order;
#   - time-ordered read (index pass + k-way merge of the blocks), and the same with the merge
#     on a second thread (what convert, dump and summary use);
#   - `dump --stats` and `dump` to /dev/null: wall time and peak RSS.
# For every eventlog, the full conversion (the product), median of $BENCH_RUNS runs (default 3):
#   - wall time, MB/s, peak RSS and output size, against issue 4's targets (>= 100 MB/s,
#     RSS < input/4, output < input/10), and the size of the JSON inside the gzip;
#   - its CPU time (user + system, every thread): the work done whatever the balance. On two
#     cores a wall ratio r needs a CPU ratio of at most 2r (the parse runs on one core);
#   - the lines convert writes on standard error (with --timings: its phases; and any
#     warning or note, such as what the output budget coarsened), indented;
#   - the ratio of its wall time to a bare parse of the same file by the ghc-events Haskell
#     library (tools/bench/GhcEventsCount.hs, built into build-release/ghc-events-count/;
#     median of as many runs), when GHC and ghc-events are installed (Debian:
#     libghc-ghc-events-dev; installed here with apt-get when missing and possible).
set -euo pipefail
inputs=()
for f in "$@"; do
  case "$f" in /*) inputs+=("$f") ;; *) inputs+=("$PWD/$f") ;; esac
done
cd "$(dirname "$0")/.."

tools/install-deps.sh
[[ -x /usr/bin/time ]] || { echo "bench needs /usr/bin/time: apt-get install -y time" >&2; exit 1; }
# The build a user gets from the README: release, LTO, and profile-guided with gcc (trained
# again only when the sources changed).
tools/build-release.sh build-release >/dev/null

RUNS=${BENCH_RUNS:-3}
case "$RUNS" in ''|*[!0-9]*|0) echo "BENCH_RUNS must be a positive whole number" >&2; exit 2 ;; esac
if [[ ${#inputs[@]} -eq 0 ]]; then
  inputs=(build-release/large.eventlog)
  if [[ ! -f "${inputs[0]}" ]]; then
    tools/gen-large-eventlog.sh "${inputs[0]}" 300
  fi
fi
for f in "${inputs[@]}"; do
  [[ -f "$f" ]] || { echo "bench: no such file: $f" >&2; exit 1; }
done

# The ghc-events yardstick: build tools/bench/GhcEventsCount.hs when the library is there.
ghc_events=""
ghc_events_skip=""
if ! command -v ghc >/dev/null 2>&1 || ! command -v ghc-pkg >/dev/null 2>&1; then
  ghc_events_skip="GHC is not installed (apt-get install -y ghc libghc-ghc-events-dev)"
else
  if [[ -z "$(ghc-pkg --simple-output list ghc-events 2>/dev/null)" ]] && [[ $(id -u) -eq 0 ]] \
     && command -v apt-get >/dev/null 2>&1; then
    echo "installing libghc-ghc-events-dev (for the ghc-events ratio)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libghc-ghc-events-dev >/dev/null 2>&1 || true
  fi
  if [[ -z "$(ghc-pkg --simple-output list ghc-events 2>/dev/null)" ]]; then
    ghc_events_skip="the ghc-events library is not installed (apt-get install -y libghc-ghc-events-dev)"
  else
    ghc_events=build-release/ghc-events-count/GhcEventsCount
    if [[ ! -x "$ghc_events" || tools/bench/GhcEventsCount.hs -nt "$ghc_events" ]]; then
      mkdir -p build-release/ghc-events-count
      ( cd tools/bench && ghc -v0 -O1 -rtsopts -package ghc-events \
          -outputdir ../../build-release/ghc-events-count/obj \
          -o ../../build-release/ghc-events-count/GhcEventsCount GhcEventsCount.hs ) \
        || { ghc_events=""; ghc_events_skip="GhcEventsCount.hs did not build"; }
    fi
  fi
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/el2fx-bench-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out.json.gz

best() {  # best wall time of 3 runs of a decode_bench mode
  local mode=$1 line best_line="" best_s=999999
  for _ in 1 2 3; do
    line=$(build-release/tools/decode_bench $mode "$input")
    s=$(sed -E 's/.*seconds=([0-9.]+).*/\1/' <<<"$line")
    if awk -v a="$s" -v b="$best_s" 'BEGIN{exit !(a<b)}'; then best_s=$s; best_line=$line; fi
  done
  echo "$best_line"
}

peak() {  # wall time and peak RSS of a command
  /usr/bin/time -f "wall=%es peak_rss=%MKB" "$@" > /dev/null 2> "$tmp/time.txt" || true
  tail -n 1 "$tmp/time.txt"
}

median() {  # median of the numbers on standard input
  sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

first=1
table=()
for input in "${inputs[@]}"; do
  size=$(stat -L -c %s "$input")
  echo "input: $input ($((size / 1000000)) MB)"
  cat "$input" > /dev/null  # warm the page cache: measure decoding, not the disk

  if [[ $first -eq 1 ]]; then
    echo "decode-only (best of 3):      $(best "")"
    echo "time-ordered (best of 3):     $(best --ordered)"
    echo "prefetched (best of 3):       $(best --prefetched)"
    echo "dump --stats:                 $(peak build-release/src/cli/eventlog2fxprof dump --stats "$input")"
    echo "dump (text, to /dev/null):    $(peak build-release/src/cli/eventlog2fxprof dump "$input")"
    first=0
  fi

  # Convert and the ghc-events parse take turns, run after run (a load that comes and goes
  # weighs on both alike); the ratio is the median of each pair's.
  : > "$tmp/walls.txt"
  : > "$tmp/cpus.txt"
  : > "$tmp/rss.txt"
  : > "$tmp/ge.txt"
  : > "$tmp/ratios.txt"
  : > "$tmp/passes.txt"
  status=0
  events=""
  for _ in $(seq 1 "$RUNS"); do
    status=0
    # Warmed again before each run, of either: a machine may reclaim cached pages it thinks
    # cold within seconds (a virtual machine's memory given back to its host, DAMON), and a
    # run that reads part of its input from the disk measures the disk.
    cat "$input" > /dev/null
    /usr/bin/time -o "$tmp/time.txt" -f "%e %M %U %S" build-release/src/cli/eventlog2fxprof "$input" -o "$out" --timings \
      > /dev/null 2> "$tmp/stderr.txt" || status=$?
    read -r wall rss_kb user sys < <(tail -n 1 "$tmp/time.txt")
    echo "$wall" >> "$tmp/walls.txt"
    awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f\n", u + s }' >> "$tmp/cpus.txt"
    echo "$rss_kb" >> "$tmp/rss.txt"
    # The events pass's CPU, merge thread / consumer, run by run: a run where the merge took
    # far more than the others did not measure the code (doc/performance.md, The machine, not the code).
    sed -nE 's/.*events [0-9.]+ s \(CPU: reader ([0-9.]+) s, analyses ([0-9.]+) s.*/\1\/\2/p' "$tmp/stderr.txt" \
      | tail -n 1 >> "$tmp/passes.txt"
    if [[ -n "$ghc_events" && "$events" != failed ]]; then
      cat "$input" > /dev/null
      events=$(/usr/bin/time -o "$tmp/time.txt" -f "%e" "$ghc_events" "$input" 2> "$tmp/ge-err.txt") || events="failed"
      ge=$(tail -n 1 "$tmp/time.txt")
      echo "$ge" >> "$tmp/ge.txt"
      awk -v w="$wall" -v g="$ge" 'BEGIN { if (g > 0) printf "%.4f\n", w / g }' >> "$tmp/ratios.txt"
    fi
  done
  wall=$(median < "$tmp/walls.txt")
  cpu=$(median < "$tmp/cpus.txt")
  rss_kb=$(sort -g "$tmp/rss.txt" | tail -n 1)
  out_size=$(stat -L -c %s "$out" 2>/dev/null || echo 0)
  json_size=$(gzip -dc "$out" 2>/dev/null | wc -c) || json_size=0
  awk -v w="$wall" -v r="$rss_kb" -v o="$out_size" -v j="$json_size" -v s="$size" -v n="$RUNS" 'BEGIN {
    printf "convert (median of %d):       wall=%.2fs (%.1f MB/s; target >= 100) peak_rss=%.0f MB (%.1f%% of input; target < 25%%) output=%.1f MB (%.1f%% of input; target < 10%%) json=%.1f MB\n",
      n, w, s / 1e6 / w, r / 1024, r * 1024 * 100 / s, o / 1e6, o * 100 / s, j / 1e6 }'
  echo "convert CPU (median of $RUNS):  ${cpu}s user + system, every thread"
  [[ -s "$tmp/passes.txt" ]] && echo "events pass CPU by run (merge/consumer, s): $(tr '\n' ' ' < "$tmp/passes.txt")"
  [[ $status -eq 0 ]] || echo "convert exit status:          $status"
  echo "convert stderr (last run):"
  sed 's/^/    /' "$tmp/stderr.txt"
  row="| $(basename "$input") ($((size / 1000000)) MB) | "
  if [[ -z "$ghc_events" ]]; then
    echo "ghc-events ratio skipped: $ghc_events_skip"
    row+="– | – | $wall s | – | $cpu s | – | $((rss_kb / 1024)) MB |"
  elif [[ "$events" == failed ]]; then
    echo "ghc-events parse:             failed: $(head -n 1 "$tmp/ge-err.txt")"
    row+="– | failed | $wall s | – | $cpu s | – | $((rss_kb / 1024)) MB |"
  else
    ge_wall=$(median < "$tmp/ge.txt")
    ratio=$(median < "$tmp/ratios.txt")
    awk -v g="$ge_wall" -v e="$events" -v n="$RUNS" -v s="$size" -v r="$ratio" 'BEGIN {
      printf "ghc-events parse (median of %d): wall=%.2fs (%.1f MB/s) events=%s; convert / ghc-events parse = %.2f (median of the runs'"'"' ratios)\n",
        n, g, s / 1e6 / g, e, r }'
    row+=$(awk -v g="$ge_wall" -v w="$wall" -v r="$ratio" -v c="$cpu" -v k="$rss_kb" -v e="$events" 'BEGIN {
      printf "%.1f M events | %.2f s | %.2f s | %.2f× | %.2f s | %.2f× | %.1f MB |", e / 1e6, g, w, r, c, c / g, k / 1024 }')
  fi
  table+=("$row")
  echo
done

# The README's table: one row per eventlog.
echo "| eventlog | events | ghc-events parse | convert | ratio | convert CPU | CPU / parse | peak RSS |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${table[@]}"
