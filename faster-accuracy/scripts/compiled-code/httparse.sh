#!/bin/sh
# httparse.sh HTTPARSE_CLONE FASTER_CHECKOUT
#
# The compiled-code note against a plain instruction diff, on httparse's
# commits f34faf2 and 47853d7 (SIMD matchers changed) and fff851f (benches
# only): each commit and its parent get the same tracking wrapper
# (httparse_track.rs, by guide/bisect.md's track-history script), `cargo
# faster --against` the parent prints what the note says, and
# insn_diff.py diffs the two test binaries' instructions. Needs
# cargo-faster on PATH. The old httparse denies warnings in tests, which
# today's compiler gives (unexpected cfgs): RUSTFLAGS lets them pass.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
clone=$(realpath "$1")
faster=$(realpath "$2")
track=$(mktemp)
sed -n '/^#!\/bin\/sh$/,/^```$/p' "$faster/guide/bisect.md" | sed '$d' >"$track"
export RUSTFLAGS="-A unexpected_cfgs"
cd "$clone"
for commit in f34faf2 47853d7 fff851f; do
    parent=$(git rev-parse --short "$commit^")
    sh "$track" "$parent" "$commit" "$here/httparse_track.rs" "path = \"$faster\"" >/dev/null
    git branch --force "tracked-$commit" faster-tracked
    git checkout --quiet "tracked-$commit"
    echo "== $commit against $parent"
    cargo faster --against HEAD~1 >"/tmp/httparse-$commit.txt" 2>&1 || true
    python3 - <<'PY'
import json
for name in ["parse_headers", "parse_request"]:
    result = json.load(open(f"target/faster/against/faster_track.{name}.json"))["result"]
    code = result["compiled_code"]
    print(f"  {name}: {result['verdict']}, timed loop differs {code['timed_loop_differs']}, "
          f"not followed {code['not_followed']}")
    for callee in code["callees_differing"]:
        print(f"    differs: {callee['name']} ({callee['bytes']['base']} -> {callee['bytes']['current']} bytes)")
PY
    # Both binaries: the parent's kept under target/faster/base, this one's
    # built again as a base of its own.
    base=$(ls -d target/faster/base/"$(git rev-parse HEAD~1 | cut -c1-12)"/release/bin/faster_track-* | grep -v layouts)
    cp "$base" /tmp/httparse-parent.bin
    git checkout --quiet --detach HEAD~1
    cargo faster --against "tracked-$commit" >/dev/null 2>&1 || true
    current=$(ls -d target/faster/base/"$(git rev-parse "tracked-$commit" | cut -c1-12)"/release/bin/faster_track-* | grep -v layouts)
    python3 "$here/insn_diff.py" /tmp/httparse-parent.bin "$current" | sed 's/^/  instructions: /'
done
rm -f "$track"
