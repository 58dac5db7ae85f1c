"""Frame sources: a real OpenCV VideoCapture on a video file, the picamera2 adapter
against picamera2's documented calls, and camera loss with reconnection."""

import sys
import types
from concurrent.futures import CancelledError

import cv2
import numpy as np
import pytest

from hardware.frames import CameraLost, Frame, ReconnectingSource
from hardware.webcam import WebcamSource


def test_webcam_source_reads_a_video_file_and_reports_its_end(tmp_path):
    path = str(tmp_path / "clip.avi")
    writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for shade in (40, 120, 200):
        writer.write(np.full((48, 64, 3), shade, np.uint8))
    writer.release()
    source = WebcamSource(path, size=None)
    shades = [int(source.read().image.mean()) for _ in range(3)]
    assert shades[0] < shades[1] < shades[2]
    with pytest.raises(CameraLost, match="stopped sending"):
        source.read()
    source.close()


def test_missing_webcam_is_a_clear_error(tmp_path):
    with pytest.raises(CameraLost, match="cannot open"):
        WebcamSource(str(tmp_path / "nothing.avi"))


class _FailingCapture:
    """cv2.VideoCapture whose backend raises cv2.error, as some do on a device that
    went away mid-stream (or one they cannot open at all)."""

    def __init__(self, device, *, fail_at=("read",)):
        self.fail_at = fail_at
        self._fail("open")

    def _fail(self, step):
        if step in self.fail_at:
            raise cv2.error(f"OpenCV(4.9.0) cap.cpp:1: error: (-2:Unspecified error) {step} failed")

    def isOpened(self):
        return True

    def set(self, prop, value):
        return True

    def read(self):
        self._fail("read")
        return True, np.zeros((24, 32, 3), np.uint8)

    def release(self):
        self._fail("release")


@pytest.mark.parametrize("step, words", [
    ("open", "cannot open camera 2: OpenCV"),
    ("read", "camera 2 failed: OpenCV"),
])
def test_opencv_errors_from_a_webcam_are_a_lost_camera(monkeypatch, step, words):
    made = []

    def opening(*fail_at):
        def capture(device):
            made.append(_FailingCapture(device, fail_at=fail_at))
            return made[-1]
        return capture

    monkeypatch.setattr(cv2, "VideoCapture", opening(step, "release"))
    now = [0.0]
    source = ReconnectingSource(lambda: WebcamSource(2), clock=lambda: now[0])
    with pytest.raises(CameraLost, match=words):
        source.read()
    monkeypatch.setattr(cv2, "VideoCapture", opening())
    now[0] = 1.0
    assert source.read().index == 1, "reopened once the camera answers again"
    made[-1].fail_at = ("release",)
    source.close()  # a backend failing as the run ends is no traceback
    camera = WebcamSource(2)
    made[-1].fail_at = ("release",)
    with pytest.raises(CameraLost, match="camera 2 did not close: OpenCV"):
        camera.close()


class _DocumentedPicamera2:
    """Only the calls picamera2's manual documents for a video stream into numpy."""

    calls: list = []

    def __init__(self, camera_num=0):
        self.calls.append(("init", camera_num))

    def create_video_configuration(self, main):
        self.calls.append(("config", main))
        return {"main": main}

    def configure(self, config):
        self.calls.append(("configure", config))

    def start(self):
        self.calls.append(("start",))

    def capture_array(self, name="main"):
        """RGB888 is documented as B, G, R bytes per pixel: blue 10, green 20, red 30."""
        width, height = self.calls[1][1]["size"]
        image = np.empty((height, width, 3), np.uint8)
        image[:] = (10, 20, 30)
        return image

    def stop(self):
        self.calls.append(("stop",))

    def close(self):
        self.calls.append(("close",))


def test_picamera_adapter_uses_the_documented_api(monkeypatch):
    _DocumentedPicamera2.calls = []
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=_DocumentedPicamera2))
    from hardware.picamera import PiCameraSource

    source = PiCameraSource(size=(320, 240))
    frame = source.read()
    assert frame.image.shape == (240, 320, 3) and frame.index == 1
    assert tuple(frame.image[0, 0]) == (10, 20, 30), "RGB888's B, G, R bytes are OpenCV's BGR: no swap"
    source.close()
    kinds = [call[0] for call in _DocumentedPicamera2.calls]
    assert kinds == ["init", "config", "configure", "start", "stop", "close"]
    assert _DocumentedPicamera2.calls[1][1] == {"size": (320, 240), "format": "RGB888"}


