#!/usr/bin/env python3
"""The file-level module graph of each crate, and a check that it has no circle and
keeps the floors declared in `scripts/floors.toml`.

For every `.rs` file under `crates/mcr-tables/src`, `crates/mcr/src`, `crates/mcr-api/src`, `src`
and `crates/mcr-py/src`, reads the paths it names through
`crate::…`, `super::…` and `self::…` (in `use` trees and in code) and resolves each to the
file that defines the item: a name a `mod.rs` (or `lib.rs`) only re-exports with `pub use`
is followed to the file it comes from, so a folder's facade is not a false circle. A file
declaring its child modules (`mod x;`) is not an edge, and neither is a path through a
module the crate root re-exports from another crate (`pub use mcr_api::{api, …}` in
`src/lib.rs`): that crate's floors are its own, and the dependency keeps it below.

The floors, and the rule an import must keep, are declared once, in `scripts/floors.toml`
(its header states the rule): an import up a floor, or between peers of one floor, fails;
so does a file that belongs to no declared floor (crate roots and doors aside).

Usage: `scripts/module-graph.py [--quiet] [--floors FILE]`. Prints every crate's graph
(each file with its declared floor and the files it imports) and exits with status 1,
naming the circle or each import that breaks a floor.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CRATES = {
    "mcr-tables": ROOT / "crates/mcr-tables/src",
    "mcr": ROOT / "crates/mcr/src",
    "mcr-api": ROOT / "crates/mcr-api/src",
    "mahjong-referee": ROOT / "src",
    "mcr-py": ROOT / "crates/mcr-py/src",
}
FLOORS = ROOT / "scripts/floors.toml"
CRATE_ROOTS = ("lib.rs",)

COMMENT = re.compile(r"//[^\n]*")
BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
USE = re.compile(r"\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);")
INLINE = re.compile(r"\b((?:crate|super|self)(?:::(?:super|[A-Za-z_][A-Za-z0-9_]*))+)")
TEST_MOD = re.compile(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{")
ATTRIBUTE = re.compile(r"#!?\[[^\]]*\]")
MOD_DECL = re.compile(r"\b(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*;")
PUB_USE = re.compile(r"\bpub(?:\([^)]*\))?\s+use\s+[^;]+;")


def module_of(src: Path, file: Path) -> tuple:
    """The module path of a file (`src/a/b.rs` and `src/a/b/mod.rs` are `("a", "b")`)."""
    parts = list(file.relative_to(src).with_suffix("").parts)
    if parts[-1] == "mod" or (len(parts) == 1 and parts[0] in ("lib", "main")):
        parts = parts[:-1]
    return tuple(parts)


def strip(text: str) -> str:
    text = BLOCK_COMMENT.sub("", text)
    text = STRING.sub('""', text)
    return COMMENT.sub("", text)


def without_tests(text: str) -> str:
    """The text without its `#[cfg(test)] mod … { … }` blocks (tests may import anything)."""
    out, pos = [], 0
    for m in TEST_MOD.finditer(text):
        if m.start() < pos:
            continue
        out.append(text[pos : m.start()])
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        pos = i
    out.append(text[pos:])
    return "".join(out)


def expand(tree: str) -> list:
    """The paths of a `use` tree: `a::{b, c::{d as e}}` is `a::b`, `a::c::d`."""
    tree = re.sub(r"\s+as\s+\w+", "", tree)  # `x as y` names x
    tree = re.sub(r"\s+", "", tree)
    brace = tree.find("{")
    if brace < 0:
        return [tree]
    prefix, inner = tree[:brace], tree[brace + 1 : tree.rfind("}")]
    parts, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        cur += ch
    parts.append(cur)
    paths = []
    for part in filter(None, parts):
        for sub in expand(part):
            paths.append((prefix + sub).rstrip(":") if sub != "self" else prefix.rstrip(":"))
    return paths


def absolute(module: tuple, path: str, is_dir_module: bool):
    """`crate::a::b` / `super::x` / `self::y`, seen from `module`, as a tuple from the root."""
    segs = path.split("::")
    if segs[0] == "crate":
        return tuple(segs[1:])
    base = list(module)
    if segs[0] == "self":
        return tuple(base + segs[1:])
    while segs and segs[0] == "super":
        base = base[:-1]
        segs = segs[1:]
    return tuple(base + segs)


class Crate:
    def __init__(self, name: str, src: Path):
        self.name, self.src = name, src
        self.files = {}  # module path -> file
        for f in sorted(src.rglob("*.rs")):
            if f.name == "main.rs" and f.parent == src:
                continue  # the binary is its own crate: it names this one by its crate name
            self.files[module_of(src, f)] = f
        self.reexports = {}  # (module, name) -> absolute path
        self.uses = {}  # module -> list of absolute paths
        self.doors = set()  # crate root, and mod.rs files of `mod` and `pub use` only
        self.foreign = set()  # names the crate root re-exports from another crate
        for mod, f in self.files.items():
            text = without_tests(strip(f.read_text()))
            if f.name in CRATE_ROOTS and f.parent == src:
                self.doors.add(mod)
            elif f.name == "mod.rs":
                rest = PUB_USE.sub("", MOD_DECL.sub("", ATTRIBUTE.sub("", text)))
                if not rest.strip():
                    self.doors.add(mod)
            dir_module = f.name in ("mod.rs", "lib.rs")
            # Items of a file are seen from its own module, even for `mod.rs`.
            paths = []
            for m in USE.finditer(text):
                for p in expand(m.group(2)):
                    if not p.startswith(("crate", "super", "self")):
                        if mod + (p.split("::")[0],) not in self.files:
                            if m.group(1) and mod in self.doors and mod == ():
                                self.foreign.add(p.split("::")[-1])
                            continue  # another crate, or std
                        p = "self::" + p  # a child module named without `self::`
                    target = absolute(mod, p, dir_module)
                    paths.append(target)
                    if m.group(1):
                        self.reexports[(mod, target[-1])] = target
            use_free = USE.sub("", text)
            for m in INLINE.finditer(use_free):
                paths.append(absolute(mod, m.group(1), dir_module))
            self.uses[mod] = paths

    def resolve(self, path: tuple, depth: int = 0):
        """The module of the file that defines `path` (a re-export is followed)."""
        for cut in range(len(path), -1, -1):
            mod = path[:cut]
            if mod in self.files:
                if cut < len(path) and depth < 16:
                    again = self.reexports.get((mod, path[cut]))
                    if again is not None and again != path:
                        return self.resolve(again + path[cut + 1 :], depth + 1)
                return mod
        return None

    def graph(self) -> dict:
        edges = {}
        for mod, paths in self.uses.items():
            targets = set()
            for p in paths:
                if p[:1] and p[0] in self.foreign:
                    continue  # another crate's module, re-exported by the root
                t = self.resolve(p)
                if t is not None and t != mod:
                    targets.add(t)
            edges[mod] = targets
        return edges


def name(mod: tuple) -> str:
    return "::".join(mod) or "(root)"


class Floors:
    """One crate's floors as `scripts/floors.toml` declares them."""

    def __init__(self, crate_name: str, floors: list):
        self.crate_name = crate_name
        self.entries = {}  # (path tuple, is_folder) -> (floor, step), both from 1
        for f, floor in enumerate(floors, 1):
            for s, step in enumerate(floor, 1):
                for entry in step:
                    folder = entry.endswith("/")
                    path = tuple(p for p in entry.rstrip("/").split("::") if p)
                    key = (path, folder)
                    if key in self.entries:
                        raise SystemExit(f"{FLOORS.name}: {crate_name}: {entry} declared twice")
                    self.entries[key] = (f, s)

    def entry_of(self, mod: tuple):
        """The most specific entry naming `mod`: (entry key, (floor, step)), or None."""
        best = None
        for (path, folder), place in self.entries.items():
            fits = mod == path or (folder and mod[: len(path)] == path)
            if fits and (best is None or len(path) > len(best[0][0])):
                best = ((path, folder), place)
        return best

    @staticmethod
    def entry_name(key) -> str:
        path, folder = key
        return name(path) + ("/" if folder else "")

    def check(self, edges: dict, doors: set) -> list:
        """Every import that breaks a floor, and every file without one, described."""
        problems = []
        for mod in sorted(edges):
            if mod in doors:
                continue
            here = self.entry_of(mod)
            if here is None:
                problems.append(f"{name(mod)} belongs to no floor (declare it in {FLOORS.name})")
                continue
            (key, (floor, step)) = here
            for target in sorted(edges[mod]):
                there = self.entry_of(target)
                if there is None:
                    continue  # a door no entry names, or a file reported as it is
                (tkey, (tfloor, tstep)) = there
                if tkey == key or tfloor < floor or (tfloor == floor and tstep < step):
                    continue
                if tfloor > floor:
                    why = f"up from floor {floor} to floor {tfloor}"
                elif tstep == step:
                    why = f"between peers of floor {floor}"
                else:
                    why = f"up from step {step} to step {tstep} of floor {floor}"
                problems.append(
                    f"{name(mod)} ({self.entry_name(key)}) imports {name(target)}"
                    f" ({self.entry_name(tkey)}): {why}"
                )
        return problems

    def label(self, mod: tuple, doors: set) -> str:
        if mod in doors:
            return "door"
        here = self.entry_of(mod)
        if here is None:
            return "?"
        floor, step = here[1]
        return f"{floor}.{step}"


