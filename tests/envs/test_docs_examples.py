"""The RL-environment examples of README.md and docs/envs.md run as written,
each in the world that has its framework (skipped elsewhere)."""
import importlib.util
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def _blocks(path, after):
    """The python blocks of the section headed `after` (to the next heading of its level)."""
    text = (ROOT / path).read_text()
    text = text[text.index(after):]
    level = after.split(" ")[0]
    end = text.find(f"\n{level} ", 1)
    return re.findall(r"```python\n(.*?)```", text if end < 0 else text[:end], re.S)


def _needs(code):
    for mod in ("pufferlib", "pettingzoo", "gymnasium"):
        if f"azuki.envs.{'puffer' if mod == 'pufferlib' else mod}" in code or f"import {mod}" in code:
            if importlib.util.find_spec(mod) is None:
                return mod
    return None


def _examples():
    out = []
    for path, after in (("README.md", "## RL environments"), ("docs/envs.md", "# RL environments")):
        for k, code in enumerate(_blocks(path, after)):
            if "ray.init(address" in code or "mask = mask_from_obs(obs)" in code:
                continue        # the cluster snippet needs a cluster; the helper snippet is a fragment
            out.append(pytest.param(code, id=f"{path}#{k}"))
    return out


@pytest.mark.parametrize("code", _examples())
def test_example_runs(code, tmp_path):
    missing = _needs(code)
    if missing:
        pytest.skip(f"needs {missing}")
    if "AzukiVectorEnv" in code:
        import gymnasium
        if int(gymnasium.__version__.split(".")[0]) < 1:
            pytest.skip("AzukiVectorEnv needs gymnasium >= 1.0")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=240, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
