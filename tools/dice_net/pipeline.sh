#!/bin/bash
# One run end to end: detector, face classifier, ONNX export, calibration, evaluation.
#   tools/dice_net/pipeline.sh runs/all "" 3000 4000       (the shipped models)
#   tools/dice_net/pipeline.sh runs/lo-aws dice-aws 3000 2000
#   tools/dice_net/pipeline.sh runs/d6-fold0 dice-d6-photos@0/2 3000 4000
# COMPOSITE (default 0.5, as shipped) is the detector's share of composite crops; the
# leave-one-out table of docs/vision-dice-net.md was made with COMPOSITE=0.
# FACE_ARGS (default as shipped: "--size 48 --upright dice-aws") go to train_face.py.
# Stages: detector, hard negatives (its false detections), face classifier.
# A finished stage (det.pt / face.pt present) is skipped; an interrupted one resumes.
set -euo pipefail
RUN=$1; LEAVE=${2:-}; DET_STEPS=${3:-3000}; FACE_STEPS=${4:-2000}
PY=${PY:-python3}  # a Python with the `train` extra (torch, onnx)
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
cd "$(dirname "$0")/../.."
LO=(); [ -n "$LEAVE" ] && LO=(--leave-out "$LEAVE")
mkdir -p "$RUN"
[ -f "$RUN/det.pt" ] || $PY -m tools.dice_net.train_det --out "$RUN" "${LO[@]}" --steps "$DET_STEPS" --resume --composite "${COMPOSITE:-0.5}"
[ -f "$RUN/hard.npz" ] || $PY -m tools.dice_net.mine --run "$RUN" "${LO[@]}"
[ -f "$RUN/face.pt" ] || $PY -m tools.dice_net.train_face --out "$RUN" "${LO[@]}" --steps "$FACE_STEPS" --resume --hard "$RUN/hard.npz" --widths "${FACE_WIDTHS:-24,48,64,96}" ${FACE_ARGS---size 48 --upright dice-aws}
$PY -m tools.dice_net.export --run "$RUN" 2>/dev/null
$PY -m tools.dice_net.calibrate --config "$RUN/onnx/dice_net.json" "${LO[@]}"
if [[ "$LEAVE" == *@* ]]; then
  $PY -m tools.dice_net.evaluate --config "$RUN/onnx/dice_net.json" --only "$LEAVE" --split all
elif [ -n "$LEAVE" ]; then
  $PY -m tools.dice_net.evaluate --config "$RUN/onnx/dice_net.json" --source "$LEAVE" --split all
else
  $PY -m tools.dice_net.evaluate --config "$RUN/onnx/dice_net.json" --split val
fi
