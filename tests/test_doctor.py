import numpy as np

from hardware.frames import CameraLost, Frame
from tabletop21 import doctor
from tabletop21.devices import open_source
from tabletop21.recording import Manifest, SessionWriter
from tabletop21.settings import ApplianceConfig, CameraConfig, TableConfig
from vision.calibration import Calibration


def config_with(tmp_path, **table):
    return ApplianceConfig(table=TableConfig(store=str(tmp_path / "bank.sqlite"), **table),
                           camera=CameraConfig(source=str(tmp_path / "session"), width=80, height=60))


def test_camera_check_reads_a_frame_or_explains(tmp_path):
    config = config_with(tmp_path)
    missing = doctor.check_camera(config, open_source)
    assert not missing.ok and "no picture" in missing.says and missing.fix
    with SessionWriter(tmp_path / "session", Manifest("dicey21", ("a",))) as writer:
        writer.save_frame(Frame(np.zeros((60, 80, 3), np.uint8), 1, 0.0))
    found = doctor.check_camera(config, open_source)
    assert found.ok and "80x60" in found.says


def test_calibration_check_catches_a_size_mismatch_and_garbage(tmp_path):
    path = tmp_path / "cal.json"
    Calibration((640, 480), ((0, 0), (640, 0), (640, 480)), 30.0).save(path)
    config = config_with(tmp_path, calibration=str(path))
    mismatch = doctor.check_calibration(config, frame_size=(80, 60))
    assert not mismatch.ok and "calibrate again" in mismatch.fix
    fits = doctor.check_calibration(config, frame_size=(640, 480))
    assert fits.ok and "640x480" in fits.says
    path.write_text("garbage")
    assert not doctor.check_calibration(config, frame_size=(640, 480)).ok
    assert doctor.check_calibration(config_with(tmp_path)).ok


def test_calibration_is_checked_against_the_settings_size_only_for_a_live_camera(tmp_path):
    path = tmp_path / "cal.json"
    Calibration((640, 480), ((0, 0), (640, 0), (640, 480)), 30.0).save(path)
    webcam = ApplianceConfig(table=TableConfig(store=str(tmp_path / "bank.sqlite"), calibration=str(path)),
                             camera=CameraConfig(source="webcam", width=1280, height=720))
    assert not doctor.check_calibration(webcam).ok  # no frame came: the size asked for is what it will get
    recorded = doctor.check_calibration(config_with(tmp_path, calibration=str(path)))
    assert recorded.ok and "no frame" in recorded.says  # [camera] width and height do not apply to it


def test_doctor_checks_a_recording_against_its_own_frames_not_the_camera_settings(tmp_path, capsys):
    from types import SimpleNamespace

    from tabletop21.cli import cmd_doctor

    with SessionWriter(tmp_path / "session", Manifest("dicey21", ("a",))) as writer:
        writer.save_frame(Frame(np.zeros((480, 640, 3), np.uint8), 1, 0.0))
    settings = tmp_path / "table.toml"
    settings.write_text(f'[table]\ncalibration = "{tmp_path / "cal.json"}"\nstore = "{tmp_path / "bank.sqlite"}"\n'
                        f'[camera]\nsource = "{tmp_path / "session"}"\nwidth = 80\nheight = 60\n')
    Calibration((640, 480), ((0, 0), (640, 0), (640, 480)), 30.0).save(tmp_path / "cal.json")
    cmd_doctor.run(SimpleNamespace(config=str(settings)))
    out = capsys.readouterr().out
    assert "[ok] calibration" in out and "fits 640x480" in out
    Calibration((800, 600), ((0, 0), (800, 0), (800, 600)), 30.0).save(tmp_path / "cal.json")
    cmd_doctor.run(SimpleNamespace(config=str(settings)))
    assert "[PROBLEM] calibration" in capsys.readouterr().out


def test_store_check(tmp_path):
    assert doctor.check_store(config_with(tmp_path)).ok
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert not doctor.check_store(config_with(tmp_path / "file" / "sub")).ok


def test_gpio_off_is_fine_and_display_dummy_is_a_problem():
    assert doctor.check_gpio(ApplianceConfig()).ok
    assert not doctor.check_display(ApplianceConfig()).ok  # tests run with SDL's dummy driver


def test_a_camera_that_opens_but_sends_nothing_is_closed_again(tmp_path):
    closed = []

    class Silent:
        def read(self):
            raise CameraLost("camera 0 stopped sending frames")

        def close(self):
            closed.append(True)

    finding = doctor.check_camera(config_with(tmp_path), lambda config: Silent())
    assert not finding.ok and "stopped sending" in finding.says and closed == [True]


def test_store_check_reads_the_bankrolls(tmp_path):
    (tmp_path / "bank.sqlite").write_bytes(b"this is not sqlite" * 100)
    garbage = doctor.check_store(config_with(tmp_path))
    assert not garbage.ok and "not a readable bankroll file" in garbage.says


def test_doctor_refuses_the_chips_run_refuses_in_the_same_words(tmp_path, capsys):
    """`doctor` said [ok] to more chips than a bankroll file holds, which `run` then refused."""
    from tabletop21.cli import main

    settings = tmp_path / "table.toml"
    settings.write_text(f'[table]\nchips = 9999999999999999999\nstore = "{tmp_path / "bank.sqlite"}"\n'
                        f'sessions = "{tmp_path / "sessions"}"\n')
    assert main(["doctor", "--config", str(settings)]) == 2
    said = capsys.readouterr().err
    assert main(["run", "--config", str(settings), "--frames", "1"]) == 2
    assert capsys.readouterr().err == said and "[table] chips: " in said
    assert "9999999999999999999 is more chips than a bankroll file holds" in said
    assert not (tmp_path / "bank.sqlite").exists() and not (tmp_path / "sessions").exists()


def test_doctor_and_run_find_the_settings_file_and_say_which(tmp_path, monkeypatch, capsys):
    from tabletop21.cli import main
    from tabletop21.settings import SETTINGS_ENV, find_settings

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv(SETTINGS_ENV, raising=False)
    assert find_settings(None)[0] is None and "built-in defaults" in find_settings(None)[1]
    home_file = tmp_path / "tabletop21" / "table.toml"
    home_file.parent.mkdir()
    home_file.write_text(f'[table]\nstore = "{tmp_path}/bank.sqlite"\n[camera]\nsource = "{tmp_path}/none"\n')
    assert find_settings(None) == (home_file, f"settings: {home_file} (the default place)")
    named = tmp_path / "other.toml"
    named.write_text(home_file.read_text())
    monkeypatch.setenv(SETTINGS_ENV, str(named))
    assert find_settings(None)[0] == named and find_settings("given.toml")[0].name == "given.toml"
    assert main(["doctor"]) == 1  # the camera named there gives no picture
    out = capsys.readouterr().out
    assert out.startswith(f"settings: {named} (${SETTINGS_ENV})") and "camera" in out


def test_a_missing_camera_library_is_not_blamed_on_the_cable(monkeypatch):
    def no_picamera2(name):
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)

    monkeypatch.setattr("hardware.picamera.import_module", no_picamera2)
    config = ApplianceConfig(camera=CameraConfig(source="picamera"))
    found = doctor.check_camera(config, open_source)
    assert not found.ok and "picamera2 is not installed" in found.says
    assert "cable" in found.fix and "not the cause" in found.fix
