#!/bin/sh
# Every test, as CI runs them: the main build's (the studio, the CLI, the
# core, the corpus, the fuzzers for a bounded time), then the core layers'
# tests under AddressSanitizer + UndefinedBehaviorSanitizer and under
# ThreadSanitizer. Sanitizer builds are unity builds of the core only, so
# they fit beside the main one.
set -eu
cd "$(dirname "$0")/.."
cmake --preset ci && cmake --build --preset ci && ctest --preset ci
cmake --preset asan && cmake --build --preset asan && ctest --preset asan
cmake --preset tsan && cmake --build --preset tsan && ctest --preset tsan
