#!/usr/bin/env python3
"""What a CI cache of `target/` saves the shards of `cargo faster --against`:
build once, measure on many. The crate of `shard_cost.py` (FUNCTIONS tracked
functions, two commits that differ in a comment), laid out as a CI matrix
sees it: every job starts from a fresh clone at one fixed path (its files
dated now, as `actions/checkout` leaves them), and `target/` comes from a
cache, archived with `tar --posix` and restored at the same path, as
`actions/cache` does (new inodes, the modification times kept).

In turn:
1. the build job: a cold clone, `cargo faster --against HEAD~1 --list`,
   which builds both revisions and measures nothing; its `target/` saved;
2. the warm shards: N = 1, 2, 4, each restoring the build job's cache;
3. one cold shard (`hash:1/N`, N the largest), for the ratio; its
   `target/` saved;
4. what the README's recipe gives: the cache the shard of step 3 left (the
   first shard to finish saves it, keyed on the base commit), restored
   for a head one commit later (a comment changed), for the shards of
   --readme-shards.
Prints per job: wall time, of it building and measuring, the crates cargo
compiled (its "Compiling" lines), what became of the base (built already,
rebuilt, built), the binaries linked again, the cache restored (MB) and the
target directory after; then where the disk goes (`--keep` keeps it all).
A program that prints figures, not a test: nothing here asserts.

Use, from the workspace root, after `cargo build --release -p cargo-faster`:
    python3 faster-accuracy/shard_cache.py [--functions 100] [--shards 1,2,4]
        [--readme-shards 4 (0: skip steps 3 and 4)] [--cargo-faster PATH] [--keep]
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shard_cost import CARGO_FASTER, library, fixture, git  # noqa: E402


def load():
    return open("/proc/loadavg").read().split()[0]


def clone(origin, checkout):
    """A fresh checkout at `checkout`, every file dated now."""
    shutil.rmtree(checkout, ignore_errors=True)
    subprocess.run(["git", "clone", "--quiet", origin, checkout], check=True)


def save(checkout, archive):
    """`target/` archived as actions/cache does (`tar --posix` keeps
    modification times to the nanosecond)."""
    subprocess.run(["tar", "--posix", "-cf", archive, "-C", checkout, "target"], check=True)
    return os.path.getsize(archive) // 1_000_000


def restore(checkout, archive):
    started = time.monotonic()
    subprocess.run(["tar", "-xf", archive, "-C", checkout], check=True)
    return time.monotonic() - started


def disk_by_folder(target):
    """MB on disk under `target`, by part: each file counted once however
    many hard links it has (a layout folder's `inputs/` are links)."""
    parts, seen = {}, set()
    for folder, _, files in os.walk(target):
        relative = os.path.relpath(folder, target)
        if ".layouts" in relative:
            part = ("the base's layouts" if relative.startswith("faster/base")
                    else "the current code's layouts")
        elif relative.startswith("faster/base/") and "/src" in relative:
            part = "the base's worktree"
        elif relative.startswith("faster/base/"):
            part = "the base's binaries"
        elif re.match(r"faster/build/[^/]+/(deps|build|\.fingerprint|incremental)", relative):
            part = "cargo's build (" + relative.split("/")[3] + ")"
        else:
            part = "the rest"
        for name in files:
            status = os.lstat(os.path.join(folder, name))
            if (status.st_dev, status.st_ino) in seen:
                continue
            seen.add((status.st_dev, status.st_ino))
            parts[part] = parts.get(part, 0) + status.st_blocks * 512
    return {part: size / 1e6 for part, size in sorted(parts.items(), key=lambda p: -p[1])}


def run(cargo_faster, checkout, arguments, against="HEAD~1"):
    environment = dict(os.environ, CARGO_NET_OFFLINE="true", CARGO_TERM_COLOR="never")
    for name in list(environment):
        if name.startswith("FASTER_") or name in ("GITHUB_STEP_SUMMARY", "CARGO_TARGET_DIR"):
            del environment[name]
    command = [cargo_faster, "faster", "--against", against, "--format", "terse", *arguments]
    started = time.monotonic()
    ran = subprocess.run(command, cwd=checkout, env=environment, capture_output=True, text=True)
    wall = time.monotonic() - started
    run_file = os.path.join(checkout, "target", "faster", "against", "+run.json")
    measuring, measured = 0.0, 0
    if "--list" not in arguments and os.path.exists(run_file):
        with open(run_file) as f:
            document = json.load(f)
        measuring, measured = document["elapsed_s"], len(document["comparisons"])
    base = re.search(r"the base revision .*? (is built already|is rebuilt: [^\n]*)", ran.stderr)
    built = re.search(r"built the base revision .*? in ([\d.]+) s", ran.stderr)
    return {
        "code": ran.returncode, "wall": wall, "measuring": measuring, "measured": measured,
        "compiled": len(re.findall(r"^\s*Compiling ", ran.stderr, re.M)),
        "base": base.group(1) if base else (f"built ({built.group(1)} s)" if built else "?"),
        "linked_again": len(re.findall(r"linking it again", ran.stderr)),
        "disk": disk_by_folder(os.path.join(checkout, "target")),
        "stderr": ran.stderr,
    }


def report(label, row, restored=None):
    cache = f", cache {restored[0]} MB restored in {restored[1]:.0f} s" if restored else ""
    layouts = sum(size for part, size in row["disk"].items() if "layouts" in part)
    print(f"{label}: exit {row['code']}, wall {row['wall']:.0f} s (building "
          f"{row['wall'] - row['measuring']:.0f} s, measuring {row['measuring']:.0f} s), "
          f"{row['compiled']} crates compiled, base {row['base']}, "
          f"{row['linked_again']} linked again, {row['measured']} measured{cache}, "
          f"target {sum(row['disk'].values()):.0f} MB (layouts {layouts:.0f} MB)  "
          f"[load {load()}]", flush=True)
    if row["code"] not in (0, 101):
        print(row["stderr"][-3000:])


def shards(cargo_faster, origin, checkout, count, label, cache, against="HEAD~1"):
    """The `count` shards of a matrix, one after another, each from a fresh
    clone at `checkout` with `cache` (its archive and size) restored."""
    walls = []
    for index in range(1, count + 1):
        clone(origin, checkout)
        restored = restore(checkout, cache[0])
        partition = [] if count == 1 else ["--partition", f"hash:{index}/{count}"]
        row = run(cargo_faster, checkout, partition, against)
        report(f"{label} N={count} {partition[1] if partition else 'whole'}", row,
               (cache[1], restored))
        walls.append(row["wall"])
    print(f"{label} N={count}: slowest shard {max(walls):.0f} s, sum {sum(walls):.0f} s")


def build_job(cargo_faster, origin, checkout, label, arguments):
    clone(origin, checkout)
    row = run(cargo_faster, checkout, arguments)
    report(label, row)
    print("  its target/ by part (MB): " + ", ".join(
        f"{part} {size:.0f}" for part, size in disk_by_folder(os.path.join(checkout, "target")).items()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--functions", type=int, default=100)
    parser.add_argument("--shards", default="1,2,4")
    parser.add_argument("--readme-shards", type=int, default=4, help="0: not this case")
    parser.add_argument("--cargo-faster", default=CARGO_FASTER)
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()
    counts = [int(n) for n in options.shards.split(",")]
    scratch = tempfile.mkdtemp(prefix="shard-cache-")
    origin = fixture(scratch, options.functions)
    checkout = os.path.join(scratch, "checkout")  # the runner's fixed path
    print(f"load before: {open('/proc/loadavg').read().split()[:3]}  cpus: {os.cpu_count()}")

    build_job(options.cargo_faster, origin, checkout, "build job (cold, --list)", ["--list"])
    archive = os.path.join(scratch, "target.tar")
    cache = (archive, save(checkout, archive))
    for count in counts:
        shards(options.cargo_faster, origin, checkout, count, "warm (the build job's cache)", cache)
    if options.readme_shards == 0:
        return finish(scratch, options.keep)

    # What the README's recipe caches: the target/ a whole shard leaves (the
    # first shard to finish saves it, keyed on the base commit), layouts
    # and all; the next push to the pull request restores it for a later
    # head.
    largest = max(counts)
    build_job(options.cargo_faster, origin, checkout, f"cold shard hash:1/{largest}",
              ["--partition", f"hash:1/{largest}"])
    archive = os.path.join(scratch, "shard-target.tar")
    cache = (archive, save(checkout, archive))
    with open(os.path.join(origin, "src", "lib.rs"), "w") as f:
        f.write(library(options.functions, "head, one commit later"))
    git(origin, "commit", "--quiet", "--all", "--message", "head 2")
    # The base stays where it was (as `--against origin/main` does), two
    # commits back now.
    base = subprocess.run(["git", "-C", origin, "rev-parse", "HEAD~2"], capture_output=True,
                          text=True, check=True).stdout.strip()
    shards(options.cargo_faster, origin, checkout, options.readme_shards,
           "README (a shard's cache, the head one commit later)", cache, against=base)
    return finish(scratch, options.keep)


def finish(scratch, keep):
    print(f"load after: {open('/proc/loadavg').read().split()[:3]}")
    if keep:
        print(f"kept: {scratch}")
    else:
        shutil.rmtree(scratch)


if __name__ == "__main__":
    sys.exit(main())
