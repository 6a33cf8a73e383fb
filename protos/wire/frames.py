"""Stream messages put together from events already serialised (the server keeps each event as the bytes it
stored): a change's batch is framed once for each audience and written as those bytes to every stream of it.

Protobuf's encoding makes this exact: an ``EventBatch`` is its events each framed as field 1, and the batch
framed as field 2 is a whole ``SubscribeResponse`` and a whole ``PlayResponse`` (both keep ``events`` at 2).
Messages concatenated are one message with their repeated fields joined, so a batch followed by a
``PlayResponse`` holding results is one ``PlayResponse`` with both.
"""

from __future__ import annotations

from collections.abc import Sequence

from tenpennies.v1 import tenpennies_pb2 as pb

_EVENT = b"\x0a"  # EventBatch.events: field 1, length-delimited
_BATCH = b"\x12"  # SubscribeResponse.events and PlayResponse.events: field 2, length-delimited


def _varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def event_batch(events: Sequence[bytes]) -> bytes:
    """The bytes of a ``SubscribeResponse`` (and of a ``PlayResponse``) carrying these serialised events, in
    order, as its batch; b"" for none."""
    if not events:
        return b""
    batch = b"".join(_EVENT + _varint(len(event)) + event for event in events)
    return _BATCH + _varint(len(batch)) + batch


def batch_events(data: bytes) -> list[pb.Event]:
    """The events of a batch made by ``event_batch`` (tests, and anyone reading one in-process)."""
    return list(pb.SubscribeResponse.FromString(data).events.events)