def load_floors(path: Path) -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python < 3.11
        import tomli as tomllib
    with path.open("rb") as f:
        data = tomllib.load(f)
    return {crate: Floors(crate, section["floors"]) for crate, section in data.items()}


def find_cycle(edges: dict):
    state, stack = {}, []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def floors(edges: dict) -> dict:
    """Each module's floor: 0 imports nothing, otherwise one above its highest import."""
    memo = {}

    def floor(node, seen=()):
        if node in memo:
            return memo[node]
        if node in seen:
            return 0
        f = 1 + max((floor(n, seen + (node,)) for n in edges.get(node, ())), default=-1)
        memo[node] = f
        return f

    return {n: floor(n) for n in edges}


def main() -> int:
    args = sys.argv[1:]
    quiet = "--quiet" in args
    floors_file = Path(args[args.index("--floors") + 1]) if "--floors" in args else FLOORS
    declared = load_floors(floors_file)
    failed = False
    for crate_name, src in CRATES.items():
        crate = Crate(crate_name, src)
        edges = crate.graph()
        cycle = find_cycle(edges)
        crate_floors = declared.get(crate_name)
        if crate_floors is None:
            print(f"{crate_name}: no floors declared in {floors_file}")
            failed = True
            continue
        if not quiet:
            print(f"# {crate_name} ({len(edges)} files; depth, declared floor.step, file -> imports)")
            by_floor = floors(edges)
            for node in sorted(edges, key=lambda n: (by_floor[n], n)):
                deps = ", ".join(sorted(name(d) for d in edges[node]))
                label = crate_floors.label(node, crate.doors)
                print(f"  {by_floor[node]:2}  {label:>5}  {name(node):32} -> {deps}")
        if cycle:
            failed = True
            print(f"{crate_name}: import circle: {' -> '.join(name(n) for n in cycle)}")
        else:
            print(f"{crate_name}: no import circle")
        problems = crate_floors.check(edges, crate.doors)
        for p in problems:
            print(f"{crate_name}: floor broken: {p}")
        if problems:
            failed = True
        else:
            print(f"{crate_name}: every import keeps the floors of {floors_file.name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
