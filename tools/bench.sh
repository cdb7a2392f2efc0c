#!/usr/bin/env bash
# Benchmarks eventlog2fxprof on a large real eventlog (not a test: figures only).
#
#   tools/bench.sh [EVENTLOG]
#
# Without EVENTLOG it uses build-release/large.eventlog, generating it first with
# tools/gen-large-eventlog.sh (needs GHC; ~300 MB; takes a few minutes).
# Reports, best of 3 runs where it says so:
#   - decode-only throughput (MB/s, events/s): frame + decode every event, file order;
#   - time-ordered read (index pass + k-way merge of the blocks), and the same with the merge
#     on a second thread (what convert, dump and summary use);
#   - `dump --stats` and `dump` to /dev/null: wall time and peak RSS;
#   - the full conversion (the product): wall time, MB/s, peak RSS and output size, against
#     issue 4's targets (>= 100 MB/s, RSS < input/4, output < input/10).
set -euo pipefail
cd "$(dirname "$0")/.."

tools/install-deps.sh
[[ -x /usr/bin/time ]] || { echo "bench needs /usr/bin/time: apt-get install -y time" >&2; exit 1; }
if [[ ! -f build-release/build.ninja ]]; then
  meson setup build-release --buildtype=release -Dtests=false
fi
meson compile -C build-release >/dev/null

input=${1:-build-release/large.eventlog}
if [[ ! -f "$input" ]]; then
  tools/gen-large-eventlog.sh "$input" 300
fi
size=$(stat -c %s "$input")
echo "input: $input ($((size / 1000000)) MB)"
cat "$input" > /dev/null  # warm the page cache: measure decoding, not the disk

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
  /usr/bin/time -f "wall=%es peak_rss=%MKB" "$@" > /dev/null 2> /tmp/el2fx-bench-time.txt || true
  tail -n 1 /tmp/el2fx-bench-time.txt
}

echo "decode-only (best of 3):      $(best "")"
echo "time-ordered (best of 3):     $(best --ordered)"
echo "prefetched (best of 3):       $(best --prefetched)"
echo "dump --stats:                 $(peak build-release/src/cli/eventlog2fxprof dump --stats "$input")"
echo "dump (text, to /dev/null):    $(peak build-release/src/cli/eventlog2fxprof dump "$input")"

out=$(mktemp "${TMPDIR:-/tmp}/el2fx-bench-XXXXXX.json.gz")
trap 'rm -f "$out"' EXIT
/usr/bin/time -f "%e %M" build-release/src/cli/eventlog2fxprof "$input" -o "$out" -q --timings 2> /tmp/el2fx-bench-time.txt > /dev/null
read -r wall rss_kb < <(tail -n 1 /tmp/el2fx-bench-time.txt)
echo "convert phases:               $(grep -o 'index.*' /tmp/el2fx-bench-time.txt)"
out_size=$(stat -c %s "$out")
awk -v w="$wall" -v r="$rss_kb" -v o="$out_size" -v s="$size" 'BEGIN {
  printf "convert:                      wall=%.2fs (%.1f MB/s; target >= 100) peak_rss=%.0f MB (%.1f%% of input; target < 25%%) output=%.1f MB (%.1f%% of input; target < 10%%)\n",
    w, s / 1e6 / w, r / 1024, r * 1024 * 100 / s, o / 1e6, o * 100 / s }'
