"""The vector episode log's entries are one declared family (issue 31 item 1):
AZK_VEC_LOG in csrc/azk_enums.def, listed by azuki.spec_autogen (VEC_LOG).
azuki.h's enum azk_vec_log_entry and VecGame.log()'s key names
(azuki._core._VEC_LOG_NAMES) must follow it entry for entry; a log entry
added, moved or renamed on one side only fails here."""
import pathlib
import shutil
import subprocess

import pytest

from azuki import spec_autogen as S

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_vecgame_log_keys_follow_the_family():
    from azuki import _core
    assert tuple(_core._VEC_LOG_NAMES) == tuple(n.lower() for n in S.VEC_LOG)


@pytest.mark.slow     # builds a C program from azuki.h
def test_the_c_enum_follows_the_family(tmp_path):
    if shutil.which("gcc") is None:
        pytest.skip("needs gcc")
    names = [f"AZK_VLOG_{n}" for n in S.VEC_LOG] + ["AZK_VLOG_DECK_GAMES", "AZK_VLOG_DECK_WINS", "AZK_VEC_LOG_DECKS",
                                                   "AZK_VEC_LOG_LEN"]
    src = '#include <stdio.h>\n#include "azuki.h"\nint main(void) {\n'
    src += "".join(f'    printf("{n} %ld\\n", (long){n});\n' for n in names) + "    return 0;\n}\n"
    (tmp_path / "vlog.c").write_text(src)
    subprocess.run(["gcc", "-std=c11", "-Wall", "-Werror", "-I", str(ROOT / "csrc"), "-o", str(tmp_path / "vlog"),
                    str(tmp_path / "vlog.c")], check=True, capture_output=True, timeout=120)
    out = subprocess.run([str(tmp_path / "vlog")], check=True, capture_output=True, text=True, timeout=60).stdout
    got = {k: int(v) for k, v in (line.split() for line in out.splitlines())}
    assert {f"AZK_VLOG_{n}": got[f"AZK_VLOG_{n}"] for n in S.VEC_LOG} == {f"AZK_VLOG_{n}": i for i, n in
                                                                          enumerate(S.VEC_LOG)}
    k = len(S.VEC_LOG)      # then the per-deck games and wins
    assert got["AZK_VLOG_DECK_GAMES"] == k and got["AZK_VLOG_DECK_WINS"] == k + got["AZK_VEC_LOG_DECKS"]
    assert got["AZK_VEC_LOG_LEN"] == k + 2 * got["AZK_VEC_LOG_DECKS"]
