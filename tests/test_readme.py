"""The README's code examples run as written."""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_step_1024_games_snippet_runs():
    text = (ROOT / "README.md").read_text()
    code = re.search(r"## Step 1,024 games\n\n```python\n(.*?)```", text, re.S).group(1)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "episodes" in r.stdout
