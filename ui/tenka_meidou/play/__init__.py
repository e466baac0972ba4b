"""Tenka Meidou's play screen split by phase: :class:`~.screen.PlayScreen` picks the panel
(:mod:`.daimyo`, :mod:`.turn_menu`, :mod:`.dice`, :mod:`.placement`, :mod:`.cards`; the War and
the score are :mod:`ui.tenka_meidou.war_screen`); :mod:`.state` is what they share."""

from ui.tenka_meidou.play.screen import PlayScreen
from ui.tenka_meidou.play.state import PlayState, Turn

__all__ = ["PlayScreen", "PlayState", "Turn"]
