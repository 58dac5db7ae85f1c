"""`tabletop21 read IMAGE... [--calibration FILE] --json`: what the camera would read
in still images, one JSON entry per image. A file that cannot be read gets an error
entry of its own and the rest are still read; the exit code says whether any failed."""

from __future__ import annotations

import argparse
import json
import sys

from tabletop21.read_json import error_to_json, read_to_json
from vision.calibration import Calibration
from vision.image_io import NotAnImage, load_bgr
from vision.read import OTHER_READERS, READERS, Reader, read_table


def register(subparsers) -> None:
    parser = subparsers.add_parser("read", help="read dice (and other objects) in images")
    parser.add_argument("images", nargs="+", metavar="IMAGE")
    parser.add_argument("--calibration", metavar="FILE", help="play area saved by `tabletop21 calibrate`")
    parser.add_argument("--kinds", default=",".join(READERS), type=_kinds,
                        help=f"readers to run, comma-separated (default: all of {','.join(READERS)})")
    parser.add_argument("--json", action="store_true", help="print one JSON array (the default is a summary line per image)")
    parser.add_argument("--taught", metavar="FILE", help="read the dice, d10s, domino tiles or cards with this taught reader (`tabletop21 teach`)")
    parser.set_defaults(run=run)


def _summary(entry: dict) -> str:
    """One line naming everything read, kind by kind, so a photo of cards does not
    look empty because it holds no dice."""
    if "error" in entry:
        return f"{entry['file']}: error: {entry['error'].removeprefix(entry['file'] + ': ')}"
    listed = {
        "dice": [str(d["value"]) for d in entry["dice"]],
        "d10": [str(d["value"]) for d in entry["d10"]],
        "dominoes": ["-".join(map(str, t["halves"])) for t in entry["dominoes"]],
        "cards": [c["rank"] + (c["suit"] or "") for c in entry["cards"]],
    }
    parts = [f"{kind} {' '.join(values)}" for kind, values in listed.items() if values]
    if entry["face_down"]:
        parts.append(f"{len(entry['face_down'])} face down")
    if entry["unreadable"]:
        reasons = sorted({f"{u.get('kind', 'die')}: {u['reason']}" for u in entry["unreadable"]})
        parts.append(f"{len(entry['unreadable'])} unreadable ({'; '.join(reasons)})")
    return f"{entry['file']}: {'; '.join(parts) or 'nothing read'}"


def _kinds(text: str) -> dict[str, Reader]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    known = READERS | OTHER_READERS
    unknown = [name for name in names if name not in known]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"readers are {', '.join(known)}; not {', '.join(unknown) or 'nothing'}")
    return {name: known[name] for name in names}


def run(args) -> int:
    calibration = Calibration.load(args.calibration) if args.calibration else None
    if args.taught:
        from tabletop21.taught import load_taught
        from vision.read import taught_reader

        taught = load_taught(args.taught)
        args.kinds = {**args.kinds, taught.kind: taught_reader(taught)}
    entries = []
    for path in args.images:
        try:
            entries.append(read_to_json(path, read_table(load_bgr(path), calibration, readers=args.kinds)))
        except NotAnImage as err:
            entries.append(error_to_json(path, err))
    if args.json:
        json.dump(entries, sys.stdout, indent=1)
        print()
    else:
        for entry in entries:
            print(_summary(entry))
    return 1 if any("error" in e for e in entries) else 0
