"""Independent PCG32 reference (pure Python, written from the PCG paper and
the reference C library's pcg32_srandom_r / pcg32_random_r /
pcg32_boundedrand_r), used only to produce the golden vectors that the C core
(csrc/rng.h) and the Python binding are tested against.

    python tools/pcg32_reference.py          # rewrite tests/golden/rng_vectors.json
                                             # and tests/c/rng_vectors.h
    python tools/pcg32_reference.py --check  # exit 1 if either file is stale

The published demo (pcg32-demo, initstate 42, initseq 54) must start
0xa15c02b7 0x7b47f409 0xba1d3330 0x83d2f293 0xbfa4784b 0xcbed606e; this script
asserts that before writing anything.
"""
import json
import os
import sys

MASK64 = (1 << 64) - 1
MASK32 = (1 << 32) - 1
MULT = 6364136223846793005


class PCG32:
    def __init__(self, initstate, initseq):
        self.state = 0
        self.inc = ((initseq << 1) | 1) & MASK64
        self.next()
        self.state = (self.state + initstate) & MASK64
        self.next()

    def next(self):
        old = self.state
        self.state = (old * MULT + self.inc) & MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & MASK32
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((32 - rot) % 32))) & MASK32

    def bounded(self, bound):
        if bound == 0:
            return 0
        threshold = (2**32 - bound) % bound
        while True:
            x = self.next()
            if x >= threshold:
                return x % bound

    def shuffle(self, items):
        a = list(items)
        for i in range(len(a) - 1, 0, -1):
            j = self.bounded(i + 1)
            a[i], a[j] = a[j], a[i]
        return a


DEMO = [0xA15C02B7, 0x7B47F409, 0xBA1D3330, 0x83D2F293, 0xBFA4784B, 0xCBED606E]
SEEDS = [(42, 54), (0, 0), (1, 1), (0xDEADBEEFCAFEF00D, 0x0123456789ABCDEF), (2**64 - 1, 2**63 + 7)]
BOUNDS = [1, 2, 3, 6, 7, 10, 50, 1000, 2**31 + 1, 2**32 - 1]


def build():
    g = PCG32(42, 54)
    demo = [g.next() for _ in range(6)]
    assert demo == DEMO, "reference generator does not match the published demo"
    streams = []
    for s, q in SEEDS:
        g = PCG32(s, q)
        streams.append({"initstate": s, "initseq": q, "outputs": [g.next() for _ in range(1000)]})
    g = PCG32(42, 54)
    bounded = [{"bound": b, "values": [g.bounded(b) for _ in range(100)]} for b in BOUNDS]
    g = PCG32(2024, 7)
    shuffle = {"initstate": 2024, "initseq": 7, "input": list(range(50)), "output": g.shuffle(range(50)),
               "next_output_after": g.next()}
    return {"generator": "pcg32 (XSH-RR 64/32), reference: tools/pcg32_reference.py",
            "streams": streams,
            "bounded": {"initstate": 42, "initseq": 54, "note": "drawn in order, bound by bound", "draws": bounded},
            "shuffle": shuffle}


def c_header(v):
    lines = ["/* generated from tests/golden/rng_vectors.json by tools/pcg32_reference.py — do not edit */",
             "#ifndef AZK_RNG_VECTORS_H", "#define AZK_RNG_VECTORS_H", "#include <stdint.h>", ""]
    lines.append("#define RNG_NUM_STREAMS %d" % len(v["streams"]))
    lines.append("static const uint64_t rng_stream_seeds[RNG_NUM_STREAMS][2] = {")
    for s in v["streams"]:
        lines.append("    {0x%016xULL, 0x%016xULL}," % (s["initstate"], s["initseq"]))
    lines.append("};")
    lines.append("static const uint32_t rng_stream_outputs[RNG_NUM_STREAMS][1000] = {")
    for s in v["streams"]:
        lines.append("    {")
        out = s["outputs"]
        for i in range(0, 1000, 8):
            lines.append("        " + " ".join("0x%08xu," % x for x in out[i:i + 8]))
        lines.append("    },")
    lines.append("};")
    b = v["bounded"]["draws"]
    lines.append("#define RNG_NUM_BOUNDS %d" % len(b))
    lines.append("static const uint32_t rng_bounds[RNG_NUM_BOUNDS] = {%s};" % ", ".join("%du" % d["bound"] for d in b))
    lines.append("static const uint32_t rng_bounded_values[RNG_NUM_BOUNDS][100] = {")
    for d in b:
        lines.append("    {" + ", ".join("%du" % x for x in d["values"]) + "},")
    lines.append("};")
    sh = v["shuffle"]
    lines.append("static const uint8_t rng_shuffle_output[50] = {%s};" % ", ".join(str(x) for x in sh["output"]))
    lines.append("static const uint32_t rng_shuffle_next = 0x%08xu;" % sh["next_output_after"])
    lines += ["", "#endif", ""]
    return "\n".join(lines)


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    v = build()
    files = {os.path.join(root, "tests", "golden", "rng_vectors.json"): json.dumps(v, indent=1) + "\n",
             os.path.join(root, "tests", "c", "rng_vectors.h"): c_header(v)}
    if "--check" in argv:
        stale = [p for p, t in files.items() if not os.path.exists(p) or open(p).read() != t]
        for p in stale:
            print("stale:", p)
        return 1 if stale else 0
    for p, t in files.items():
        with open(p, "w") as f:
            f.write(t)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
