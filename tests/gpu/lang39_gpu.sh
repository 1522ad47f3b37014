#!/bin/sh
# tests/gpu/lang39_gpu.sh ptx|diff TRITIUM — the language of Triton 3.7-3.9
# (tests/gpu/lang39.py) on the GPU path: ptx compiles every launch (no GPU
# needed: meson suite gpu, gpu_lang39_ptx); diff runs each on the CPU and the
# GPU and compares (on a GPU machine; dots under --numerics fast, compared within
# their bounds: docs/bounds.md). Exit 0 when none failed.
set -u
mode=${1:?usage: lang39_gpu.sh ptx|diff TRITIUM}
T=${2:?usage: lang39_gpu.sh ptx|diff TRITIUM}
case "$T" in */*) case "$T" in /*) ;; *) T=$(pwd)/$T ;; esac ;; esac
cd "$(dirname "$0")/../.." || exit 2
export TRITIUM_TRITON_VERSION=3.9
K=tests/gpu/lang39.py
fail=0
launch() {
    name=$1
    shift
    if out=$("$T" "$mode" "$K:$@" 2>&1); then
        echo "ok   $name"
    else
        echo "FAIL $name"
        echo "$out" | tail -20
        fail=1
    fi
}
launch shapes shapes --grid 1 --arg X=randn:f32[256] --arg Y=zeros:f32[512] --arg Z=zeros:f32[16] --arg W=zeros:f32[256]
launch syntax syntax --grid 1 --arg X=randn:f32[64] --arg Y=zeros:f32[64] --arg N=40 --const S=3
launch numerics numerics --grid 1 --arg X=randn:f32[256] --arg I=arange:i16[16] --arg Y=zeros:f32[256] \
    --arg J=zeros:f16[16] --arg C=zeros:f32[256] --arg A=zeros:f16[256]
launch atomics atomics --grid 1 --arg X=randn:f32[64] --arg Y=zeros:f32[64] --arg N=50
launch narrow_atomics narrow_atomics --grid 3 --arg B=arange:i8[61] --arg S=arange:i16[61] --arg H=randn:f16[61] \
    --arg BF=randn:bf16[61] --arg Q=rand:bool[61] --arg E=randn:f8e4nv[61] --arg YB=zeros:i8[63] --arg YS=zeros:i16[63] \
    --arg YH=zeros:f16[61] --arg YBF=zeros:bf16[61] --arg YQ=zeros:bool[61] --arg YE=zeros:f8e4nv[61] --arg N=60
launch polls polls --grid 8 --arg F=zeros:i32[8] --arg C=zeros:i32[8] --arg X=arange:i64[64] --arg OK=zeros:bool[512] \
    --arg T=0
launch mxdot mxdot --grid 1 --arg X=randn:f32[8192] --arg Y=zeros:f32[1024] --arg Z=zeros:f32[1024] --arg W=zeros:f32[1024] \
    --arg V=zeros:f32[1024] --numerics fast
launch aggregates aggregates --grid 1 --arg X=randn:f32[64] --arg Y=zeros:f32[64] --arg N=3
exit $fail
