"""The Textual terminal client: the lobby, the table and their screens."""
