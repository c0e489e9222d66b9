#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, ASan + UBSan) and runs each for a set time on
# its corpus in tests/data/fuzz/<target>/, one target at a time, at low priority.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 120 s, every target)
#   scripts/fuzz.sh 300 html format_qs                    (targets by name, without "fuzz_")
#
# After each run the new inputs are minimised (libFuzzer -merge=1: only inputs that add coverage
# over the committed corpus; at most FOLIO_FUZZ_KEEP of them, smallest first) and copied into
# tests/data/fuzz/<target>/ as new-<sha1>; crashers
# (crash-, leak-, timeout-, oom-<sha1>) are copied there too, so tst_fuzzreplay_<target> replays
# them in every normal build (and fails until the parser is fixed). Committed seeds are never
# removed. A summary (seconds, exec/s, cov, ft, corpus, new inputs, findings) is printed and
# written to <build>/fuzz-summary.tsv; logs stay in <build>/fuzz-logs/.
#
# Environment: FOLIO_FUZZ_BUILD (default <repo>/build-fuzz), FOLIO_FUZZ_JOBS (ninja -j, default 2),
# FOLIO_FUZZ_MAX_LEN (libFuzzer -max_len, default 8192; longer seeds are cut there while fuzzing but
# replayed whole by the tests), FOLIO_FUZZ_KEEP (new inputs kept per target and run, smallest
# first, default 30), FOLIO_FUZZ_RSS_MB (default 2048).
# Needs clang++ and the libFuzzer runtime (libclang-rt-14-dev on Debian 12); installs them with
# apt-get when missing. The normal build does not need them.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-120}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
    echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]" >&2
    exit 2
fi
shift || true
build="${FOLIO_FUZZ_BUILD:-$repo/build-fuzz}"
jobs="${FOLIO_FUZZ_JOBS:-2}"
maxlen="${FOLIO_FUZZ_MAX_LEN:-8192}"
keep="${FOLIO_FUZZ_KEEP:-30}"
rssmb="${FOLIO_FUZZ_RSS_MB:-2048}"

all_targets=(html documentjson project format_funsd format_conll format_hfjsonl format_labelstudio format_qs
             format_govreport-qs format_hibrids format_qmsum
             format_swde safetensors torchpickle config tokenizer_bpe tokenizer_bpejson tokenizer_wordpiece
             tokenizer_sentencepiece)
if [ "$#" -gt 0 ]; then targets=("$@"); else targets=("${all_targets[@]}"); fi

# ---- clang + libFuzzer runtime --------------------------------------------------------------
can_link_fuzzer() {
    local tmp
    tmp="$(mktemp -d)"
    printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char *, unsigned long) { return 0; }\n' > "$tmp/t.cpp"
    clang++ -fsanitize=fuzzer,address,undefined "$tmp/t.cpp" -o "$tmp/t" > /dev/null 2>&1
    local rc=$?
    rm -rf "$tmp"
    return $rc
}
if ! command -v clang++ > /dev/null 2>&1 || ! can_link_fuzzer; then
    echo "fuzz.sh: installing clang and the libFuzzer runtime (clang, libclang-rt-14-dev)" >&2
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    $sudo_cmd apt-get install -y -qq clang libclang-rt-14-dev
    can_link_fuzzer || { echo "fuzz.sh: clang cannot link -fsanitize=fuzzer" >&2; exit 1; }
fi

# ---- build -----------------------------------------------------------------------------------
mkdir -p "$build"
cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
      -DFOLIO_FUZZ=ON -DFOLIO_BUILD_GUI=OFF -DFOLIO_BUILD_BENCH=OFF -DFOLIO_ENABLE_PCH=OFF > "$build/fuzz-configure.log" 2>&1 \
    || { cat "$build/fuzz-configure.log" >&2; exit 1; }
nice -n 10 ninja -C "$build" -j "$jobs" "${targets[@]/#/fuzz_}"

# ---- run -------------------------------------------------------------------------------------
logs="$build/fuzz-logs"
mkdir -p "$logs"
summary="$build/fuzz-summary.tsv"
printf 'target\tseconds\texec_per_s\tcov\tft\tcorpus_files\tnew_inputs\tfindings\n' > "$summary"
export OMP_NUM_THREADS=1 QT_QPA_PLATFORM=offscreen
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
status=0
for t in "${targets[@]}"; do
    exe="$build/fuzz/fuzz_$t"
    corpus="$repo/tests/data/fuzz/$t"
    mkdir -p "$corpus"
    work="$build/fuzz-work/$t"
    artifacts="$build/fuzz-artifacts/$t"
    rm -rf "$work" "$artifacts" "$work.merged"
    mkdir -p "$work" "$artifacts" "$work.merged"
    echo "== fuzz_$t: ${seconds}s on $(ls "$corpus" | wc -l) corpus files" >&2
    set +e
    # New inputs go to $work (the first folder); the committed corpus is read only.
    nice -n 10 "$exe" -max_total_time="$seconds" -max_len="$maxlen" -rss_limit_mb="$rssmb" -timeout=25 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "$work" "$corpus" > "$logs/$t.log" 2>&1
    rc=$?
    # Minimise: copy into .merged only the new inputs that add coverage over the corpus.
    cp "$corpus"/* "$work.merged"/ 2> /dev/null
    nice -n 10 "$exe" -merge=1 -max_len="$maxlen" -rss_limit_mb="$rssmb" -timeout=25 \
        "$work.merged" "$work" > "$logs/$t.merge.log" 2>&1
    set -e
    # Keep the corpus small: at most $keep new inputs per run, the smallest first.
    added=0
    while IFS= read -r f; do
        name="$(basename "$f")"
        [ -e "$corpus/$name" ] && continue
        [ "$added" -ge "$keep" ] && break
        cp "$f" "$corpus/new-$name"
        added=$((added + 1))
    done < <(ls -Sr "$work.merged"/* 2> /dev/null)
    findings=0
    for f in "$artifacts"/*; do
        [ -e "$f" ] || continue
        cp "$f" "$corpus/"
        findings=$((findings + 1))
        echo "fuzz_$t: FOUND $(basename "$f") (copied into tests/data/fuzz/$t/)" >&2
    done
    [ "$rc" -ne 0 ] && [ "$findings" -eq 0 ] && { echo "fuzz_$t: exited $rc, see $logs/$t.log" >&2; findings=1; }
    [ "$findings" -gt 0 ] && status=1
    last="$(grep -E '^#[0-9]+.*cov: ' "$logs/$t.log" | tail -1 || true)"
    cov="$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<< "$last")"
    ft="$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<< "$last")"
    eps="$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+).*/\1/p' "$logs/$t.log" | tail -1)"
    secs="$(sed -nE 's/^Done [0-9]+ runs in ([0-9]+) second.*/\1/p' "$logs/$t.log" | tail -1)"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "${secs:-?}" "${eps:-?}" "${cov:-?}" "${ft:-?}" \
        "$(ls "$corpus" | wc -l)" "$added" "$findings" >> "$summary"
done
column -t -s $'\t' "$summary"
exit $status
