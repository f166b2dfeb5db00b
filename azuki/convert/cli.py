"""Command-line plumbing shared by `python -m azuki` and `python -m azuki.convert`.

* :class:`Parser` — argparse with one-line usage errors: a bad option value
  prints ``error: MESSAGE (see `PROG --help`)`` on stderr and exits 2, with no
  usage block and no traceback;
* :class:`HelpFormatter` — keeps the module docstring's layout in ``--help``
  and appends ``(default: ...)`` to every option's help text;
* :func:`run_main` — runs a ``main()`` and exits quietly (status 141, as a
  process killed by SIGPIPE) when stdout is a pipe that closed early
  (``python -m azuki record | head -1``).
"""
from __future__ import annotations

import argparse
import os
import sys


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions verbatim; every option's default shown after its help."""

    def _get_help_string(self, action):
        text = action.help or ""
        if "(default" in text or action.default is argparse.SUPPRESS or not action.option_strings:
            return text
        d = action.default
        if isinstance(d, bool) or d is None and action.nargs == 0:
            shown = "on" if d else "off"
        elif d is None:
            return text          # such options say what "not given" means in their help
        elif isinstance(d, (list, tuple)):
            shown = " ".join(map(str, d))
        else:
            shown = str(d)
        return f"{text} (default: {shown})"


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line and exit status 2."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message):
        sys.stderr.write(f"error: {message} (see `{self.prog} --help`)\n")
        sys.exit(2)


def fail(message) -> int:
    """Print one `error: ...` line on stderr; the caller returns the status (2)."""
    print(f"error: {message}", file=sys.stderr)
    return 2


def run_main(main, argv=None):
    """sys.exit(main(argv)), ending quietly if stdout's reader went away. stdout is line buffered, so
    progress reaches a log file or pipe as it is printed (under `nohup ... > log`, block buffering
    held a 20-minute `azuki eval` table back until the end)."""
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(line_buffering=True)
    try:
        status = main(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader (e.g. `head`) closed the pipe: stop without a traceback,
        # and point stdout at /dev/null so the interpreter's final flush at
        # exit cannot raise again (Python docs, "Note on SIGPIPE").
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        status = 128 + 13        # what a process killed by SIGPIPE reports
    forget_handled_interrupt()
    sys.exit(status)


def forget_handled_interrupt():
    """Let the status main returned be the exit status after a Ctrl-C it handled.

    CPython marks a KeyboardInterrupt as unhandled when it leaves code run by
    exec() of a string, even if a caller then catches it, and `python -m`
    then ends by killing itself with SIGINT (status -2) instead of exiting
    with main's status (Python/pythonrun.c, run_eval_code_obj; Modules/main.c,
    Py_RunMain). A lazy import that builds a dataclass execs strings, so Ctrl-C
    during `azuki train`'s kickstart sometimes exited -2 instead of 130. Every
    exec of a string clears the mark first: this one runs once main has
    returned, when nothing unhandled can be pending."""
    exec("pass")
