"""The display in the appliance's main loop.

The camera loop must never wait on the screen, so `show` only draws and flips one
frame and returns; it never sleeps or blocks on input. Button presses from the
screen (touch, mouse, keys) are gathered while drawing and handed out by `poll`.
A typical loop, once per camera frame:

    display = Display((800, 480), fullscreen=True)
    while running:
        frame = camera.latest()            # never blocks
        for button in display.poll():      # "shake", "next", "quit"
            driver.press(button)
        display.show(driver.view(), frame)
"""

from __future__ import annotations

import time
from collections import deque

import numpy as np
import pygame

from display.buttons import button_for_event, tap_point
from display.render import draw_view
from display.teach import CheckLayout, CheckScreen, draw_check, target_at
from table.view import TableView

SCREEN_TAP = "screen"  # a tap off the buttons on a table screen (the check screen names what it touched)


class Display:
    def __init__(self, size: tuple[int, int], fullscreen: bool = False) -> None:
        pygame.display.init()
        pygame.font.init()
        pygame.display.set_caption("tabletop21")
        self.surface = pygame.display.set_mode(size, pygame.FULLSCREEN if fullscreen else 0)
        self.size = self.surface.get_size()
        self._pressed: list[str] = []
        self._typing = ""  # a card, d10 or tile being typed, for tables that type them
        self._entries: list[str] = []
        pygame.key.start_text_input()
        self._scene: tuple[str, str, int] | None = None
        self._scene_start = time.monotonic()
        self._check: CheckLayout | None = None  # where the check screen on show put its dice and targets
        self._touched: deque[str] = deque(maxlen=16)  # taps off the buttons; nobody may ask for them

    def show(self, view: TableView, frame: np.ndarray | None = None) -> None:
        """Draw one frame and flip. Animations restart whenever the screen kind,
        game or round changes, so results always count up from zero."""
        scene = (view.game_id, view.screen, view.round_no)
        now = time.monotonic()
        if scene != self._scene:
            self._scene, self._scene_start = scene, now
        draw_view(self.surface, view, frame, now - self._scene_start)
        self._check = None
        pygame.display.flip()
        self._gather()

    def show_check(self, screen: CheckScreen, frame: np.ndarray | None = None) -> None:
        """Draw the screen that confirms or corrects a read's dice (display.teach) and flip;
        taps on it are then said as what they touched (`touched`)."""
        self._check, _ = draw_check(self.surface, screen, frame)
        pygame.display.flip()
        self._gather()

    def poll(self) -> list[str]:
        """Button names pressed since the last poll, oldest first."""
        self._gather()
        pressed, self._pressed = self._pressed, []
        return pressed

    def touched(self) -> list[str]:
        """Taps off the two buttons since the last call, oldest first: on the check screen
        what each touched ("die:N" from 0, or a target's word such as "keep" or a value
        picker's "pick:Q"), elsewhere "screen"."""
        self._gather()
        touched = list(self._touched)
        self._touched.clear()
        return touched

    def typed(self) -> list[str]:
        """Entries finished with Enter since the last call ("QS", "3 7", "2-5")."""
        self._gather()
        entries, self._entries = self._entries, []
        return entries

    @property
    def typing(self) -> str:
        """What is being typed right now, for the prompt to echo."""
        return self._typing

    def close(self) -> None:
        pygame.display.quit()

    def _gather(self) -> None:
        """While something is being typed, space and Enter belong to the typing; with
        nothing typed they are the SHAKE and NEXT keys as usual."""
        for event in pygame.event.get():
            if event.type == pygame.TEXTINPUT:
                if event.text.strip() or self._typing:
                    self._typing += event.text
                continue
            if event.type == pygame.KEYDOWN and self._typing:
                if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                    self._entries.append(self._typing.strip())
                    self._typing = ""
                elif event.key == pygame.K_BACKSPACE:
                    self._typing = self._typing[:-1]
                elif event.key == pygame.K_ESCAPE:
                    self._typing = ""
                continue
            name = button_for_event(event, self.size)
            if name is not None:
                self._pressed.append(name)
                continue
            point = tap_point(event, self.size)
            if point is not None:
                target = SCREEN_TAP if self._check is None else target_at(self._check, point)
                if target is not None:
                    self._touched.append(target)
