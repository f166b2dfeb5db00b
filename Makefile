# Makefile — task runner and C-only builds.
#
#   make run         the main job: set up .venv-puffer (tools/setup_envs.sh puffer), train a policy
#                    for a fixed budget of STEPS agent-steps (not wall clock: the same run on any
#                    machine) against the league on the default card set, evaluate it against the
#                    built-in bots and write the learning curve (runs/main/)
#   make train       the same with a 10-minute wall-clock budget instead (make run MINUTES=10)
#   make simulate    set up .venv, then simulate 2,000 random games at C speed
#   make test        set up .venv, then run every test (see tools/test.sh): every stage runs,
#                    a table of the stages' results ends it, it fails if any stage failed.
#                    Needs clang with libFuzzer and Debian's chromium, both installed with
#                    apt-get as root or through sudo if missing (README for the times)
#   make quick-test  set up .venv, then convert --check, pytest without the tests marked
#                    slow, and the C tests (normal build, 2,000 random games): gcc only;
#                    ~1.5 min once .venv and out/ are built (README, Tests, for the times)
#   make regen       after editing azuki/data/cards.json or csrc/*.def: rewrite the
#                    checked-in generated files (python -m azuki.convert --write-default)
#   make ctest       build and run the C test programs (normal build)
#   make asan      the same under AddressSanitizer + UndefinedBehaviorSanitizer
#   make tsan        VecGame's worker pool (tests/c/test_vec_threads.c) under ThreadSanitizer
#   make bench-vec   VecGame's C step, 1 against 2 threads side by side (bench/bench_vec.c)
#   make bench     engine benchmark (C)
#   make wasm        rebuild the engine as WebAssembly (azuki/web/static/azuki.wasm; needs emcc)
#   make wasm-check  is the checked-in azuki.wasm fresh against csrc/? (no emcc needed)
#   CARDS=FILE.json  with soak, fuzz-smoke, cards-ctest, bench: run over that card set
#                    (e.g. azuki/data/expansion.json: starter + expansion, every deck pairing)
#
# The core's source list is shared with setup.py through csrc/sources.mk.
include csrc/sources.mk

CC ?= gcc
CFLAGS_COMMON = -std=c11 -Wall -Wextra -Werror -pthread -Icsrc -Igenerated -Itests/c
# -flto: the core is split in layers (csrc/layers.def: query.c < zones.c < vm.c < ...);
# link-time optimization inlines the small primitives across them again
# (callgrind: 390 M -> 367 M instructions / 1,000 games). Fat objects keep the
# library usable by a link without -flto.
LTO = -flto=auto -ffat-lto-objects
AR = gcc-ar
CFLAGS_OPT = $(CFLAGS_COMMON) -O3 -DNDEBUG $(LTO)   # as setup.py builds the core
CFLAGS_DBG = $(CFLAGS_COMMON) -O1 -g -DAZK_DEBUG
CFLAGS_SAN = $(CFLAGS_COMMON) -O1 -g -DAZK_DEBUG -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
PY ?= .venv/bin/python

C_TESTS = $(patsubst tests/c/%.c,%,$(wildcard tests/c/test_*.c))
OUT = out

# CARDS=FILE.json: the soak, the fuzzers, the C random-play test (cards-ctest)
# and the engine benchmark read the compiled set from $AZK_CARDSET
# (tests/c/azk_cardset_env.h) instead of the embedded default.
ifneq ($(CARDS),)
CARDS_BIN := $(OUT)/cards/$(basename $(notdir $(CARDS))).bin
export AZK_CARDSET := $(abspath $(CARDS_BIN))
$(CARDS_BIN): $(CARDS) .venv/.installed FORCE
	@mkdir -p $(dir $@)
	$(PY) -m azuki.convert $(CARDS) --bytes $@ >/dev/null
endif
CARDS_DEP := $(CARDS_BIN)
.PHONY: FORCE cards-ctest
FORCE:

.PHONY: run train simulate test quick-test regen ctest asan bench venv venv-puffer clean