def test_the_pi_camera_is_released_when_starting_or_stopping_fails(monkeypatch):
    class Busy(_DocumentedPicamera2):
        def start(self):
            raise RuntimeError("Failed to start camera: Device or resource busy")

    class Stuck(_DocumentedPicamera2):
        def stop(self):
            raise RuntimeError("stop failed")

    from hardware.picamera import PiCameraSource

    _DocumentedPicamera2.calls = []
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=Busy))
    with pytest.raises(CameraLost, match="did not start: .*busy"):
        PiCameraSource(size=(32, 24))
    assert _DocumentedPicamera2.calls[-1] == ("close",)
    _DocumentedPicamera2.calls = []
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=Stuck))
    source = PiCameraSource(size=(32, 24))
    with pytest.raises(CameraLost, match="Pi camera 0 did not close: stop failed"):
        source.close()
    assert _DocumentedPicamera2.calls[-1] == ("close",)
    # At the end of a run, the camera's own failure to stop is no traceback: the
    # camera is released all the same, and the process is ending.
    _DocumentedPicamera2.calls = []
    reconnecting = ReconnectingSource(lambda: PiCameraSource(size=(32, 24)))
    reconnecting.read()
    reconnecting.close()
    assert _DocumentedPicamera2.calls[-1] == ("close",)


@pytest.mark.parametrize("failure", [
    RuntimeError("Camera frontend has timed out!"),
    # picamera2's capture_array hands over whatever failed in its camera thread (its
    # Job sets the exception on a Future), and a cancelled job raises CancelledError.
    ValueError("cannot reshape array of size 0 into shape (24,32,3)"),
    CancelledError(),
])
def test_a_failing_pi_camera_is_a_lost_camera_that_is_reopened(monkeypatch, failure):
    class Failing(_DocumentedPicamera2):
        def capture_array(self, name="main"):
            if len([call for call in self.calls if call[0] == "init"]) == 1:
                raise failure
            return super().capture_array(name)

    _DocumentedPicamera2.calls = []
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=Failing))
    from hardware.picamera import PiCameraSource

    now = [0.0]
    source = ReconnectingSource(lambda: PiCameraSource(size=(32, 24), camera_num=1), clock=lambda: now[0])
    with pytest.raises(CameraLost, match="Pi camera 1 stopped"):
        source.read()
    assert _DocumentedPicamera2.calls[-1] == ("close",), "the failed camera is released before it is reopened"
    now[0] = 1.0
    assert source.read().index == 1


def test_importing_the_picamera_module_does_not_need_picamera2(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import of it now fails
    from hardware.picamera import PiCameraSource

    with pytest.raises(CameraLost, match="picamera2 is not installed: .*apt install python3-picamera2.*"
                                         "--system-site-packages"):
        PiCameraSource()


def test_picamera2_without_libcamera_says_the_venv_needs_the_systems_packages(monkeypatch, tmp_path):
    """What a venv made without --system-site-packages gives after `pip install '.[pi]'`:
    picamera2 is there, libcamera's bindings (from apt only) are not. It was reported
    as "picamera2 is not installed", with pip as a fix."""
    (tmp_path / "picamera2.py").write_text("import libcamera\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.setitem(sys.modules, "libcamera", None)  # import of it now fails, as in such a venv
    from hardware.picamera import PiCameraSource

    with pytest.raises(CameraLost) as lost:
        PiCameraSource()
    said = str(lost.value)
    assert "cannot load libcamera's Python bindings (no module 'libcamera'); pip cannot install them" in said
    assert "python3-libcamera" in said and "--system-site-packages" in said and "not installed" not in said


def test_a_lost_camera_is_reported_then_reopened():
    opened = []

    class Flaky:
        def __init__(self):
            opened.append(self)
            self.reads = 0

        def read(self):
            self.reads += 1
            if len(opened) == 1 and self.reads == 2:
                raise CameraLost("unplugged")
            return Frame(np.zeros((2, 2, 3), np.uint8), self.reads, 0.0)

        def close(self):
            pass

    now = [0.0]
    source = ReconnectingSource(Flaky, clock=lambda: now[0])
    assert source.read().index == 1
    with pytest.raises(CameraLost, match="unplugged"):
        source.read()
    assert source.lost_since == 0.0
    with pytest.raises(CameraLost, match="unplugged"):  # within the pause: no attempt, no wait
        source.read()
    assert len(opened) == 1
    now[0] = 0.25
    assert source.read().index == 1 and len(opened) == 2
    assert source.lost_since is None


def test_a_recorded_session_as_the_camera_ends_rather_than_starting_over():
    """Its end was a lost camera, so ReconnectingSource reopened it and the frames
    began again, with earlier times, for ever."""
    from pathlib import Path

    from tabletop21.devices import open_source
    from tabletop21.recording import EndOfRecording, SessionReader
    from tabletop21.settings import ApplianceConfig, CameraConfig

    session = Path(__file__).resolve().parents[1] / "calibration_images" / "sessions" / "dice-blackjack"
    config = ApplianceConfig(camera=CameraConfig(source=str(session)))
    now = [0.0]
    source = ReconnectingSource(lambda: open_source(config), clock=lambda: now[0])
    recorded = [event.data["index"] for event in SessionReader(session).of_kind("frame")]
    assert [source.read().index for _ in recorded] == recorded
    for _ in range(2):
        now[0] += 10.0  # long past any pause before a reopening
        with pytest.raises(EndOfRecording, match="dice-blackjack has no more frames") as ended:
            source.read()
        assert not isinstance(ended.value, CameraLost)
    source.close()
