"""azuki.stats — small, exact statistics for bot matches (plain Python).

wilson(k, n): the Wilson score interval for a binomial proportion k/n at 95 %
(z = 1.959963984540054), the interval the arena reports. It is well
behaved at 0 and n successes and for small n, unlike the normal
approximation.
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054   # the 0.975 quantile of the standard normal


def wilson(k, n, z=Z95):
    """(low, high) of the Wilson score interval for k successes in n trials;
    (0.0, 1.0) when n == 0."""
    if isinstance(k, bool) or isinstance(n, bool) or not all(isinstance(v, int) for v in (k, n)):
        raise TypeError("k and n must be integers")
    if n < 0 or not 0 <= k <= max(n, 0):
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    den = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / den
    half = z / den * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    lo = 0.0 if k == 0 else max(0.0, centre - half)     # exact ends: no rounding residue
    hi = 1.0 if k == n else min(1.0, centre + half)
    return (lo, hi)


def rate(k, n):
    """A proportion with its 95 % Wilson interval, as a dict."""
    lo, hi = wilson(k, n)
    return {"wins": k, "games": n, "rate": k / n if n else 0.0, "ci95": [lo, hi]}


def fmt_rate(r):
    """'83.1% [81.4, 84.7]' for a rate() dict."""
    if not r["games"]:
        return "  -  "
    return f"{100 * r['rate']:5.1f}% [{100 * r['ci95'][0]:.1f}, {100 * r['ci95'][1]:.1f}]"
