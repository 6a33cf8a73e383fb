"""A client's connection to a Ten Pennies server: the channel, the stub, and one seat's session.

Everything a terminal client or a remote bot needs goes through here, so neither knows gRPC.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from dataclasses import dataclass
from pathlib import Path

import grpc

from tenpennies.v1 import tenpennies_pb2 as pb
from tenpennies.v1 import tenpennies_pb2_grpc as pb_grpc


def open_channel(address: str, tls_ca: str | None = None) -> grpc.aio.Channel:
    """A channel to ``address`` (host:port); with ``tls_ca`` (a PEM file), over TLS trusting that CA."""
    if tls_ca:
        return grpc.aio.secure_channel(address, grpc.ssl_channel_credentials(Path(tls_ca).read_bytes()))
    return grpc.aio.insecure_channel(address)


def stub(channel: grpc.aio.Channel) -> pb_grpc.TenPenniesServiceStub:
    return pb_grpc.TenPenniesServiceStub(channel)


@dataclass
class SeatSession:
    """One seat at one table: the token, and the last sequence number seen (to resume from)."""

    service: pb_grpc.TenPenniesServiceStub
    table_id: str
    seat: int | None
    token: str = ""
    last_sequence: int | None = None

    async def send(self, command: pb.Command) -> int:
        response: pb.SendCommandResponse = await self.service.SendCommand(
            pb.SendCommandRequest(table_id=self.table_id, token=self.token, command=command))
        return response.sequence

    async def snapshot(self) -> pb.Snapshot:
        response: pb.GetSnapshotResponse = await self.service.GetSnapshot(
            pb.GetSnapshotRequest(table_id=self.table_id, token=self.token))
        return response.snapshot

    async def chat(self, text: str, name: str = "") -> int:
        response: pb.SendChatResponse = await self.service.SendChat(
            pb.SendChatRequest(table_id=self.table_id, token=self.token, text=text, name=name))
        return response.sequence

    async def stream(self) -> AsyncGenerator[pb.Snapshot | pb.Event, None]:
        """The seat's stream: a snapshot, then events one by one. It resumes after ``last_sequence`` when
        that is set, and keeps it up to date as events come."""
        request = pb.SubscribeRequest(table_id=self.table_id, token=self.token)
        if self.last_sequence is not None:
            request.from_sequence = self.last_sequence
        call = self.service.Subscribe(request)
        try:
            async for message in call:
                if message.HasField("snapshot"):
                    if self.last_sequence is None:
                        self.last_sequence = message.snapshot.sequence
                    yield message.snapshot
                    continue
                for event in message.events.events:
                    self.last_sequence = max(self.last_sequence or 0, event.sequence)
                    yield event
        finally:
            call.cancel()  # a stream left early ends on the server at once, not when it is collected


async def join(service: pb_grpc.TenPenniesServiceStub, table_id: str, name: str,
               seat: int | None = None) -> SeatSession:
    request = pb.JoinTableRequest(table_id=table_id, name=name)
    if seat is not None:
        request.seat = seat
    response: pb.JoinTableResponse = await service.JoinTable(request)
    return SeatSession(service, table_id, response.seat, response.token)
