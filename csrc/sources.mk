# sources.mk — the one list of C sources in the core library.
# Read by the Makefile (include) and by setup.py (parsed), so the two builds
# can never compile different files. One path per line, relative to the repo.
AZK_CORE_SOURCES = \
	csrc/query.c \
	csrc/zones.c \
	csrc/engine.c \
	csrc/actions.c \
	csrc/vm.c \
	csrc/state.c \
	csrc/cardset.c \
	csrc/setup.c \
	csrc/export.c \
	csrc/bot.c \
	csrc/vec.c \
	csrc/obs.c \
	csrc/policy.c \
	csrc/play.c \
	csrc/bench.c \
	generated/cards_autogen.c
