"""A plain instruction diff of two binaries: each function's instructions from
objdump, addresses left out (jump targets kept as function+offset, RIP-relative
displacements and their comments dropped), compared by name; prints the functions
whose instructions differ, are only in one binary, or are the same."""
import re, subprocess, sys

def functions(path):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-M", "intel", "-C", path],
                         capture_output=True, text=True, check=True).stdout
    funcs, name = {}, None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            name = re.sub(r"::h[0-9a-f]{16}", "", m.group(1))
            name = re.sub(r"\.llvm\.\d+", "", name)
            funcs[name] = []
            continue
        m = re.match(r"^\s+[0-9a-f]+:\s+(.*)$", line)
        if name and m:
            insn = m.group(1)
            insn = re.sub(r"\s+#.*$", "", insn)                  # comments (resolved addresses)
            insn = re.sub(r"\[rip\+0x[0-9a-f]+\]", "[rip+X]", insn)
            insn = re.sub(r"\[rip-0x[0-9a-f]+\]", "[rip+X]", insn)
            insn = re.sub(r"\b[0-9a-f]+ <", "<", insn)           # branch targets: keep the symbol
            insn = re.sub(r"\.llvm\.\d+", "", insn)
            insn = re.sub(r"::h[0-9a-f]{16}", "", insn)
            funcs[name].append(insn)
    return funcs

a, b = functions(sys.argv[1]), functions(sys.argv[2])
prefix = sys.argv[3] if len(sys.argv) > 3 else ""
differ = sorted(n for n in a.keys() & b.keys() if a[n] != b[n] and n.startswith(prefix))
print(f"{len(a.keys() & b.keys())} functions in both; {len(differ)} differ" + (f" (named {prefix}*)" if prefix else ""))
for n in differ:
    print(f"  differs: {n} ({len(a[n])} -> {len(b[n])} instructions)")
only = sorted(n for n in a.keys() ^ b.keys() if n.startswith(prefix))
for n in only[:20]:
    print(f"  only in {'base' if n in a else 'current'}: {n}")
