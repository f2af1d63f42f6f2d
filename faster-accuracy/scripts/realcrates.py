#!/usr/bin/env python3
"""Real crates tracked with their benchmarks' inputs: `cargo faster --against`
from commits of itoa, hex, ryu and base64, and the table the guide shows
(guide/revisions.md, "Crates tracked with their benchmarks' inputs").

For each commit, its parent and the commit each get the same tracking module
(realcrates/<crate>.rs, as `src/faster_tracking.rs` behind `#[cfg(test)]`) and
the same Cargo.toml edit (faster-test as a path dev-dependency; benches,
examples and integration tests off, so only the library's test binary is
built; dev-dependencies the library's own tests do not use dropped). The
parent's copy is committed (cargo faster checks the base out of git), the
commit's is left in the working tree. Then `cargo faster --against <parent'>
--format json` runs REPEATS times per floor, one run at a time, each run's
JSON lines, exit code, wall time and load average kept under RESULTS.

    realcrates.py run --repo CRATE=GIT_DIR... [--crate NAME]... [--commit C]... [--floor F]...
    realcrates.py table [--results DIR]

`run` needs the crates' git repositories (any clone with their history:
`git clone https://github.com/dtolnay/itoa` ...) and a `cargo-faster`
binary (`--cargo-faster`, default: on PATH). Every run's JSON is kept, so
`table` can be run again on the same results.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FASTER = HERE.parent.parent
MODULES = HERE / "realcrates"

# Per crate: its commits (those that claim a speedup, then some touching no
# code), and the dev-dependencies its library's own tests do without.
CRATES = {
    "itoa": {
        "commits": {
            "200d064": "Delete unreachable_unchecked hints",
            "bae1746": "Copy fast divmod100 from zmij",
            "24d8b35": "no code: CI, actions/checkout v6 -> v7",
            "7b4c86b": "Optimize 128-bit integer formatting",
            "bbf077f": "no code: benchmark chart image",
        },
        "drop": ["criterion"],
    },
    "hex": {
        "commits": {
            "5cb1fe8": "PR #64, perf-encode",
            "924ce70": "no code: a code of conduct",
            "d2c5f0b": "no code: docsrs configuration removed",
        },
        "drop": ["criterion", "rustc-hex", "faster-hex", "data-encoding",
                 "version-sync", "serde", "serde_json"],
    },
    "ryu": {
        "commits": {
            "2ded0d1": "Reimplement pow5_factor using modular inverse",
            "2e482fc": "no code: README, sync to ulfjack/ryu",
            "8a06923": "no code: CI, cargo-outdated toolchain",
        },
        "drop": ["num_cpus", "rand", "rand_xorshift"],
    },
    "base64": {
        "commits": {
            "a8a60f4": "Decode main loop improvements",
            "37670c5": "no code: CI, dev toolchain bump",
            "e8e4a22": "no code: a doc example's trailing fence",
        },
        "drop": ["criterion", "clap"],
        # Its older commits deny warnings, among them lints newer compilers
        # added (`mismatched_lifetime_syntaxes`): capped, both sides alike.
        "rustflags": "--cap-lints=warn",
    },
}
FLOORS = [0.05, 0.02]
REPEATS = 2


def git(checkout, *args):
    """Runs git in `checkout`, its output stripped; a failure ends the script."""
    done = subprocess.run(["git", "-C", str(checkout), *args],
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"git {' '.join(args)} in {checkout} failed: {done.stderr.strip()}")
    return done.stdout.strip()


def edited_manifest(text, drop):
    """Cargo.toml with only the library's test binary built, `drop`'s
    dev-dependencies left out and faster-test added by path."""
    kept, skipping = [], False
    for line in text.splitlines():
        header = re.match(r"\s*\[\[?([^\]]+)\]\]?\s*$", line)
        if header:
            name = header.group(1).strip()
            skipping = (line.strip().startswith("[[") and name in ("bench", "example", "test")) \
                or any(name.endswith(f"dev-dependencies.{dep}") for dep in drop)
        elif any(re.match(rf"\s*{re.escape(dep)}\s*=", line) for dep in drop):
            continue
        if not skipping:
            kept.append(line)
        if header and header.group(1).strip() == "package":
            kept += ["autobenches = false", "autoexamples = false", "autotests = false"]
    kept += ["", "[dev-dependencies.faster-test]", f'path = "{FASTER}"', ""]
    return "\n".join(kept)


def add_tracking(checkout, crate):
    """Writes the crate's tracking module and manifest edit into `checkout`."""
    source = (MODULES / f"{crate}.rs").read_text()
    (checkout / "src" / "faster_tracking.rs").write_text(source)
    lib = checkout / "src" / "lib.rs"
    lib.write_text(lib.read_text() + "\n#[cfg(test)]\nmod faster_tracking;\n")
    manifest = checkout / "Cargo.toml"
    manifest.write_text(edited_manifest(manifest.read_text(), CRATES[crate]["drop"]))


