"""Finding the play area (dice tray floor, felt, or a plain table zone) in a frame of
the table, so the appliance can be calibrated from one picture with no clicking.

The area is taken to be the surface under the middle of the view: the largest
region of that colour connected to the centre, with the dice on it filled in and
its outline simplified to a polygon. A tray's walls and the world outside it
differ in colour or are cut off by the rim's shadow, so they stay out."""

from __future__ import annotations

import cv2
import numpy as np

from vision.calibration import Calibration, die_bounds
from vision.image_io import NotAnImage, checked_bgr

WORK_SIZE = 160  # the search runs at this width; the outline is scaled back up
MEDIAN_WIDTH = 9  # pixels of the search: wider than a die, so the dice vanish
FLOOD_STEP = 2  # largest colour step between neighbouring pixels of one surface
COLOUR_TOLERANCE = 28  # and never further than this from the colour under the middle
MARGIN_FRACTION = 0.06  # about one die width in a typical overhead view
MIN_AREA_FRACTION = 0.05  # a smaller region means the middle of the view is not the surface


def play_area_polygon(frame_bgr: np.ndarray) -> np.ndarray:
    """(k, 2) float32 clockwise polygon of the play area, in frame pixels. Raises
    NotAnImage for what is not a frame of the table."""
    h, w = checked_bgr(frame_bgr).shape[:2]
    scale = WORK_SIZE / float(max(h, w))
    size = (round(w * scale), round(h * scale))
    if min(size) < MEDIAN_WIDTH:
        # A 3000x16 picture was one row high at the search's size and crashed it, and
        # 3000x40 gave a polygon with no inside.
        raise NotAnImage(f"a {w}x{h} picture is more than about {WORK_SIZE / MEDIAN_WIDTH:.0f} times as long "
                         "as it is wide")
    small = cv2.resize(frame_bgr, size, interpolation=cv2.INTER_AREA)
    # A median wider than a die wipes the dice out; the flood fill then follows the
    # surface through gentle light gradients and stops at walls and rims.
    smooth = cv2.medianBlur(cv2.GaussianBlur(small, (3, 3), 0), MEDIAN_WIDTH)
    sh, sw = smooth.shape[:2]
    # Start from the pixel of the middle third closest to its median colour: the
    # exact centre may be a die or its shadow.
    middle = smooth[sh // 3: 2 * sh // 3, sw // 3: 2 * sw // 3].astype(np.int16)
    surface = np.median(middle.reshape(-1, 3), axis=0).astype(np.int16)
    off_y, off_x = np.unravel_index(np.argmin(np.abs(middle - surface).max(axis=2)), middle.shape[:2])
    region = np.zeros((sh + 2, sw + 2), np.uint8)
    step = (FLOOD_STEP,) * 3
    cv2.floodFill(smooth, region, (int(sw // 3 + off_x), int(sh // 3 + off_y)), 0, step, step,
                  4 | cv2.FLOODFILL_MASK_ONLY | (255 << 8))
    # ...but not across a long, slow drift into another surface.
    near = np.abs(smooth.astype(np.int16) - surface).max(axis=2) <= COLOUR_TOLERANCE
    region = region[1:-1, 1:-1] & (near.astype(np.uint8) * 255)
    region = cv2.morphologyEx(region, cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9)))
    if cv2.countNonZero(region) < MIN_AREA_FRACTION * sh * sw:
        return np.array([(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)], np.float32)
    # Dice crowding a wall hide the floor next to it; a die-wide margin gives them back.
    margin = max(3, int(round(MARGIN_FRACTION * sw))) | 1
    region = cv2.dilate(region, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (margin, margin)))
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    poly = cv2.approxPolyDP(hull, 0.01 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float32)
    poly = (poly + 0.5) / scale - 0.5
    poly[:, 0] = np.clip(poly[:, 0], 0, w - 1)
    poly[:, 1] = np.clip(poly[:, 1], 0, h - 1)
    # Clockwise in image coordinates (y down) means positive shoelace area.
    area = np.sum(poly[:, 0] * np.roll(poly[:, 1], -1) - np.roll(poly[:, 0], -1) * poly[:, 1])
    return poly if area > 0 else poly[::-1]


def typical_die_face(frame_bgr: np.ndarray, calibration: Calibration) -> tuple[float | None, str]:
    """Median top-face side of the dice read in the frame, or None and why not. Only
    die-sized reads count: a reader refusing the whole view (too grainy, the table
    not told from what lies on it) reports one Unreadable the size of the frame,
    which once made a 640-pixel frame's die 406 pixels."""
    from vision.dice import read_dice  # local: play-area finding must not need the model

    read = read_dice(frame_bgr, calibration)
    low, high = die_bounds(calibration.frame_size)
    faces = [_face(box) for box in [d.box for d in read.dice] + [u.box for u in read.unreadable if u.box]]
    dice = [face for face in faces if low <= face <= high]
    if dice:
        return float(np.median(dice)), ""
    refused = [u.reason for u in read.unreadable if u.box and not low <= _face(u.box) <= high]
    return None, (f"the dice reader refused the view: {refused[0]}" if refused else "no dice in the picture")


def _face(box: tuple[float, float, float, float]) -> float:
    # Boxes of rotated squares are up to 1.41x the side; the face is ~0.8 of the die
    # including its visible walls. Both are averaged over many dice by the median.
    return (box[2] - box[0] + box[3] - box[1]) / 2 / 1.37 * 0.87


def calibrate(frame_bgr: np.ndarray, die_px: float | None = None) -> Calibration:
    """A Calibration from one frame of the table (empty, or with a few dice on it to
    measure their size when `die_px` is not given). Raises NotAnImage, as the readers
    do, for anything that is not a frame of at least 16x16 (a 3-pixel strip crashed
    deep in the flood fill) or is a long narrow strip, and BadCalibration for a
    `die_px` that does not fit it."""
    return calibrate_and_say(frame_bgr, die_px)[0]


def calibrate_and_say(frame_bgr: np.ndarray, die_px: float | None = None) -> tuple[Calibration, str]:
    """calibrate(), and why the die size is unknown ("" when it is known), for a person
    who has to decide whether to give it by hand or take another picture."""
    area = tuple((round(float(x), 1), round(float(y), 1)) for x, y in play_area_polygon(frame_bgr))
    h, w = frame_bgr.shape[:2]
    calibration = Calibration(frame_size=(w, h), area=area, die_px=die_px)
    if die_px is not None:
        return calibration, ""
    measured, why_not = typical_die_face(frame_bgr, calibration)
    if measured is None:
        return calibration, why_not
    return Calibration(frame_size=(w, h), area=area, die_px=round(measured, 1)), ""
