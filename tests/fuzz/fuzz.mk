# fuzz.mk — fuzzers, sanitizer soak and the long runs (included by the Makefile).
#
#   make fuzz-build                 build the three libFuzzer harnesses (clang, ASan+UBSan)
#   make fuzz-smoke [FUZZ_SECONDS=60]  run each for FUZZ_SECONDS from its seed corpus,
#                                   after replaying every saved regression input
#   make fuzz-long [FUZZ_SECONDS=3600] [FUZZ_JOBS=2]  the documented long run
#   (each with CARDS=FILE.json: over that card set, Makefile)
#   make soak [SOAK_DECISIONS=1000000]  random legal play under ASan+UBSan+LSan with
#                                   invariants after every step (long: 100000000)
FUZZERS = fuzz_actions fuzz_state fuzz_cards
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 2
SOAK_DECISIONS ?= 1000000
FUZZ_CFLAGS = -std=c11 -g -O1 -DAZK_DEBUG -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
              -Icsrc -Igenerated -Itests/fuzz
FUZZ_DEPS = $(AZK_CORE_SOURCES) $(wildcard csrc/*.h csrc/*.def generated/*.h tests/fuzz/*.h) tests/c/azk_cardset_env.h

.PHONY: fuzz-deps fuzz-build fuzz-smoke fuzz-long fuzz-regress soak

fuzz-deps:
	@bash tools/install_fuzz_deps.sh

$(OUT)/fuzz/%: tests/fuzz/%.c $(FUZZ_DEPS)
	@mkdir -p $(OUT)/fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(AZK_CORE_SOURCES) -lm

fuzz-build: fuzz-deps $(addprefix $(OUT)/fuzz/,$(FUZZERS))

# Replays each saved crash/regression input once (a directory argument to a
# libFuzzer binary with -runs=0 executes every file in it).
fuzz-regress: fuzz-build $(CARDS_DEP)
	@set -e; for f in $(FUZZERS); do \
	  if [ -d tests/fuzz/regressions/$$f ] && [ -n "$$(ls tests/fuzz/regressions/$$f)" ]; then \
	    echo "== $$f regressions"; ./$(OUT)/fuzz/$$f -runs=0 tests/fuzz/regressions/$$f; fi; done

fuzz-smoke: fuzz-regress $(CARDS_DEP)
	@set -e; for f in $(FUZZERS); do \
	  echo "== $$f for $(FUZZ_SECONDS)s"; mkdir -p $(OUT)/fuzz/corpus-$$f; \
	  ./$(OUT)/fuzz/$$f -max_total_time=$(FUZZ_SECONDS) -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix=$(OUT)/fuzz/crash-$$f- $(OUT)/fuzz/corpus-$$f tests/fuzz/corpus/$$f \
	    > $(OUT)/fuzz/$$f.log 2>&1 || { tail -60 $(OUT)/fuzz/$$f.log; exit 1; }; \
	  grep -E "stat::number_of_executed_units|stat::new_units_added|cov:.*corp" $(OUT)/fuzz/$$f.log | tail -3; done

fuzz-long: fuzz-regress
	@set -e; for f in $(FUZZERS); do \
	  echo "== $$f for $(FUZZ_SECONDS)s x $(FUZZ_JOBS) jobs"; mkdir -p $(OUT)/fuzz/corpus-$$f; \
	  ./$(OUT)/fuzz/$$f -max_total_time=$(FUZZ_SECONDS) -jobs=$(FUZZ_JOBS) -workers=$(FUZZ_JOBS) -timeout=20 \
	    -artifact_prefix=$(OUT)/fuzz/crash-$$f- $(OUT)/fuzz/corpus-$$f tests/fuzz/corpus/$$f; done

$(OUT)/san/soak: tests/c/soak.c $(OUT)/san/libazuki_core.a tests/c/azk_test.h tests/c/azk_cardset_env.h
	$(CC) $(CFLAGS_SAN) -o $@ $< $(OUT)/san/libazuki_core.a -lm

soak: $(OUT)/san/soak $(CARDS_DEP)
	ASAN_OPTIONS=detect_leaks=1 ./$(OUT)/san/soak $(SOAK_DECISIONS)

# The no-allocation test interposes malloc & co.; under ASan it only runs the
# steps (ASan owns the allocator) — see tests/c/test_noalloc.c.
