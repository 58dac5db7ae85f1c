"""`tabletop21 calibrate IMAGE -o FILE [--die-px N]`: find the play area (and the die
size, from dice lying in the picture) in one frame of the table and save it for the
appliance and for `tabletop21 read --calibration`."""

from __future__ import annotations

from table.errors import TableError
from vision.calibration import BadCalibration
from vision.image_io import NotAnImage, load_bgr
from vision.play_area import calibrate_and_say


def register(subparsers) -> None:
    parser = subparsers.add_parser("calibrate", help="find the play area in a frame and save it")
    parser.add_argument("image", metavar="IMAGE")
    parser.add_argument("-o", "--output", required=True, metavar="FILE")
    parser.add_argument("--die-px", type=float, help="side of a die's top face in pixels, if known")
    parser.set_defaults(run=run)


def run(args) -> int:
    try:
        frame = load_bgr(args.image)
    except NotAnImage as err:
        raise TableError(str(err)) from err
    try:
        calibration, why_no_die = calibrate_and_say(frame, args.die_px)
    except NotAnImage as err:
        raise TableError(f"{args.image}: too small for a frame of the table ({err})") from err
    except BadCalibration as err:  # the area found always makes sense: the size given did not
        raise TableError(f"--die-px {args.die_px:g}: {err}") from err
    try:
        calibration.save(args.output)
    except OSError as err:
        raise TableError(f"{args.output}: cannot write the calibration ({err.strerror})") from err
    die = f"{calibration.die_px:.1f} px" if calibration.die_px else f"unknown ({why_no_die}; give --die-px N)"
    print(f"play area: {len(calibration.area)}-sided polygon in a {calibration.frame_size[0]}x"
          f"{calibration.frame_size[1]} frame; die face {die}; saved {args.output}")
    return 0
