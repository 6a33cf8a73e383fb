"""The wire: the protobuf contract's stubs (``tenpennies.v2``), the one two-way mapping between the engine
and protobuf (each game's module, ``games``), and what server and client both need to find and trust each other
(``common``). It imports the engine and nothing above it; server and client both import it."""
