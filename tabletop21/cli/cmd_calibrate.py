"""`tabletop21 calibrate [IMAGE] [-o FILE.json] [--die-px N] [--config FILE]`: find the
play area (and the die size, from dice lying in the picture) in one frame of the table
and save it for the appliance and for `tabletop21 read --calibration`.

Without IMAGE the frame comes from the camera the settings name; without -o the file
goes where the settings' [table] calibration expects it. An empty table is fine: the
die size is then left unset (the readers work without it; the domino reader uses it
when it is there)."""

from __future__ import annotations

import argparse

from table.errors import TableError
from vision.calibration import BadCalibration
from vision.image_io import NotAnImage, load_bgr
from vision.play_area import calibrate_and_say


def register(subparsers) -> None:
    parser = subparsers.add_parser("calibrate", help="find the play area in a frame and save it")
    parser.add_argument("image", metavar="IMAGE", nargs="?",
                        help="a photo of the table (default: a frame from the camera the settings name)")
    parser.add_argument("-o", "--output", metavar="FILE.json",
                        help="where to save it, a JSON file (default: the settings' [table] calibration)")
    parser.add_argument("--die-px", type=float, help="side of a die's top face in pixels, if known")
    parser.add_argument("--config", default=None,
                        help="settings file (default $TABLETOP21_CONFIG, else ~/tabletop21/table.toml)")
    parser.set_defaults(run=run)


def _settings(args: argparse.Namespace):
    from tabletop21.settings import find_settings, load_config

    path, said = find_settings(args.config)
    print(said)
    return load_config(path)


def _camera_frame(config):
    from hardware.frames import CameraLost
    from tabletop21.devices import open_source

    try:
        source = open_source(config)
        try:
            return source.read().image
        finally:
            source.close()
    except (CameraLost, OSError, TableError) as err:
        raise TableError(f"no picture from the camera ({err}); or give a photo of the table as IMAGE") from None


def run(args: argparse.Namespace) -> int:
    config = _settings(args) if args.image is None or args.output is None else None
    output = args.output or (config.table.calibration if config else "")
    if not output:
        raise TableError("say where to save it: -o FILE.json, or [table] calibration in the settings file")
    if not output.lower().endswith(".json"):
        raise TableError(f"-o {output}: a calibration is saved as JSON; name the file .json "
                         "(and point [table] calibration at it in the settings file)")
    if args.image is None:
        frame = _camera_frame(config)
    else:
        try:
            frame = load_bgr(args.image)
        except NotAnImage as err:
            raise TableError(str(err)) from err
    try:
        calibration, why_no_die = calibrate_and_say(frame, args.die_px)
    except NotAnImage as err:
        raise TableError(f"{args.image or 'the camera frame'}: too small for a frame of the table ({err})") from err
    except BadCalibration as err:  # the area found always makes sense: the size given did not
        raise TableError(f"--die-px {args.die_px:g}: {err}") from err
    try:
        calibration.save(output)
    except OSError as err:
        raise TableError(f"{output}: cannot write the calibration ({err.strerror})") from err
    die = (f"{calibration.die_px:.1f} px" if calibration.die_px else
           f"not measured ({why_no_die}): the readers work without it; --die-px N sets it")
    print(f"play area: {len(calibration.area)}-sided polygon in a {calibration.frame_size[0]}x"
          f"{calibration.frame_size[1]} frame; die face {die}; saved {output}")
    return 0
