"""Build: the C11 core as a static library (libazuki_core.a), then the Cython
extension azuki._core linked against it.

The list of core sources lives in csrc/sources.mk (shared with the Makefile).
The engine's vocabulary files (csrc/*.def) are copied into the package so an
installed azuki.convert can read them without a source checkout.
"""
import glob
import os
import re
import shutil

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
# -O3: the engine runs ~7% faster than at -O2 (bench/README.md, session 6)
# -flto: link-time inlining across the core's layers (Makefile, bench/README.md);
# fat objects keep the archive usable by any link.
# -pthread: VecGame's worker pool (csrc/vec.c, azk_vec_set_threads).
CFLAGS = ["-std=c11", "-O3", "-Wall", "-Wextra", "-DNDEBUG", "-fPIC", "-flto=auto", "-ffat-lto-objects", "-pthread"]
INCLUDE = ["csrc", "generated"]
# What every core object and the extension read besides their own source: a
# change to any of them rebuilds the core's objects and relinks the extension.
HEADERS = sorted(os.path.join(d, f) for d, pattern in (("csrc", "*.h"), ("csrc", "*.def"), ("generated", "*.h"))
                 for f in glob.glob(pattern, root_dir=os.path.join(HERE, d)))


def core_sources():
    text = open(os.path.join(HERE, "csrc", "sources.mk")).read()
    body = text.split("AZK_CORE_SOURCES =", 1)[1]
    return re.findall(r"(\S+\.c)", body)


class BuildPyWithDefs(build_py):
    """Ship csrc/*.def as package data (azuki/data/) for the transpiler."""

    def run(self):
        data = os.path.join(HERE, "azuki", "data")
        for name in sorted(os.listdir(os.path.join(HERE, "csrc"))):
            if name.endswith(".def"):
                shutil.copyfile(os.path.join(HERE, "csrc", name), os.path.join(data, name))
        super().run()


class BuildExtWithCore(build_ext):
    """build_ext that builds the core library first. Plain `setup.py build_ext`
    only links against the library `build_clib` left behind, so after a C
    edit an in-place rebuild kept the old engine; now the library is brought
    up to date (objects recompiled when their source or any header changed)
    and the extension relinked whenever the library is newer than it."""

    def run(self):
        self.run_command("build_clib")
        clib = self.get_finalized_command("build_clib")
        lib = os.path.join(clib.build_clib, "libazuki_core.a")
        for e in self.extensions:
            e.depends = list(e.depends) + [lib]
        super().run()


ext = Extension(
    "azuki._core",
    sources=["azuki/_core.pyx"],
    include_dirs=INCLUDE + [numpy.get_include()],
    libraries=["azuki_core"],
    depends=HEADERS,
    extra_compile_args=["-O2", "-Wno-unused-function"],
    extra_link_args=["-flto=auto", "-O3", "-pthread"],
    define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
)

setup(
    libraries=[("azuki_core", {"sources": core_sources(), "include_dirs": INCLUDE, "cflags": CFLAGS,
                               "obj_deps": {"": HEADERS}})],
    ext_modules=cythonize([ext], language_level=3, compiler_directives={"boundscheck": False, "wraparound": False}),
    cmdclass={"build_py": BuildPyWithDefs, "build_ext": BuildExtWithCore},
)