def prepare_pair(checkout, crate, commit):
    """Commits the parent with tracking added and leaves the commit, tracking
    added, in the working tree; returns the base to run against."""
    git(checkout, "checkout", "-q", "-f", f"{commit}^")
    git(checkout, "clean", "-q", "-f", "-d", "-x")
    add_tracking(checkout, crate)
    git(checkout, "add", "-A")
    git(checkout, "-c", "user.name=realcrates", "-c", "user.email=realcrates@localhost",
        "commit", "-q", "-m", "faster tracking")
    base = git(checkout, "rev-parse", "HEAD")
    git(checkout, "checkout", "-q", "-f", commit)
    git(checkout, "clean", "-q", "-f", "-d", "-x")
    add_tracking(checkout, crate)
    return base


def load_average():
    """The 1-minute load average, as `uptime` shows it."""
    return float(Path("/proc/loadavg").read_text().split()[0])


def floor_name(floor):
    """A floor as the results' file names spell it: 0.02 is `2pct`."""
    return f"{round(floor * 100)}pct"


def kept(out, suffix):
    """The file of one run's results with `suffix` (`.jsonl`, `.stderr`, `.meta.json`)."""
    return out.parent / (out.name + suffix)


def run_once(args, crate, checkout, base, floor, out):
    """One `cargo faster --against base` run; its documents and figures to `out`."""
    command = [args.cargo_faster, "faster", "--against", base, "--format", "json",
               "--noise-floor", str(floor)]
    load = load_average()
    start = time.monotonic()
    env = {**os.environ, "CARGO_TARGET_DIR": args.target_dir}
    if "rustflags" in CRATES[crate]:
        env["RUSTFLAGS"] = CRATES[crate]["rustflags"]
    done = subprocess.run(command, cwd=checkout, capture_output=True, text=True, env=env)
    wall = time.monotonic() - start
    kept(out, ".jsonl").write_text(done.stdout)
    kept(out, ".stderr").write_text(done.stderr)
    meta = {"command": command, "rustflags": env.get("RUSTFLAGS"), "exit": done.returncode, "wall_s": wall,
            "load_before": load, "load_after": load_average(),
            "started": time.strftime("%H:%M:%S", time.gmtime(time.time() - wall)),
            "base_built_already": "is built already" in done.stderr}
    kept(out, ".meta.json").write_text(json.dumps(meta))
    print(f"{out.name}: exit {done.returncode}, {wall:.0f} s, load {load:.1f}", flush=True)
    if done.returncode not in (0, 101):
        sys.exit(f"cargo faster failed (exit {done.returncode}); see {kept(out, '.stderr')}")


def run(args):
    """Every commit of every crate asked, REPEATS runs per floor."""
    repos = dict(entry.split("=", 1) for entry in args.repo)
    for crate in args.crate or CRATES:
        if crate not in repos:
            sys.exit(f"no repository for {crate}: pass --repo {crate}=PATH_TO_ITS_GIT_CLONE")
        checkout = Path(args.scratch) / crate
        if not checkout.exists():
            subprocess.run(["git", "clone", "-q", repos[crate], str(checkout)], check=True)
        for commit in CRATES[crate]["commits"]:
            if args.commit and commit not in args.commit:
                continue
            base = prepare_pair(checkout, crate, commit)
            for floor in args.floor or FLOORS:
                for repeat in range(1, REPEATS + 1):
                    out = Path(args.results) / crate / f"{commit}-{floor_name(floor)}-{repeat}"
                    out.parent.mkdir(parents=True, exist_ok=True)
                    run_once(args, crate, checkout, base, floor, out)


def compiled_code_unchanged(result):
    """Whether the timed loop and every function it reaches compiled alike
    at both revisions (None where the binaries were not read)."""
    code = result.get("compiled_code")
    if not code:
        return None
    return not code["timed_loop_differs"] and not code["callees_differing"]


def layouts(result):
    """How many layouts the comparison measured in."""
    seen = {process.get("layout") for process in result.get("processes") or []}
    return len(seen - {None}) or len(result.get("processes") or [])


def comparisons(results, crate, floor):
    """(commit, meta, document) for every measured comparison of `crate` at `floor`."""
    for meta_path in sorted((results / crate).glob(f"*-{floor_name(floor)}-*.meta.json")):
        meta = json.loads(meta_path.read_text())
        stderr = meta_path.with_name(meta_path.name.replace(".meta.json", ".stderr")).read_text()
        meta["base_built_already"] = "is built already" in stderr
        commit = meta_path.name.split("-")[0]
        lines = meta_path.with_name(meta_path.name.replace(".meta.json", ".jsonl")).read_text()
        for line in lines.splitlines():
            document = json.loads(line)
            if document.get("result"):
                yield commit, meta, document


