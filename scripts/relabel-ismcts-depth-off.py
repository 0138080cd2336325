#!/usr/bin/env python3
"""One-off relabelling made when `depth=1` became the `ismcts` spec's default.

Every experiment of experiments/ that seats `ismcts` without `depth=` played the unlimited tree,
so its spec gains `,depth=off` (the same search under the new default), and so does every file of
its result folder that carries the spec: meta.json and tally.json (JSON strings), summary.csv and
games.csv (CSV fields, quoted as the CSV writer quotes a spec with a comma), and the folders
`bailab deals --games` made from its games.csv. Charts (*.svg) are not edited: they are drawn
again with `bailab plot` (a longer label widens the label area). The figures are not touched: a
CSV is rewritten only if reading and writing it back unchanged gives the same bytes, and every
other field must come out equal.

Usage: scripts/relabel-ismcts-depth-off.py            (from the repository root; prints what it did)
"""
import csv
import io
import json
import pathlib
import re
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def new_spec(spec):
    """The spec with `depth=off` added, or None when it is not an ismcts spec without depth."""
    name, _, params = spec.partition(":")
    if name != "ismcts":
        return None
    keys = [p.split("=", 1)[0] for p in params.split(",")] if params else []
    if "depth" in keys:
        return None
    return f"{spec},depth=off" if params else "ismcts:depth=off"


def csv_text(rows):
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def relabel_csv(path, mapping):
    text = path.read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    if csv_text(rows) != text:
        sys.exit(f"{path}: does not read and write back unchanged; not touched")
    new_rows = [[mapping.get(f, f) for f in row] for row in rows]
    changed = sum(a != b for r, s in zip(rows, new_rows) for a, b in zip(r, s))
    path.write_text(csv_text(new_rows), encoding="utf-8")
    return changed


def relabel_json(path, mapping):
    text = path.read_text(encoding="utf-8")
    before = json.loads(text)
    changed = 0
    for old, new in mapping.items():
        quoted_old, quoted_new = json.dumps(old), json.dumps(new)
        changed += text.count(quoted_old)
        text = text.replace(quoted_old, quoted_new)

    def back(v):  # the new document with the specs mapped back must be the old one
        if isinstance(v, dict):
            return {k: back(x) for k, x in v.items()}
        if isinstance(v, list):
            return [back(x) for x in v]
        inverse = {n: o for o, n in mapping.items()}
        return inverse.get(v, v) if isinstance(v, str) else v

    if back(json.loads(text)) != before:
        sys.exit(f"{path}: relabelling changed more than the specs")
    path.write_text(text, encoding="utf-8")
    return changed


def relabel_folder(folder, mapping):
    for f in sorted(folder.rglob("*")):
        if not f.is_file():
            continue
        if f.suffix == ".csv":
            n = relabel_csv(f, mapping)
        elif f.suffix == ".json":
            n = relabel_json(f, mapping)
        elif f.suffix == ".svg":
            continue  # drawn again by bailab plot
        else:
            body = f.read_text(encoding="utf-8", errors="replace")
            if any(o in body for o in mapping):
                sys.exit(f"{f}: holds a spec and is of no kind this script edits")
            continue
        print(f"  {f.relative_to(ROOT)}: {n} spec(s) relabelled")


def main():
    deals_made_from = {}  # games.csv folder -> folders `bailab deals --games` made from it
    for meta in ROOT.glob("results/*/meta.json"):
        m = json.loads(meta.read_text(encoding="utf-8"))
        if isinstance(m.get("games_csv"), str):
            src = pathlib.Path(m["games_csv"]).parent
            deals_made_from.setdefault(src, []).append(meta.parent)
    for exp in sorted(ROOT.glob("experiments/*.toml")):
        text = exp.read_text(encoding="utf-8")
        cfg = tomllib.loads(text)
        mapping = {a: new_spec(a) for a in cfg.get("agents", []) if new_spec(a)}
        if not mapping:
            continue
        lines = text.split("\n")
        hits = [i for i, l in enumerate(lines) if re.match(r"\s*agents\s*=", l)]
        if len(hits) != 1:
            sys.exit(f"{exp}: expected one agents line")
        for old, new in mapping.items():
            lines[hits[0]] = lines[hits[0]].replace(json.dumps(old), json.dumps(new))
        new_text = "\n".join(lines)
        if [mapping.get(a, a) for a in cfg["agents"]] != tomllib.loads(new_text)["agents"]:
            sys.exit(f"{exp}: agents line not relabelled as planned")
        exp.write_text(new_text, encoding="utf-8")
        print(f"{exp.relative_to(ROOT)}: {mapping}")
        out = pathlib.Path(cfg["output"])
        folder = ROOT / out
        if not folder.is_dir():
            print(f"  {out}: no committed result")
            continue
        relabel_folder(folder, mapping)
        for d in deals_made_from.get(out, []):
            relabel_folder(d, mapping)


if __name__ == "__main__":
    main()
