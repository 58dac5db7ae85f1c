#!/bin/bash
# One run end to end: detector, face classifier, ONNX export, calibration, evaluation.
#   tools/dice_net/pipeline.sh runs/all "" 3000 4000       (the shipped models)
#   tools/dice_net/pipeline.sh runs/lo-aws dice-aws 3000 2000
#   tools/dice_net/pipeline.sh runs/d6-fold0 dice-d6-photos@0/2 3000 4000
# COMPOSITE (default 0.5, as shipped) is the detector's share of composite crops; the
# leave-one-out table of docs/vision-dice-net.md was made with COMPOSITE=0.
# FACE_ARGS (default "--size 48 --upright dice-aws"; the shipped face classifier adds
# "--recolour 0.5 --invert 0.3 --cubes 6000") go to train_face.py, DET_ARGS to train_det.py.
# TRAIN_ARGS go to both trainers: "--device cuda --workers 7" trains on a GPU with 7
# processes making batches (the same batches as one process makes). DATA is the photo
# folder (default ../shared/data), CACHE the composites' cache; UNTIL=face stops after
# training (export, calibration and evaluation done elsewhere).
# Stages: detector, hard negatives (its false detections), face classifier.
# A finished stage (det.pt / face.pt present) is skipped; an interrupted one resumes.
set -euo pipefail
RUN=$1; LEAVE=${2:-}; DET_STEPS=${3:-3000}; FACE_STEPS=${4:-2000}
PY=${PY:-python3}  # a Python with the `train` extra (torch, onnx)
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
cd "$(dirname "$0")/../.."
LO=(); [ -n "$LEAVE" ] && LO=(--leave-out "$LEAVE")
[ -n "${DATA:-}" ] && LO+=(--data "$DATA")
CA=(); [ -n "${CACHE:-}" ] && CA=(--cache "$CACHE")
mkdir -p "$RUN"
[ -f "$RUN/det.pt" ] || $PY -m tools.dice_net.train_det --out "$RUN" "${LO[@]}" "${CA[@]}" --steps "$DET_STEPS" --resume --composite "${COMPOSITE:-0.5}" ${DET_ARGS:-} ${TRAIN_ARGS:-}
[ -f "$RUN/hard.npz" ] || $PY -m tools.dice_net.mine --run "$RUN" "${LO[@]}"
[ -f "$RUN/face.pt" ] || $PY -m tools.dice_net.train_face --out "$RUN" "${LO[@]}" --steps "$FACE_STEPS" --resume --hard "$RUN/hard.npz" --widths "${FACE_WIDTHS:-24,48,64,96}" ${FACE_ARGS---size 48 --upright dice-aws} ${TRAIN_ARGS:-}
[ "${UNTIL:-}" = face ] && exit 0
$PY -m tools.dice_net.export --run "$RUN" 2>/dev/null
$PY -m tools.dice_net.calibrate --config "$RUN/onnx/dice_net.json" "${LO[@]}"
if [[ "$LEAVE" == *@* ]]; then
  $PY -m tools.dice_net.evaluate --config "$RUN/onnx/dice_net.json" --only "$LEAVE" --split all
elif [ -n "$LEAVE" ]; then
  $PY -m tools.dice_net.evaluate --config "$RUN/onnx/dice_net.json" --source "$LEAVE" --split all
else
  $PY -m tools.dice_net.evaluate --config "$RUN/onnx/dice_net.json" --split val
fi
