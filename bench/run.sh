#!/bin/sh
# bench/run.sh — time the example kernels with tritium (single-threaded) and,
# when installed, with Triton's own interpreter (TRITON_INTERPRET=1) on the
# same kernel files and sizes; prints a table. See bench/run.py for options.
cd "$(dirname "$0")/.." || exit 2
exec python3 bench/run.py "$@"
