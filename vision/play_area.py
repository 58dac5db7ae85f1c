"""Finding the play area (dice tray floor, felt, or a plain table zone) in a frame of
the table, so the appliance can be calibrated from one picture with no clicking.

The area is taken to be the surface under the middle of the view: the largest
region of that colour connected to the centre, with the dice on it filled in and
its outline simplified to a polygon. A tray's walls and the world outside it
differ in colour or are cut off by the rim's shadow, so they stay out. Calibrating
then takes in the dice that polygon cuts, which hid the floor under them."""

from __future__ import annotations

import cv2
import numpy as np

from table.reads import Box, TableRead
from vision.calibration import Calibration, die_bounds
from vision.image_io import NotAnImage, checked_bgr

WORK_SIZE = 160  # the search runs at this width; the outline is scaled back up
MEDIAN_WIDTH = 9  # pixels of the search: wider than a die, so the dice vanish
FLOOD_STEP = 2  # largest colour step between neighbouring pixels of one surface
COLOUR_TOLERANCE = 28  # and never further than this from the colour under the middle
MARGIN_FRACTION = 0.06  # about one die width in a typical overhead view
MIN_AREA_FRACTION = 0.05  # a smaller region means the middle of the view is not the surface
DIE_PAD = 0.25  # of a die, around a die the area is grown to hold: the next one there lies a little apart


def play_area_polygon(frame_bgr: np.ndarray) -> np.ndarray:
    """(k, 2) float32 clockwise polygon of the play area, in frame pixels. Raises
    NotAnImage for what is not a frame of the table."""
    h, w = checked_bgr(frame_bgr).shape[:2]
    scale = WORK_SIZE / float(max(h, w))
    size = (round(w * scale), round(h * scale))
    if min(size) < MEDIAN_WIDTH:
        # So thin a picture is a row or two high at the search's size, where the search
        # crashes or finds a polygon with no inside.
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
    # A die-wide kernel: half a die each way (a wider one takes in a tray's rim). The
    # dice crowding a wall, which hide the floor there, calibrate() takes in.
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


def _die_boxes(read: TableRead, frame_size: tuple[int, int]) -> tuple[list[Box], str]:
    """Boxes of the dice read or refused one by one, and the reader's refusal of the
    view as a whole ("" if none): that one is an Unreadable the size of the frame, no
    die, and measured as one it would make the die as big as the frame."""
    low, high = die_bounds(frame_size)
    boxes = [d.box for d in read.dice] + [u.box for u in read.unreadable if u.box]
    refused = [u.reason for u in read.unreadable if u.box and not low <= _face(u.box) <= high]
    return [box for box in boxes if low <= _face(box) <= high], refused[0] if refused else ""


def _face(box: Box) -> float:
    # Boxes of rotated squares are up to 1.41x the side; the face is ~0.8 of the die
    # including its visible walls. Both are averaged over many dice by the median.
    return (box[2] - box[0] + box[3] - box[1]) / 2 / 1.37 * 0.87


def _over_dice(polygon: np.ndarray, boxes: list[Box], frame_size: tuple[int, int]) -> np.ndarray:
    """The polygon grown to hold every die it cuts, with DIE_PAD around it, until it
    cuts none: the floor goes on under dice crowding a wall, where the search saw
    only dice (without this, the area cut through many dice on real tray photos). A
    die wholly outside, beyond the tray, stays out."""
    taken: set[int] = set()
    while True:
        contour = polygon.reshape(-1, 1, 2).astype(np.float32)
        cut = [i for i, box in enumerate(boxes) if i not in taken and any(
            cv2.pointPolygonTest(contour, point, False) >= 0 for point in _corners(box, 0.0))]
        if not cut:
            return polygon
        taken.update(cut)
        points = np.concatenate([polygon, *(np.array(_corners(boxes[i], DIE_PAD), np.float32) for i in cut)])
        polygon = cv2.convexHull(points).reshape(-1, 2)
        polygon[:, 0] = np.clip(polygon[:, 0], 0, frame_size[0] - 1)
        polygon[:, 1] = np.clip(polygon[:, 1], 0, frame_size[1] - 1)


def _corners(box: Box, pad: float) -> list[tuple[float, float]]:
    """The box's corners, `pad` of its width out, and its centre."""
    x0, y0, x1, y1 = box
    p = pad * (x1 - x0)
    return [(x0 - p, y0 - p), (x1 + p, y0 - p), (x1 + p, y1 + p), (x0 - p, y1 + p), ((x0 + x1) / 2, (y0 + y1) / 2)]


def calibrate(frame_bgr: np.ndarray, die_px: float | None = None) -> Calibration:
    """A Calibration from one frame of the table (empty, or with a few dice on it to
    measure their size when `die_px` is not given). Raises NotAnImage, as the readers
    do, for anything that is not a frame of at least 16x16 (a 3-pixel strip crashed
    deep in the flood fill) or is a long narrow strip, and BadCalibration for a
    `die_px` that does not fit it."""
    return calibrate_and_say(frame_bgr, die_px)[0]


def calibrate_and_say(frame_bgr: np.ndarray, die_px: float | None = None) -> tuple[Calibration, str]:
    """calibrate(), and why the die size is unknown ("" when it is known), for a person
    who has to decide whether to give it by hand or take another picture. The dice
    in the frame widen the play area over those its edge cuts, and give their size."""
    from vision.dice import read_dice  # local: play-area finding must not need the model

    polygon = play_area_polygon(frame_bgr)
    frame_size = (frame_bgr.shape[1], frame_bgr.shape[0])
    boxes, refusal = _die_boxes(read_dice(frame_bgr), frame_size)
    area = tuple((round(float(x), 1), round(float(y), 1)) for x, y in _over_dice(polygon, boxes, frame_size))
    calibration = Calibration(frame_size, area, die_px)
    if die_px is not None:
        return calibration, ""
    faces = [_face(box) for box in boxes if calibration.contains(_corners(box, 0.0)[-1])]
    if not faces:
        return calibration, f"the dice reader refused the view: {refusal}" if refusal else "no dice in the picture"
    return Calibration(frame_size, area, round(float(np.median(faces)), 1)), ""
