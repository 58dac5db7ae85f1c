"""Typing a card or die at the table's keyboard, without losing the SHAKE/NEXT keys."""

import pygame

from display import Display


def post_text(text):
    for char in text:
        if char == " ":
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" "))
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))


def test_typed_entries_and_button_keys_do_not_mix():
    display = Display((800, 480))
    try:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" "))
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=" "))
        assert display.poll() == ["shake"] and display.typing == ""
        post_text("3 7x")
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode=""))
        assert display.poll() == [] and display.typing == "3 7"
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
        assert display.typed() == ["3 7"] and display.typing == ""
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
        assert display.poll() == ["next"] and display.typed() == []
    finally:
        display.close()
