"""Stream messages put together from events already serialised (the server keeps each event as the bytes it
stored): a change's batch is framed once for each audience and written as those bytes to every stream of it.

Protobuf's encoding makes this exact: an ``EventBatch`` is its events each framed as field 1, and the batch
framed as field 2 is a whole ``SubscribeResponse`` and a whole ``PlayResponse`` (both keep ``events`` at 2).

Every gRPC message is one protobuf encoding with each singular field at most once: several batches waiting
for one stream are joined into one (``joined``), never written back to back, so that no reader needs
protobuf's merging of a repeated singular field (protobufjs, for one, keeps only the last).
"""

from __future__ import annotations

from collections.abc import Sequence

from tenpennies.v2 import tenpennies_pb2 as pb

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


def _length(data: bytes, at: int) -> tuple[int, int]:
    """The varint at ``at``, and where what follows it begins."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def _body(batch: bytes) -> bytes:
    """The framed events of a batch made by ``event_batch`` (its ``EventBatch``'s bytes)."""
    assert batch[:1] == _BATCH, "not a batch made by event_batch"
    length, start = _length(batch, 1)
    assert start + length == len(batch), "a batch is one field"
    return batch[start:]


def joined(batches: Sequence[bytes], results: Sequence[pb.PlayResult] = ()) -> bytes:
    """One stream message holding the events of ``batches`` (each made by ``event_batch``), in order, as one
    batch, then ``results`` (a Play stream's command results, after the events they caused)."""
    if len(batches) == 1:
        data = batches[0]
    else:
        body = b"".join(_body(batch) for batch in batches if batch)
        data = _BATCH + _varint(len(body)) + body if body else b""
    if results:
        data += pb.PlayResponse(results=results).SerializeToString()
    return data


MESSAGE_BYTES = 1 << 20
"""What a stream message holding several changes' batches joined comes to at most (one change's batch, whatever
its size, is never split): well under gRPC's usual 4 MiB limit on a message received."""


def messages(batches: Sequence[bytes], results: Sequence[pb.PlayResult] = (),
             limit: int = MESSAGE_BYTES) -> list[bytes]:
    """The stream messages that carry ``batches`` (each made by ``event_batch``), in order, and then ``results``:
    as few as hold at most ``limit`` bytes each, each one batch (``joined``); the results go with the last."""
    groups: list[list[bytes]] = [[]]
    size = 0
    for batch in batches:
        if groups[-1] and size + len(batch) > limit:
            groups.append([])
            size = 0
        groups[-1].append(batch)
        size += len(batch)
    return [joined(group, results if last else ()) for last, group in
            ((n == len(groups) - 1, group) for n, group in enumerate(groups))]


def batch_events(data: bytes) -> list[pb.Event]:
    """The events of a batch made by ``event_batch`` (tests, and anyone reading one in-process)."""
    return list(pb.SubscribeResponse.FromString(data).events.events)
