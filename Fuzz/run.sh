#!/usr/bin/env bash
# Builds Folio's libFuzzer targets (-sanitize=fuzzer,address) and runs them.
# Usage: bash Fuzz/run.sh [TARGET...] [--seconds N] [--seed S] [--jobs J] [--max-len BYTES] [--no-build]
#   TARGET: FuzzPDF FuzzSave FuzzFilters FuzzXMP FuzzCSV FuzzOpenIn FuzzSetlist FuzzForScore FuzzFont FuzzImage FuzzText FuzzIntake FuzzAudio FuzzParts
#   (default: all), each for N seconds (default 60) on J processes (default 2, one per core);
#   inputs are cut to BYTES (default 262144; smaller runs faster, larger reaches deeper into big files);
#   --no-build runs the targets as last built (a long campaign keeps testing one build while the sources change).
# Corpora grow in Fuzz/corpus/<target>/ and findings land in Fuzz/findings/<target>/ (both out of git).
# Prints executions, coverage and findings per target; exits 1 when a target found a crash, hang,
# leak or out-of-memory.
set -u
cd "$(dirname "$0")"
seconds=60; seed=""; jobs=2; maxlen=262144; build=1; targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --max-len) maxlen="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        *) targets+=("$1"); shift ;;
    esac
done
all=(FuzzPDF FuzzSave FuzzFilters FuzzXMP FuzzCSV FuzzOpenIn FuzzSetlist FuzzForScore FuzzFont FuzzImage FuzzText FuzzIntake FuzzAudio FuzzParts)
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
flags=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld)
if [ "$build" = 1 ] && ! swift build "${flags[@]}" > build.log 2>&1; then cat build.log; echo "fuzz build failed"; exit 2; fi
bin="$(swift build "${flags[@]}" --show-bin-path)"
if [ ! -d corpus ]; then python3 seeds.py "${FOLIO_CORPUS:-../../shared/corpus}" corpus || exit 2; fi
export LSAN_OPTIONS="suppressions=$(pwd)/lsan.supp:print_suppressions=0"
status=0
printf "| target | executions | exec/s | coverage (edges) | features | corpus | findings |\n| --- | --- | --- | --- | --- | --- | --- |\n"
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target" "findings/$target" "logs/$target"
    rm -f logs/"$target"/*.log
    here="$(pwd)"
    options=(-rss_limit_mb=2048 -timeout=5 -max_total_time="$seconds" -max_len="$maxlen" -print_final_stats=1
             -artifact_prefix="$here/findings/$target/" -dict="$here/pdf.dict")
    [ -n "$seed" ] && options+=(-seed="$seed")
    before=$(ls "findings/$target" | wc -l)
    if [ "$jobs" -gt 1 ]; then
        # libFuzzer's -jobs writes each job's log as fuzz-N.log in the working directory.
        (cd "logs/$target" && "$bin/$target" "${options[@]}" -jobs="$jobs" -workers="$jobs" "$here/corpus/$target" >/dev/null 2>&1) || true
    else
        "$bin/$target" "${options[@]}" "corpus/$target" > "logs/$target/fuzz-0.log" 2>&1 || true
    fi
    runs=0; cov=0; ft=0
    for log in logs/"$target"/*.log; do
        r=$(grep -o "stat::number_of_executed_units: [0-9]*" "$log" | tail -1 | awk '{print $2}'); runs=$((runs + ${r:-0}))
        c=$(grep -o "cov: [0-9]*" "$log" | tail -1 | awk '{print $2}'); [ "${c:-0}" -gt "$cov" ] && cov=$c
        f=$(grep -o "ft: [0-9]*" "$log" | tail -1 | awk '{print $2}'); [ "${f:-0}" -gt "$ft" ] && ft=$f
    done
    rate=$((runs / seconds))
    after=$(ls "findings/$target" | wc -l)
    found=$((after - before))
    printf "| %s | %s | %s | %s | %s | %s | %s |\n" "$target" "$runs" "$rate" "$cov" "$ft" "$(ls "corpus/$target" | wc -l)" "$found"
    if [ "$found" -gt 0 ]; then
        status=1
        for finding in $(ls -t "findings/$target" | head -"$found"); do echo "  finding: Fuzz/findings/$target/$finding"; done
        grep -h -A3 "ERROR: \(AddressSanitizer\|libFuzzer\)\|SUMMARY\|Fatal error" logs/"$target"/*.log | head -20 | sed 's/^/    /'
    fi
done
exit $status
