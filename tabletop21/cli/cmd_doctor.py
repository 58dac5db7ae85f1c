"""`tabletop21 doctor [--config FILE]`: what works, what does not, and how to fix it."""

from tabletop21 import doctor
from tabletop21.devices import open_source
from tabletop21.settings import find_settings, load_config


def register(subparsers) -> None:
    parser = subparsers.add_parser("doctor", help="check camera, GPIO, display, calibration and bankroll file")
    parser.add_argument("--config", default=None,
                        help="settings file (TOML); default $TABLETOP21_CONFIG, else ~/tabletop21/table.toml")
    parser.set_defaults(run=run)


def run(args) -> int:
    path, said = find_settings(args.config)
    config = load_config(path)
    print(said)
    camera = doctor.check_camera(config, open_source)
    findings = [
        camera,
        doctor.check_gpio(config),
        doctor.check_display(config),
        doctor.check_calibration(config, camera.frame_size),
        doctor.check_taught(config),
        doctor.check_learned(config),
        doctor.check_store(config),
    ]
    for finding in findings:
        print(f"[{'ok' if finding.ok else 'PROBLEM'}] {finding.part}: {finding.says}")
        if finding.fix:
            print(f"      {'fix' if not finding.ok else 'tip'}: {finding.fix}")
    problems = sum(not f.ok for f in findings)
    print("All good." if not problems else f"{problems} problem(s) to fix before a game night.")
    return 1 if problems else 0
