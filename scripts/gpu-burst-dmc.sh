#!/bin/sh
# A DMC training burst on a lent GPU machine (issue 53: the learner on the GPU, the
# collectors on the machine's cores), resumed from a run's checkpoint and handed back.
#
#   sh scripts/gpu-burst-dmc.sh RUN MINUTES [train-dmc options...]
#
# RUN is a folder holding the run (its checkpoint.pt, or a slim checkpoint.npz: Adam
# starts afresh); the run's own options (--reward, --hidden) go after MINUTES. The run
# goes on in a copy for MINUTES of training, its update on the GPU (--device cuda) and
# its deals played by one collector process a core but two (--collectors), each
# family's games in that many shares (--shards, 64 games a share); then its
# checkpoint.pt, slim checkpoint.npz, log.csv and stats.csv are written to $OUT (the
# device tool's folder that comes back), or to RUN.burst without it.
#
# On the device the package is built there first (pip, no index: the image holds
# scikit-build-core, pybind11, NumPy, click, tqdm and PyTorch). BIG2_BURST_INSTALL=0
# skips that and BIG2_BURST_DEVICE=cpu trains on the CPU: how the tests run this
# script on a machine without a GPU.
set -eu
if [ $# -lt 2 ]; then
  echo "usage: sh scripts/gpu-burst-dmc.sh RUN MINUTES [train-dmc options...]" >&2
  exit 2
fi
run=$1 minutes=$2
shift 2
[ -f "$run/checkpoint.pt" ] || [ -f "$run/checkpoint.npz" ] || {
  echo "$run holds no checkpoint.pt or checkpoint.npz" >&2; exit 2; }
out=${OUT:-$run.burst}
python=${PYTHON:-python3}
if [ "${BIG2_BURST_INSTALL:-1}" != 0 ]; then
  "$python" -m pip install --quiet --no-deps --no-build-isolation --no-index -e . >&2
fi
cores=$(nproc)
collectors=$((cores > 3 ? cores - 2 : 1))
shards=$(((collectors + 1) / 2))
work=$(mktemp -d)
cp "$run"/checkpoint.* "$run"/log.csv "$run"/stats.csv "$work"/ 2>/dev/null || true
rm -f "$work/checkpoint.prev.pt"
"$python" -m big2.learn train-dmc --out "$work" --hours "$("$python" -c "print($minutes / 60)")" \
  --device "${BIG2_BURST_DEVICE:-cuda}" --collectors "$collectors" --shards "$shards" \
  --games $((64 * shards)) --checkpoint-minutes 2 --eval-minutes 100000 "$@"
"$python" -m big2.learn slim "$work/checkpoint.pt" "$work/checkpoint.npz"
mkdir -p "$out"
cp "$work/checkpoint.pt" "$work/checkpoint.npz" "$work/log.csv" "$work/stats.csv" "$out"/
rm -rf "$work"
echo "the run, $minutes minutes on: $out" >&2
