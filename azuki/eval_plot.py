"""azuki.eval_plot — `eval --plot FILE`: the ratings with their 95 % intervals,
and the win-rate matrix, as one self-contained SVG file (no dependency: the
SVG is written as text; docs/eval.md "Plot").
"""
from __future__ import annotations

import math
import os
from xml.sax.saxutils import escape

from .eval_report import head_to_head_ratings

_CHAR_W = 7.2                 # px per character of the 12 px sans-serif labels (a generous estimate)
_ROW = 26


def _nice_step(span, target=6):
    raw = span / target
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def _finite(x, fallback):
    return x if isinstance(x, (int, float)) and math.isfinite(x) else fallback


def _color(p):
    """White (0.5) to blue (1) or red (0): the win rate of a matrix cell."""
    t = max(-1.0, min(1.0, 2.0 * (p - 0.5)))
    if t >= 0:
        r, g, b = 255 - int(190 * t), 255 - int(120 * t), 255
    else:
        r, g, b = 255, 255 + int(120 * t), 255 + int(190 * t)
    return f"#{r:02x}{g:02x}{b:02x}"


def ratings_svg(names, elo, ci95, title="", matrix=None, note=""):
    """The SVG text: one row per rated player (best first), a dot at its Elo
    and a bar over its 95 % interval, the value printed beside it; below,
    the win-rate matrix (row against column) when given. Unrated players
    (elo None) are listed as such."""
    rows = [k for k in range(len(names)) if elo[k] is not None and math.isfinite(elo[k])]
    rows.sort(key=lambda k: -elo[k])
    unrated = [k for k in range(len(names)) if k not in rows]
    label_w = 16 + _CHAR_W * max(len(n) for n in names)
    value_w = 150
    plot_w = 420
    width = int(label_w + plot_w + value_w + 16)
    top = 56
    lows = [_finite(ci95[k][0], elo[k]) for k in rows] or [0.0]
    highs = [_finite(ci95[k][1], elo[k]) for k in rows] or [0.0]
    lo, hi = min(lows + [0.0]), max(highs + [0.0])
    if hi - lo < 1:
        lo, hi = lo - 50, hi + 50
    step = _nice_step(hi - lo)
    lo, hi = step * math.floor(lo / step), step * math.ceil(hi / step)

    def x(v):
        return label_w + plot_w * (v - lo) / (hi - lo)

    out = []
    h_plot = top + _ROW * (len(rows) + len(unrated)) + 36
    cw = max(80.0, 6.2 * max(len(n) for n in names) + 8)          # a column fits its 10 px header
    h_mat = 0 if matrix is None else 40 + _ROW * (len(names) + 1)
    height = int(h_plot + h_mat + (20 if note else 0) + 10)
    width = int(max(width, label_w + cw * len(names) + 16)) if matrix is not None else width
    out.append(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
               f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">')
    out.append(f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>')
    out.append(f'<text x="8" y="20" font-size="14" font-weight="bold">{escape(title)}</text>')
    out.append('<text x="8" y="38" fill="#555">Elo, maximum likelihood, 95% interval (bar); '
               'draws and truncations count 1/2</text>')
    # axis: grid lines and tick labels
    y_axis = top + _ROW * len(rows) + 4
    t = lo
    while t <= hi + 1e-9:
        out.append(f'<line x1="{x(t):.1f}" y1="{top - 8}" x2="{x(t):.1f}" y2="{y_axis}" stroke="#ddd"/>')
        out.append(f'<text x="{x(t):.1f}" y="{y_axis + 14}" text-anchor="middle" fill="#555">{t:+.0f}</text>')
        t += step
    if lo <= 0 <= hi:
        out.append(f'<line x1="{x(0):.1f}" y1="{top - 8}" x2="{x(0):.1f}" y2="{y_axis}" stroke="#999"/>')
    for r, k in enumerate(rows):
        y = top + _ROW * r + _ROW / 2
        a, b = _finite(ci95[k][0], elo[k]), _finite(ci95[k][1], elo[k])
        out.append(f'<g class="player"><title>{escape(names[k])}</title>')
        out.append(f'<text x="8" y="{y + 4:.1f}">{escape(names[k])}</text>')
        out.append(f'<line x1="{x(a):.1f}" y1="{y:.1f}" x2="{x(b):.1f}" y2="{y:.1f}" stroke="#3b6fb6" '
                   f'stroke-width="4" stroke-linecap="round" opacity="0.45"/>')
        out.append(f'<circle cx="{x(elo[k]):.1f}" cy="{y:.1f}" r="5" fill="#1f4e96"/>')
        out.append(f'<text x="{label_w + plot_w + 10:.1f}" y="{y + 4:.1f}">{elo[k]:+.0f} [{a:+.0f}, {b:+.0f}]</text>')
        out.append('</g>')
    for r, k in enumerate(unrated):
        y = top + _ROW * (len(rows) + r) + _ROW / 2 + 20
        out.append(f'<g class="player"><title>{escape(names[k])}</title>'
                   f'<text x="8" y="{y + 4:.1f}">{escape(names[k])} (not rated)</text></g>')
    if matrix is not None:
        y0 = h_plot + 10
        out.append(f'<text x="8" y="{y0}" font-weight="bold">win rate of row against column</text>')
        for j, n in enumerate(names):
            out.append(f'<text x="{label_w + cw * j + cw / 2:.1f}" y="{y0 + 22}" text-anchor="middle" '
                       f'font-size="10">{escape(n)}</text>')
        for i, n in enumerate(names):
            y = y0 + 30 + _ROW * i
            out.append(f'<text x="8" y="{y + _ROW / 2 + 4:.1f}">{escape(n)}</text>')
            for j in range(len(names)):
                c = matrix[i][j]
                cx = label_w + cw * j
                fill = "#eee" if c is None else _color(c["rate"])
                out.append(f'<rect x="{cx:.1f}" y="{y}" width="{cw - 2:.1f}" height="{_ROW - 2}" fill="{fill}"/>')
                if c is not None:
                    out.append(f'<text x="{cx + cw / 2:.1f}" y="{y + _ROW / 2 + 3:.1f}" text-anchor="middle">'
                               f'{100 * c["rate"]:.1f}%</text>')
    if note:
        out.append(f'<text x="8" y="{height - 10}" fill="#555" font-size="10">{escape(note)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def plot_result(res):
    """The SVG of a round_robin() table or an evaluate() result."""
    if "matrix" in res:
        el = res["elo"]
        title = (f"azuki eval: {len(res['players'])} players, {res['games_per_pair']} games per pair, "
                 f"seed {res['seed']}")
        note = f"anchor: {el['anchor_rule']}" + ("; regularized (a player won or lost every game)"
                                                 if el["regularized"] else "")
        return ratings_svg(res["players"], el["elo"], el["ci95"], title, res["matrix"], note)
    names, elo, ci = head_to_head_ratings(res)
    title = f"azuki eval: {names[0]} vs {names[1]}, {res['games']} games, seed {res['seed']}"
    return ratings_svg(names, elo, ci, title, note=f"anchor: {names[1]} = 0")


def check_plot_path(path):
    """ValueError (one line) unless an SVG can be written at `path` (checked before any game)."""
    path = os.fspath(path)
    d = os.path.dirname(path) or "."
    if not os.path.isdir(d) or not os.access(d, os.W_OK) or os.path.isdir(path):
        raise ValueError(f"--plot: cannot write {path} (no such writable directory, or a directory)")
    return path


def write_plot(res, path):
    """Write plot_result(res) to `path` (whole or not at all: a temporary file renamed)."""
    path = check_plot_path(path)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(plot_result(res))
    os.replace(tmp, path)
    return path
