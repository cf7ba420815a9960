#!/bin/bash
# Runs a command with glibc's malloc thresholds fixed, so that reading frames
# is equally fast in every process.
#
# By default, glibc serves a large allocation (a frame, a mask) either with a
# fresh mmap or from its heap. Which one it picks depends on what was freed
# before, and it may hand heap memory back to the system and fault it in again.
# OpenCV allocates and frees a few such buffers for every frame. Measured on
# nell-byler with `npm run bench:vision` (BENCHMARKS.md): fixed thresholds gave
# a lower p95 in five of five paired runs, and no process stuck at 2-3x the
# usual time per frame, as one in four did without. The cost is memory: the
# heap keeps its peak (tens of MB) instead of shrinking.
#
#   bash scripts/steady-malloc.sh node bin/dice-tower.js serve
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-33554432}"
export MALLOC_TRIM_THRESHOLD_="${MALLOC_TRIM_THRESHOLD_:-268435456}"
exec "$@"
