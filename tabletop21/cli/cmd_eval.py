"""`tabletop21 eval DIR [--split even|odd|all] [--show N --out OUTDIR] [--json]`: score
the table reader against DIR/labels.json (DIR/images/ holds the photos, or DIR itself), for every
kind labelled there. --split picks half of the photos, so figures for a model trained
on one half can be reported on the other."""

from __future__ import annotations

import json
import zipfile
from functools import partial
from pathlib import Path

import cv2

from table.errors import TableError
from tabletop21.evaluate import BadLabels, draw, evaluate, labelled_kinds, load_labels, photo_path, split_names, summary
from tabletop21.folders import folder_to_keep
from vision.dice import read_dice
from vision.image_io import NotAnImage, load_bgr
from vision.read import OTHER_READERS, READERS, read_table
from vision.weights import Network

SHOW_OUT = "eval-show"  # where --show draws when no --out is given


def register(subparsers) -> None:
    parser = subparsers.add_parser("eval", help="score the reader against labelled photos")
    parser.add_argument("directory", metavar="DIR")
    parser.add_argument("--split", choices=("even", "odd", "all"), default="all")
    parser.add_argument("--show", type=int, default=0, metavar="N", help="draw the N worst photos")
    parser.add_argument("--out", metavar="OUTDIR", default=None,
                        help=f"where --show writes its pictures (default {SHOW_OUT}/)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--dice-net", action="store_true",
                        help="score the learned d6 reader (ONNX; docs/vision-dice-net.md) in place of the shipped one")
    parser.add_argument("--dice-hand", action="store_true",
                        help="score the hand-built d6 reader alone, without the learned one (docs/vision.md)")
    parser.add_argument("--d10-net", action="store_true",
                        help="score the learned d10 reader (ONNX; docs/vision-cards-d10.md) in place of the shipped one")
    parser.add_argument("--dominoes-net", action="store_true",
                        help="score the learned domino reader alone (ONNX; docs/vision-dominoes.md) in place of the "
                             "default, which merges it with the hand-built one")
    parser.add_argument("--dominoes-hand", action="store_true",
                        help="score the hand-built domino reader alone (docs/vision-dominoes.md)")
    parser.add_argument("--cards-net", action="store_true",
                        help="the learned card reader (the default; kept so older commands still run)")
    parser.add_argument("--cards-hand", action="store_true",
                        help="score the hand-built card reader (docs/vision-cards-d10.md) in place of the learned one")
    parser.add_argument("--taught", metavar="FILE",
                        help="score the dice, d10s, tiles or cards with this taught reader (`tabletop21 teach`) in place of the shipped one")
    parser.add_argument("--dice-model", metavar="FILE", action="append",
                        help="score the dice reader alone with these weights (e.g. trained on the other "
                             "half); repeat for several networks")
    parser.add_argument("--face-model", metavar="FILE", action="append",
                        help="the same for the dice reader's face networks")
    parser.add_argument("--hue-model", metavar="FILE", action="append",
                        help="the same for its second opinion on unclear faces (trained with `--face --hue`)")
    parser.set_defaults(run=run)


def _print_summary(result: dict) -> None:
    print(f"photos: {result['photos']}, read perfectly: {result['perfect_photos']} ({result['perfect_pct']}%)")
    print(f"time: {result['ms_per_photo']} ms per photo (95th percentile {result['ms_p95']} ms)")
    for kind, s in result["kinds"].items():
        print(f"{kind}: labelled {s['labelled']}, found {s['found']} ({s['found_pct']}%), "
              f"value right {s['value_right']} ({s['value_right_pct']}%), phantoms {s['phantoms']} "
              f"({s['phantom_pct']}%), unreadable {s['unreadable']} ({s['unreadable_pct']}%), "
              f"needless refusals {s['needless_refusals']}")


def _load_network(path: str) -> Network:
    try:
        return Network.load(path)
    except (OSError, EOFError, ValueError, zipfile.BadZipFile) as err:
        raise TableError(f"{path}: not a dice network file ({err})") from err


def run(args) -> int:
    directory = Path(args.directory)
    if not directory.is_dir():
        raise TableError(f"{directory}: no such folder (give a folder holding labels.json and the photos)")
    if not (directory / "labels.json").is_file():
        raise TableError(f"{directory}: no labels.json in this folder (the labels the photos are scored against)")
    if args.show < 0:
        raise TableError(f"--show {args.show}: the number of photos to draw is 0 or more")
    # Made before the photos are scored: a file in the way is one line, not a traceback
    # after the whole evaluation.
    out = folder_to_keep(args.out or SHOW_OUT, "drawn reads", "name a folder for --out") if args.show else None
    cv2.setNumThreads(1)
    try:
        labels = load_labels(directory)
    except BadLabels as err:
        raise TableError(str(err)) from err
    names = split_names(list(labels), args.split)
    if not names:
        raise TableError(f"{directory}: --split {args.split} leaves no photo to score")
    # Only the readers for what the labels hold: the figures (and ms per photo) are
    # those of the reader being scored, as on a table of that game.
    chosen = {kind: READERS[kind] for kind in labelled_kinds(labels) if kind in READERS}
    if args.dice_net and "dice" in chosen:
        chosen["dice"] = OTHER_READERS["dice-net"]
    if args.dice_hand and "dice" in chosen:
        chosen["dice"] = OTHER_READERS["dice-hand"]
    if args.d10_net and "d10" in chosen:
        chosen["d10"] = OTHER_READERS["d10-net"]
    if args.dominoes_net and "dominoes" in chosen:
        chosen["dominoes"] = OTHER_READERS["dominoes-net"]
    if args.dominoes_hand and "dominoes" in chosen:
        chosen["dominoes"] = OTHER_READERS["dominoes-hand"]
    if args.cards_net and "cards" in chosen:
        chosen["cards"] = OTHER_READERS["cards-net"]
    if args.cards_hand and "cards" in chosen:
        chosen["cards"] = OTHER_READERS["cards-hand"]
    if args.taught:
        from tabletop21.taught import load_taught
        from vision.read import taught_reader

        taught = load_taught(args.taught)
        if taught.kind in chosen:
            chosen[taught.kind] = taught_reader(taught)
    reader = partial(read_table, readers=chosen)
    if args.dice_model or args.face_model or args.hue_model:
        reader = partial(read_dice, networks=tuple(_load_network(path) for path in args.dice_model or ()),
                         face_networks=tuple(_load_network(path) for path in args.face_model or ()),
                         hue_networks=tuple(_load_network(path) for path in args.hue_model or ()))
    try:
        results = evaluate(directory, reader, names, show_progress=True)
    except (NotAnImage, BadLabels) as err:  # a labelled photo missing or not a picture; nothing labelled
        raise TableError(str(err)) from err
    result = summary(results)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        _print_summary(result)
    if out is not None:
        for photo in sorted(results, key=lambda p: -p.errors)[:args.show]:
            frame = load_bgr(photo_path(directory, photo.file))
            cv2.imwrite(str(out / (Path(photo.file).stem + "_read.png")),
                        draw(frame, reader(frame), labels[photo.file]))
            print(f"{photo.file}: " + "; ".join(photo.mistakes or ["no mistakes"]))
        print(f"the {min(args.show, len(results))} photos with most mistakes are drawn in {out}/")
    return 0
