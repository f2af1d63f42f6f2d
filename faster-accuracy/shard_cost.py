#!/usr/bin/env python3
"""What sharding `cargo faster --against` across a CI matrix costs: a generated
crate of FUNCTIONS tracked functions (two commits, every function unchanged),
run unsharded and as N = 2 and 4 shards (`--partition hash:K/N`), each shard
one after another in a cold target directory of its own, as a fresh CI machine
starts. Prints per shard: wall time (what that matrix job takes), crates
compiled, functions measured, disk of its target directory; then each N's
merge (`cargo faster merge`) beside the unsharded run: the functions and the
verdicts. A program that prints figures, not a test: nothing here asserts.

Use, from the workspace root, after `cargo build --release -p cargo-faster`:
    python3 faster-accuracy/shard_cost.py [--functions 100] [--shards 1,2,4] [--keep]
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CARGO_FASTER = os.path.join(ROOT, "target", "release", "cargo-faster")

MANIFEST = """[package]
name = "suite"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
faster-test = {{ path = "{faster}", default-features = false }}

[workspace]
"""

FUNCTION = """
#[cfg_attr(test, faster::track(inputs = numbers, expect = report, max_time = "1s"))]
pub fn function_{i}(n: &u64) -> u64 {{
    (0..*n).fold({i}, |total, i| std::hint::black_box(total ^ i.rotate_left({r})))
}}
"""


def library(count, note):
    body = "".join(FUNCTION.format(i=i, r=i % 63 + 1) for i in range(count))
    return f"// {note}\n{body}\n#[cfg(test)]\nfn numbers() -> Vec<u64> {{\n    vec![1_000]\n}}\n"


def git(repo, *arguments):
    subprocess.run(["git", "-C", repo, "-c", "user.name=m", "-c", "user.email=m@example.com",
                    "-c", "commit.gpgsign=false", *arguments], check=True, capture_output=True)


def fixture(scratch, count):
    repo = os.path.join(scratch, "repository")
    os.makedirs(os.path.join(repo, "src"))
    with open(os.path.join(repo, "Cargo.toml"), "w") as f:
        f.write(MANIFEST.format(faster=ROOT))
    with open(os.path.join(repo, ".gitignore"), "w") as f:
        f.write("/target\n/Cargo.lock\n")
    git(repo, "init", "--quiet", "--initial-branch=main")
    for note in ["base", "head"]:
        with open(os.path.join(repo, "src", "lib.rs"), "w") as f:
            f.write(library(count, note))
        git(repo, "add", "--all")
        git(repo, "commit", "--quiet", "--message", note)
    return repo


def disk(path):
    out = subprocess.run(["du", "-sm", path], capture_output=True, text=True).stdout
    return int(out.split()[0]) if out else 0


def run_shard(repo, target, partition, artifacts):
    environment = dict(os.environ, CARGO_TARGET_DIR=target, CARGO_NET_OFFLINE="true",
                       CARGO_TERM_COLOR="never")
    for name in list(environment):
        if name.startswith("FASTER_") or name == "GITHUB_STEP_SUMMARY":
            del environment[name]
    command = [CARGO_FASTER, "faster", "--against", "HEAD~1", "--format", "terse"]
    if partition:
        command += ["--partition", partition]
    started = time.monotonic()
    ran = subprocess.run(command, cwd=repo, env=environment, capture_output=True, text=True)
    wall = time.monotonic() - started
    compiled = len(re.findall(r"^\s*Compiling ", ran.stderr, re.M))
    run_file = os.path.join(target, "faster", "against", "+run.json")
    os.makedirs(artifacts, exist_ok=True)
    shutil.copy(run_file, artifacts)
    with open(run_file) as f:
        run = json.load(f)
    elapsed = run["elapsed_s"]
    return {"partition": partition or "whole", "code": ran.returncode, "wall": wall,
            "measuring": elapsed, "compiled": compiled, "measured": len(run["comparisons"]),
            "disk_mb": disk(target), "stderr": ran.stderr}


def verdicts(document):
    return {c["name"]: (c["status"], (c["result"] or {}).get("verdict")) for c in document["comparisons"]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--functions", type=int, default=100)
    parser.add_argument("--shards", default="1,2,4")
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="shard-cost-")
    repo = fixture(scratch, options.functions)
    print(f"load before: {open('/proc/loadavg').read().split()[:3]}  cpus: {os.cpu_count()}")
    merged = {}
    for count in [int(n) for n in options.shards.split(",")]:
        artifacts = os.path.join(scratch, f"artifacts-{count}")
        rows = []
        for index in range(1, count + 1):
            partition = None if count == 1 else f"hash:{index}/{count}"
            target = os.path.join(scratch, f"target-{count}-{index}")
            row = run_shard(repo, target, partition, os.path.join(artifacts, f"shard-{index}"))
            rows.append(row)
            print(f"N={count} {row['partition']:>9}: exit {row['code']}, wall {row['wall']:.0f} s "
                  f"(measuring {row['measuring']:.0f} s, building {row['wall'] - row['measuring']:.0f} s), "
                  f"{row['compiled']} crates compiled, {row['measured']} functions measured, "
                  f"target dir {row['disk_mb']} MB  [load {open('/proc/loadavg').read().split()[0]}]",
                  flush=True)
            if row["code"] not in (0, 101):
                print(row["stderr"][-3000:])
            shutil.rmtree(target)  # measured; every shard starts cold, as a fresh CI machine
        out = os.path.join(scratch, f"merged-{count}")
        ran = subprocess.run([CARGO_FASTER, "faster", "merge", artifacts, "--out", out, "--color", "never"],
                             capture_output=True, text=True)
        with open(os.path.join(out, "merged.json")) as f:
            merged[count] = json.load(f)
        print(f"N={count}: slowest shard {max(r['wall'] for r in rows):.0f} s (the matrix's wall time), "
              f"sum {sum(r['wall'] for r in rows):.0f} s (its machine time); merge exit {ran.returncode}, "
              f"{len(merged[count]['comparisons'])} functions")
        print("\n".join(ran.stdout.splitlines()[-6:]))
    whole = verdicts(merged[min(merged)])
    for count, document in sorted(merged.items()):
        mine = verdicts(document)
        same_set = set(mine) == set(whole)
        agree = sum(1 for name in whole if mine.get(name) == whole[name])
        print(f"N={count} merged vs unsharded: same functions {same_set} ({len(mine)} vs {len(whole)}), "
              f"same status and verdict for {agree} of {len(whole)}")
    print(f"load after: {open('/proc/loadavg').read().split()[:3]}")
    if options.keep:
        print(f"kept: {scratch}")
    else:
        shutil.rmtree(scratch)


if __name__ == "__main__":
    sys.exit(main())