def row(results, crate, floor):
    """One line of the table, and the undecided cases it counts."""
    found = list(comparisons(results, crate, floor))
    if not found:
        return None, []
    undecided = [(c, d) for c, _, d in found if not d["result"]["decided"]]
    narrow = [d for _, d in undecided
              if d["result"]["judged_beyond"] is not None and d["result"]["judged_beyond"] < floor]
    reachable = [d for _, d in undecided if d["result"]["would_take"]["more_seconds"] is not None]
    same = [d for _, _, d in found if compiled_code_unchanged(d["result"])]
    held = [d for d in same if d["result"]["ci"]["low"] <= 1.0
            and (d["result"]["ci"]["high"] is None or d["result"]["ci"]["high"] >= 1.0)]
    false = [d for d in same if d["result"]["verdict"] in ("faster", "slower")]
    runs = {(c, m["started"]): m for c, m, _ in found}
    loads = [m["load_before"] for m in runs.values()]
    built_already = [m["wall_s"] for m in runs.values() if m["base_built_already"]]
    cells = [f"{crate}, {floor:.0%}", len(found), f"{len(undecided)}: {len(narrow)}, {len(reachable)}, {len(undecided) - len(reachable)}",
             f"{len(held)} of {len(same)}", len(false),
             f"{statistics.median(layouts(d['result']) for _, _, d in found):g}, "
             f"{statistics.median(d['result']['elapsed_s'] for _, _, d in found):.2f} s",
             f"{statistics.median(built_already):.0f} s" if built_already else "—",
             f"{min(loads):.1f}–{max(loads):.1f}"]
    return "| " + " | ".join(map(str, cells)) + " |", undecided


def describe(commit, document):
    """An undecided comparison as the notes list it."""
    result = document["result"]
    ci = result["ci"]
    high = "∞" if ci["high"] is None else f"{ci['high']:.3f}x"
    said = (result.get("would_take") or {}).get("said", "")
    beyond = "—" if result["judged_beyond"] is None else f"{result['judged_beyond']:.1%}"
    return (f"- {document['name']} at {commit}: {result['speedup']:.3f}x "
            f"[{ci['low']:.3f}x – {high}], judges beyond {beyond}, {layouts(result)} layouts: {said}")


def table(args):
    """The guide's table from the kept results, then every undecided case."""
    results = Path(args.results)
    print("| crate, floor | comparisons | undecided: limit under the floor, needing time within"
          " 128 layouts, beyond them | unchanged compiled"
          " code: interval holds 1.00 | false verdicts | median layouts, time per comparison"
          " | time per run (median) | load |")
    print("| --- | --: | --: | --: | --: | --: | --: | --: |")
    notes = []
    for floor in FLOORS:
        for crate in CRATES:
            line, undecided = row(results, crate, floor)
            if line:
                print(line)
                notes += [describe(c, d) for c, d in undecided]
    print("\n" + "\n".join(notes))
    print()
    for crate in CRATES:
        print("\n".join(readings(results, crate)))


def readings(results, crate):
    """What each commit's comparisons read, run by run: a line per commit,
    floor and function."""
    read = {}
    for floor in FLOORS:
        for commit, _, document in comparisons(results, crate, floor):
            result = document["result"]
            mark = {"faster": "faster", "slower": "slower"}.get(result["verdict"], "within")
            mark = mark if result["decided"] else "undecided"
            unchanged = " (compiled code unchanged)" if compiled_code_unchanged(result) else ""
            key = (commit, floor_name(floor), document["name"].split("::")[-1] + unchanged)
            read.setdefault(key, []).append(f"{result['speedup']:.3f}x {mark}")
    return [f"- {crate} {commit} {floor} {name}: {', '.join(marks)}"
            for (commit, floor, name), marks in sorted(read.items())]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="action", required=True)
    running = sub.add_parser("run")
    running.add_argument("--repo", action="append", default=[], help="CRATE=GIT_DIR")
    running.add_argument("--crate", action="append", choices=list(CRATES))
    running.add_argument("--commit", action="append", help="only these commits (as CRATES spells them)")
    running.add_argument("--floor", action="append", type=float)
    running.add_argument("--cargo-faster", default="cargo-faster")
    running.add_argument("--scratch", default="/tmp/realcrates-checkouts")
    running.add_argument("--target-dir", default="/tmp/realcrates-target")
    running.add_argument("--results", default="/tmp/realcrates-results")
    tabling = sub.add_parser("table")
    tabling.add_argument("--results", default="/tmp/realcrates-results")
    args = parser.parse_args()
    run(args) if args.action == "run" else table(args)


if __name__ == "__main__":
    main()
