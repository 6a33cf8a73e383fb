"""A complete Ten Pennies bot: ``python min_bot.py HOST:PORT [TABLE_ID]``. With a table id it joins that
table (its host starts the game); without, it makes a table, seats three built-in bots and starts it.
The same class plays in-process (``engine.play.play_game``) and as ``tenpennies bot --script min_bot.py``."""
import asyncio
import sys

from tenpennies.client.bot import play_seat
from tenpennies.client.connection import Connection
from tenpennies.engine.ten_pennies import Buy, Command, Discard, LayContract, LayOff, LaySet, SeatView, TakeDiscard


class Bot:
    def choose(self, view: SeatView) -> Command:
        """Meld when it can, take a discard that pairs, never buy, discard its highest lone card."""
        for kind in (LayContract, LaySet, LayOff):
            melds = [c for c in view.legal if isinstance(c, kind)]
            if melds:
                return melds[0]
        take, top = [c for c in view.legal if isinstance(c, TakeDiscard)], view.discard_top
        if take and top is not None and any(card.rank == top.rank for card in view.hand):
            return take[0]
        discards = [c for c in view.legal if isinstance(c, Discard)]
        if discards:
            lone = {c.card.id: sum(card.rank == c.card.rank for card in view.hand) == 1 for c in discards}
            return max(discards, key=lambda c: (lone[c.card.id], c.card.points, c.card.id))
        return next(c for c in view.legal if not isinstance(c, TakeDiscard | Buy))  # decline, pass, draw


async def main(address: str, table_id: str | None) -> None:
    connection = Connection(address)
    try:
        if table_id is None:
            table = await connection.create_table("min bot", seats=4, decision_seconds=10)
            for _ in range(3):
                await connection.add_bot(table.table_id, table.host_token, "greedy")
            session = await connection.join(table.table_id, "min bot")
            await connection.start(table.table_id, table.host_token)
        else:
            session = await connection.join(table_id, "min bot")
        print(f"playing seat {session.seat} of table {session.table_id}", flush=True)
        end = await play_seat(Bot(), session)
        if end is not None:
            print(f"scores {list(end.scores)}, winners {list(end.winners)}", flush=True)
    finally:
        await connection.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
