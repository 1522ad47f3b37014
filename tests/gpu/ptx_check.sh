#!/bin/sh
# Compile every launch of launches.txt to PTX and check it with ptxas.
# usage: ptx_check.sh GPU_TOOL   (exit 77 when ptxas is missing)
tool=${1:?usage: ptx_check.sh GPU_TOOL}
case "$tool" in /*) ;; *) tool=$(pwd)/$tool ;; esac
cd "${TRITIUM_SRCDIR:-$(dirname "$0")/../..}" || exit 2
fail=0
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  args=${line#*|}
  # shellcheck disable=SC2086
  "$tool" --ptxas $args; rc=$?
  [ $rc -eq 77 ] && exit 77
  [ $rc -ne 0 ] && fail=1
done < tests/gpu/launches.txt
exit $fail
