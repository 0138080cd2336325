"""Helpers of the Python tests: the `bailab` binary the README's test command built."""

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def bailab_bin():
    """The `bailab` binary the README's test command built (`cargo test --release`)."""
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    path = Path(os.environ.get("BAILAB_BIN", target / "release" / "bailab"))
    assert path.exists(), f"{path} not found: run `cargo build --release` first"
    return str(path)


def cli(*args):
    """Runs `bailab ARGS` and returns its standard output (it must succeed)."""
    out = subprocess.run([bailab_bin(), *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout
