"""The table display: draws a `table.view.TableView` with pygame and turns taps,
clicks and keys into the two button names. See docs/display.md."""

from display.buttons import NEXT, QUIT, SHAKE, button_for_event, button_rects
from display.live import Display
from display.render import draw_view, render_screen, save_png

__all__ = ["Display", "render_screen", "save_png", "draw_view", "button_for_event", "button_rects", "SHAKE", "NEXT", "QUIT"]
