"""The Textual terminal client: the lobby, the table and their screens.

Textual composes a screen's changes at the next tick of the screen's frame timer, ``TEXTUAL_FPS`` ticks a
second (Textual's own setting, read once, as Textual is imported; 60 unless set). The client's default is
``FRAMES_PER_SECOND``: a change that needs a layout and then a second frame (a game's first hand, a seat that
joins) waited a whole 60th of a second more for it, and a table following a bots' game at full speed half a
60th on average for each of its frames. The timer ticks only while a screen has something to draw: an idle
table wakes nobody. Set here, before any module of this package imports Textual (``tenpennies play`` imports
this package first); a ``TEXTUAL_FPS`` of the user's own is kept.
"""

import os

FRAMES_PER_SECOND = 240

os.environ.setdefault("TEXTUAL_FPS", str(FRAMES_PER_SECOND))
