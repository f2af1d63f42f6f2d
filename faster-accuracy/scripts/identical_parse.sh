#!/bin/sh
# Issue 49's P-resolution: two identical copies of a CSV line parse
# (identical-parse/) at a 2% floor, built from clean BUILDS times (default 4),
# each run with `cargo test --release`. Prints, per build, the load average,
# the comparison's verdict lines and the run's total time (the test binary's
# own "finished in", and the wall time of `cargo test` with its build).
# Scratch (a copy of the crate and its target dir) goes under $SCRATCH
# (default /tmp/identical-parse), never into the repository.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
faster=$(cd "$here/../.." && pwd)
scratch=${SCRATCH:-/tmp/identical-parse}
builds=${BUILDS:-4}
rm -rf "$scratch" && mkdir -p "$scratch"
cp -r "$here/identical-parse" "$scratch/crate"
sed -i "s|FASTER_PATH|$faster|" "$scratch/crate/Cargo.toml"
for build in $(seq 1 "$builds"); do
    rm -rf "$scratch/target"
    echo "== build $build, load $(cut -d' ' -f1 /proc/loadavg), $(date -u +%H:%M:%S) UTC"
    start=$(date +%s)
    (cd "$scratch/crate" && CARGO_TARGET_DIR="$scratch/target" cargo test --release -- --nocapture 2>&1) \
        > "$scratch/build-$build.log" || { cat "$scratch/build-$build.log"; exit 1; }
    end=$(date +%s)
    grep -E "parse_b|undecided|within|faster|slower|would|finished in|test result" \
        "$scratch/build-$build.log" || true
    echo "cargo test --release, build included: $((end - start)) s"
done
