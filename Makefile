# Entry points for people and CI. `make demo` and `make test` do all set-up on Debian 12.
# Release build in build/, sanitized test and fuzz build in build-asan/, long fuzz runs in
# build-fuzz/.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
# Inputs per fuzz target in `make test` (docs/fuzzing.md: the fuzz step's time), and seconds
# per target in `make fuzz`.
FUZZ_RUNS ?= 10000
FUZZ_TIME ?= 900

.PHONY: all build deps test-deps demo test unit fuzz clean format dist

all: build

deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --test

build: deps
	@cmake -S . -B build $(GENERATOR) -DCMAKE_BUILD_TYPE=Release -DGPULINT_TESTS=OFF >/dev/null
	@cmake --build build -j $(JOBS)

# dist/: a statically linked gpulint (runs on any x86-64 Linux), a tarball and a .deb of it with
# its man page and shell completions (CPack), and a wheel that puts it on the PATH with pip.
dist:
	@scripts/install-deps --dist
	@cmake -S . -B build-dist $(GENERATOR) -DCMAKE_BUILD_TYPE=Release -DGPULINT_TESTS=OFF \
	  -DGPULINT_FULLY_STATIC=ON >/dev/null
	@cmake --build build-dist -j $(JOBS)
	@mkdir -p dist
	@cd build-dist && cpack -G "TGZ;DEB" -B $(CURDIR)/dist >/dev/null
	@rm -rf dist/_CPack_Packages
	@scripts/build-wheel build-dist/gpulint dist
	@ls dist

demo: build
	@scripts/demo build/gpulint

# Every test runs under AddressSanitizer + UndefinedBehaviorSanitizer with -Werror. With clang
# (test-deps installs it) the same build is instrumented for libFuzzer and holds the fuzz
# targets too, so `make test` compiles gpulint once, not twice (a separate fuzz build took
# 9 minutes of the 30 that `make test` may take on two cores); without clang, g++ builds the
# tests and run-fuzz says it skips the fuzzers.
unit: test-deps
	@with_clang=$$(command -v clang++ >/dev/null 2>&1 && echo "-DCMAKE_CXX_COMPILER=clang++ -DGPULINT_FUZZ=ON"); \
	cmake -S . -B build-asan $(GENERATOR) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG='-O1 -g' -DGPULINT_SANITIZE=ON \
	  -DGPULINT_WERROR=ON -DGPULINT_TESTS=ON $$with_clang >/dev/null
	@cmake --build build-asan -j $(JOBS)
	@cd build-asan && ctest --output-on-failure -j $(JOBS)

test: unit
	@FUZZ_BUILD=build-asan scripts/run-fuzz $(FUZZ_RUNS)

fuzz: test-deps
	@FUZZ_SEED=0 FUZZ_TIME=$(FUZZ_TIME) scripts/run-fuzz

format:
	@clang-format -i $$(git ls-files '*.cpp' '*.h' '*.cc')

clean:
	rm -rf build build-asan build-fuzz build-dist dist