venv: .venv/.installed
# Rebuilt when the build or anything compiled into azuki._core changes, so
# `make test` never runs pytest against a stale extension.
.venv/.installed: setup.py pyproject.toml $(AZK_CORE_SOURCES) $(wildcard csrc/*.h csrc/*.def generated/*.h) azuki/_core.pyx $(wildcard azuki/*.pxi) azuki/_core.pxd
	bash tools/setup_venv.sh
	touch $@

# The RL world (pufferlib 3.0.0, torch CPU): rebuilt when the build or its pins change.
venv-puffer: .venv-puffer/.installed
.venv-puffer/.installed: tools/setup_envs.sh constraints/puffer.txt setup.py pyproject.toml $(AZK_CORE_SOURCES) $(wildcard csrc/*.h csrc/*.def generated/*.h azuki/*.py azuki/*/*.py azuki/*.pyx azuki/data/*)
	bash tools/setup_envs.sh puffer
	touch $@

# STEPS: ~1.2 minutes of PPO on a quiet 2-core machine with the recipe of azuki/data/run.toml (~2.3 with its
# kickstart and search-label fit; docs/training.md "make run's recipe"); MINUTES (make train): a wall-clock
# budget with the recipe of training from search (azuki/data/expert.toml: the 10-minute figures in the README)
STEPS ?= 400000
MINUTES ?=
run: venv-puffer
	.venv-puffer/bin/azuki train $(if $(MINUTES),--config azuki/data/expert.toml --minutes $(MINUTES) --steps 0,--config azuki/data/run.toml --minutes 0 --steps $(STEPS)) --out runs/main

train:
	$(MAKE) --no-print-directory run MINUTES=10

simulate: venv
	$(PY) -m azuki simulate --games 2000

test: venv
	bash tools/test.sh

quick-test: venv
	bash tools/test.sh --quick

# The embedded default card set and the Python vocabularies are generated and
# checked in; `python -m azuki.convert` alone only validates.
regen: venv
	$(PY) -m azuki.convert --write-default

$(OUT)/opt/libazuki_core.a: $(AZK_CORE_SOURCES) $(wildcard csrc/*.h csrc/*.def generated/*.h)
	@mkdir -p $(OUT)/opt
	cd $(OUT)/opt && rm -f *.o && for s in $(AZK_CORE_SOURCES); do $(CC) $(CFLAGS_OPT) -I../../csrc -I../../generated -c ../../$$s || exit 1; done && $(AR) rcs libazuki_core.a *.o

$(OUT)/san/libazuki_core.a: $(AZK_CORE_SOURCES) $(wildcard csrc/*.h csrc/*.def generated/*.h)
	@mkdir -p $(OUT)/san
	cd $(OUT)/san && rm -f *.o && for s in $(AZK_CORE_SOURCES); do $(CC) $(CFLAGS_SAN) -I../../csrc -I../../generated -c ../../$$s || exit 1; done && ar rcs libazuki_core.a *.o

$(OUT)/opt/%: tests/c/%.c $(OUT)/opt/libazuki_core.a tests/c/azk_test.h tests/c/azk_noalloc.h tests/c/azk_cardset_env.h tests/c/azk_reference.h
	$(CC) $(CFLAGS_OPT) -o $@ $< $(OUT)/opt/libazuki_core.a -lm

$(OUT)/san/%: tests/c/%.c $(OUT)/san/libazuki_core.a tests/c/azk_test.h tests/c/azk_noalloc.h tests/c/azk_cardset_env.h tests/c/azk_reference.h
	$(CC) $(CFLAGS_SAN) -o $@ $< $(OUT)/san/libazuki_core.a -lm

# The optimized build runs the random-play property test on CTEST_GAMES games
# (all four deck pairings, invariants after every step: 10,000; make quick-test
# 2,000); the sanitizer build on 2,000.
CTEST_GAMES ?= 10000
ctest: $(addprefix $(OUT)/opt/,$(C_TESTS))
	@set -e; for t in $(C_TESTS); do echo "== $$t"; AZK_TEST_GAMES=$(CTEST_GAMES) ./$(OUT)/opt/$$t; done

asan: $(addprefix $(OUT)/san/,$(C_TESTS))
	@set -e; for t in $(C_TESTS); do echo "== $$t (asan+ubsan)"; ASAN_OPTIONS=detect_leaks=1 ./$(OUT)/san/$$t; done

# ThreadSanitizer over the worker pool (csrc/vec.c): the core and the pool's test.
CFLAGS_TSAN = $(CFLAGS_COMMON) -O1 -g -fsanitize=thread
$(OUT)/tsan/libazuki_core.a: $(AZK_CORE_SOURCES) $(wildcard csrc/*.h csrc/*.def generated/*.h)
	@mkdir -p $(OUT)/tsan
	cd $(OUT)/tsan && rm -f *.o && for s in $(AZK_CORE_SOURCES); do $(CC) $(CFLAGS_TSAN) -I../../csrc -I../../generated -c ../../$$s || exit 1; done && ar rcs libazuki_core.a *.o

$(OUT)/tsan/test_vec_threads: tests/c/test_vec_threads.c $(OUT)/tsan/libazuki_core.a tests/c/azk_test.h
	$(CC) $(CFLAGS_TSAN) -o $@ $< $(OUT)/tsan/libazuki_core.a -lm

.PHONY: tsan bench-vec
tsan: $(OUT)/tsan/test_vec_threads
	TSAN_OPTIONS=halt_on_error=1 ./$(OUT)/tsan/test_vec_threads

$(OUT)/opt/bench_vec: bench/bench_vec.c bench/bench_util.h $(OUT)/opt/libazuki_core.a
	$(CC) $(CFLAGS_COMMON) -O3 -DNDEBUG $(LTO) -o $@ $< $(OUT)/opt/libazuki_core.a -lm

bench-vec: $(OUT)/opt/bench_vec
	./$(OUT)/opt/bench_vec

$(OUT)/opt/bench_engine: bench/bench_engine.c bench/bench_util.h $(OUT)/opt/libazuki_core.a tests/c/azk_cardset_env.h
	$(CC) $(CFLAGS_COMMON) -O3 -DNDEBUG $(LTO) -march=native -o $@ $< $(OUT)/opt/libazuki_core.a -lm

# The C random-play property test (test_engine: invariants after every step,
# every deck pairing) over CARDS, optimized and under ASan + UBSan.
cards-ctest: $(OUT)/opt/test_engine $(OUT)/san/test_engine $(CARDS_DEP)
	@test -n "$(CARDS)" || { echo "usage: make cards-ctest CARDS=FILE.json" >&2; exit 2; }
	AZK_TEST_GAMES=$${CARDS_GAMES:-4000} ./$(OUT)/opt/test_engine
	ASAN_OPTIONS=detect_leaks=1 AZK_TEST_GAMES=$${CARDS_GAMES_SAN:-800} ./$(OUT)/san/test_engine

bench: $(OUT)/opt/bench_engine $(CARDS_DEP)
	./$(OUT)/opt/bench_engine

# Fuzzers, sanitizer soak and the no-allocation test (issue 6) live in their own file.
-include tests/fuzz/fuzz.mk

# The play page's screenshots (docs/img/play_*.png; docs/play.md): Playwright + Debian's chromium.
screenshots:
	bash tools/setup_envs.sh web
	.venv-web/bin/python tools/screenshots.py --out docs/img

# The engine as WebAssembly for the static site (docs/play.md): rebuild the checked-in
# azuki/web/static/azuki.wasm and its stamp after a change to csrc/ (needs emcc: Debian package
# emscripten); wasm-check tells whether it is stale, without emcc.
wasm:
	python3 wasm/build.py

wasm-check:
	python3 wasm/build.py --check

.PHONY: wasm wasm-check

clean:
	rm -rf $(OUT) build *.egg-info azuki/_core.c azuki/*.so
