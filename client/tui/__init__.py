"""The Textual terminal client: the lobby, the table and their screens. Its frame rate (``TEXTUAL_FPS``) is set
by the command that starts it, before Textual is imported (``client.cli.FRAMES_PER_SECOND``)."""
