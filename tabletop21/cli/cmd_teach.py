"""`tabletop21 teach KIND DIR -o FILE`: teach a reader the owner's own pieces from labelled
photos; without DIR, at the table with its camera, screen and buttons
(tabletop21.teaching); `--forget FILE` goes back to the shipped reader."""

from __future__ import annotations

import time
from pathlib import Path

from table.errors import TableError
from tabletop21.taught import pieces_taught, save_taught, teach_folder
from vision.teach import KINDS

ALL_KINDS = ("dice", "d10", "dominoes", "cards")


def register(subparsers) -> None:
    parser = subparsers.add_parser("teach", help="teach a reader your own dice, d10s, domino tiles or cards from labelled photos")
    parser.add_argument("kind", choices=ALL_KINDS, metavar="KIND", help=f"what to teach: {', '.join(ALL_KINDS)}")
    parser.add_argument("directory", nargs="?", metavar="DIR",
                        help="photos with a labels.json in the `eval` format (15-20 photos of your pieces); without "
                             "it, teach at the table: roll (or lay out tiles or cards), and confirm or correct each "
                             "piece on the screen")
    parser.add_argument("-o", "--out", metavar="FILE",
                        help="the taught-reader file to write (default: the settings' [table] taught)")
    parser.add_argument("--config", default=None,
                        help="settings file (TOML); default $TABLETOP21_CONFIG, else ~/tabletop21/table.toml")
    parser.add_argument("--into", metavar="DIR",
                        help="at the table: the teaching folder each roll (or picture of tiles or cards) kept goes "
                             "into (default ~/tabletop21/teach-dice, teach-d10, teach-dominoes or teach-cards)")
    parser.add_argument("--fullscreen", action="store_true", help="at the table: fill the screen (kiosk mode)")
    parser.add_argument("--forget", metavar="FILE", help="remove this taught-reader file: the shipped reader reads again")
    parser.set_defaults(run=run)


def run(args) -> int:
    if args.forget:
        if args.directory or args.out:
            raise TableError("--forget FILE takes no DIR or -o: it removes FILE")
        path = Path(args.forget)
        if not path.is_file():
            raise TableError(f"{path}: no such taught-reader file; nothing to forget")
        from tabletop21.taught import load_taught

        load_taught(path)  # only a taught-reader file is removed, never another file by a slip
        path.unlink()
        print(f"{path} removed: the shipped {args.kind} reader reads from now on "
              "(empty [table] taught in the settings file too, if it names it)")
        return 0
    if args.kind not in KINDS:
        raise TableError(f"only {', '.join(KINDS)} can be taught today; {args.kind} is read by the shipped "
                         "reader alone")
    if not args.directory:
        from tabletop21.teaching import run_at_table, teaching_at_table

        with teaching_at_table(args.kind, args.config, out=args.out, into=args.into,
                               fullscreen=args.fullscreen) as opened:
            rounds = "pictures" if args.kind in ("dominoes", "cards") else "rolls"
            print(f"tabletop21: teaching the table your {args.kind} at the table: the screen says what to do; the "
                  f"{rounds} kept go into {opened.teacher.folder}, the taught reader into {opened.out}. Esc (or "
                  f"Ctrl+C) stops; the {rounds} kept stay.")
            return run_at_table(opened)
    if args.into:
        raise TableError("--into names the folder rolls kept at the table go into; to teach from a folder, give it "
                         "as DIR")
    if not args.out:
        from tabletop21.settings import find_settings, load_config

        settings, _ = find_settings(args.config)
        args.out = load_config(settings).table.taught or None
        if not args.out:
            raise TableError(f"name the taught-reader file to write with -o FILE (e.g. -o ~/tabletop21/taught-"
                             f"{args.kind}.json), or set [table] taught in the settings file")
        args.out = str(Path(args.out).expanduser())
    start = time.process_time()
    taught = teach_folder(args.kind, args.directory)
    save_taught(taught, args.out)
    on = taught.taught_on
    print(f"taught {args.kind} from {on['photos']} photos ({pieces_taught(taught)}) in "
          f"{time.process_time() - start:.1f} s of CPU: {args.out}")
    print(f"read with it: `tabletop21 read --taught {args.out} IMAGE` or `tabletop21 eval DIR --taught {args.out}`")
    return 0
