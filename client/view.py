"""One seat's (or a spectator's) picture of a table, folded from its stream: a snapshot, then events.

The terminal client and remote bots read the game through ``TableView.view``, an engine ``SeatView``
(the same value the engine's own bots play from), kept up to date event by event. Nothing here asks
the engine what is legal: the legal commands are the server's (the snapshot's, then each private
``DecisionRequest``). The wire and the engine meet in one place, ``tenpennies.wire.mapping``.

Each event that changes the game makes a new ``SeatView`` (``dataclasses.replace``, then changed): a
view once handed out never changes, so a screen may keep the one it drew and compare.

What the fold cannot know, and so where it may differ from a fresh snapshot:

* ``to_act`` while a buy offer is open: other seats' answers are private (TP-4.7), so the fold lists
  every offered seat until the offer settles (this seat's own answer removes it at once).
* ``discard_top`` of a fold that began mid-round: the snapshot shows only the pile's top card, so once
  taking and buying have used up the cards seen since, the card below is unknown (``None``) until the
  next discard, and ``pile`` holds only the top of the pile (``len(pile) < view.pile_size``).
* ``legal`` of a seat the server plays for (a bot's, a taken-over player's, the draw after a timed-out
  decline): the server asks it nothing, so the fold has no legal commands there, where a snapshot would
  list the engine's.
* Other seats' deadlines: decision requests are private; see ``deadline_ms``.
"""

from __future__ import annotations

import collections
import dataclasses
from collections.abc import Callable

from tenpennies.engine.ten_pennies import Card, HouseRules, Meld, Phase, PlayerInfo, SeatView
from tenpennies.v1 import tenpennies_pb2 as pb
from tenpennies.wire import mapping

LOG_LINES = 200
CHAT_LINES = 100

# The event kinds that change the game (the engine's events); any of them ends this seat's decision,
# and a new DecisionRequest, if any, follows in the same batch.
GAME_KINDS = frozenset({
    "game_started", "dealer_draw", "round_started", "cards_received", "upcard_turned", "turn_started",
    "discard_taken", "discard_declined", "buy_answered", "card_bought", "card_dead", "stock_drawn",
    "stock_rebuilt", "contract_laid", "set_laid", "laid_off", "discarded", "went_out", "round_ended",
    "game_ended", "timer_expired"})

_ROUND_END_WORDS = {pb.ROUND_END_REASON_OUT: "went out", pb.ROUND_END_REASON_STOCK: "the stock ran out",
                    pb.ROUND_END_REASON_MAX_TURNS: "the turns ran out"}


class TableView:
    """What one seat (or a spectator, seat None) knows of a table, folded from its stream.

    ``apply_snapshot`` starts (or restarts, after a reconnect) from a snapshot; ``apply_event`` folds
    each event after it. Attributes, all read-only for callers:

    * ``info``: the table (name, seats, settings, status), kept current from seat changes and the
      game's start and end.
    * ``view``: the game as this seat knows it; None before the game starts.
    * ``deadline_ms``: unix ms when this seat's open decision times out (0: none, or no timer). A
      spectator, or a seat not awaited, has the snapshot's value (the awaited seat due first) until the
      game moves; then 0, since others' deadlines are private.
    * ``sequence``: the last sequence applied; events at or below it are history already reflected.
    * ``round_end``: the last round's end (the hands shown, points, scores) until the next one.
    * ``game_end`` and ``winners``: the end of the game.
    * ``pile``: the discard pile as far as it is known, bottom first (every discard is face up: the
      whole pile for a fold that saw the round's deal, else its top ``len(pile)`` cards).
    * ``log``: the game in words, newest last; ``chat``: (who, text).
    """

    def __init__(self, seat: int | None, card_text: Callable[[Card], str] = lambda c: c.text,
                 you: str | None = None) -> None:
        self.seat = seat
        self.card_text = card_text
        self.you = you  # what to call this seat in the log ("You"); None: by its name
        self.info: pb.TableInfo | None = None
        self.view: SeatView | None = None
        self.deadline_ms = 0
        self.sequence = 0
        self.round_end: pb.RoundEnded | None = None
        self.game_end: pb.GameEnded | None = None
        self.winners: tuple[int, ...] = ()
        self.pile: list[Card] = []
        self.log: collections.deque[str] = collections.deque(maxlen=LOG_LINES)
        self.chat: collections.deque[tuple[str, str]] = collections.deque(maxlen=CHAT_LINES)
        self.rules: HouseRules | None = None
        self._penalty_before_rebuild = 0  # penalty cards a buy drew before the stock was rebuilt
        self._timed_out: int | None = None  # the seat a timer just acted for, until its line is logged
        self._arriving: set[int] = set()  # seats joined but not yet here: their first coming is the joining

    # --- the stream ------------------------------------------------------------------------------

    def apply_snapshot(self, snapshot: pb.Snapshot) -> None:
        """Start again from ``snapshot``: everything but the log and the chat is reset from it."""
        self.info = pb.TableInfo()
        self.info.CopyFrom(snapshot.table)
        self.rules = mapping.rules_from_pb(snapshot.table.rules)
        self.sequence = snapshot.sequence
        self.deadline_ms = snapshot.decision_deadline_ms
        self.round_end = None
        self.game_end = None
        self._penalty_before_rebuild = 0
        self._timed_out = None
        if snapshot.HasField("game"):
            self.view = mapping.view_from_pb(snapshot.game, self.rules)
            self.winners = tuple(snapshot.game.winners)
            self.pile = [self.view.discard_top] if self.view.discard_top is not None else []
        else:
            self.view = None
            self.winners = ()
            self.pile = []

    def apply_event(self, event: pb.Event) -> str | None:
        """Fold one event; return the line it added to the log (None: none). Events at or below
        ``sequence`` are history the snapshot already reflects, and are ignored."""
        if event.sequence and event.sequence <= self.sequence:
            return None
        self.sequence = max(self.sequence, event.sequence)
        kind = event.WhichOneof("kind")
        if kind is None:
            return None
        if self.info is not None:
            self.info.last_sequence = max(self.info.last_sequence, event.sequence)
        line: str | None
        if kind in GAME_KINDS:
            line = self._game_event(kind, event)
        elif kind == "seat_changed":
            line = self._seat_changed(event.seat_changed.seat)
        elif kind == "chat_posted":
            chat = event.chat_posted
            who = chat.name or (self.name(chat.seat) if chat.HasField("seat") else "someone")
            self.chat.append((who, chat.text))
            line = f"{who}: {chat.text}"
        elif kind == "decision_request":
            self._decision(event.decision_request)
            line = None
        else:
            line = None
        if line is not None:
            self.log.append(line)
        return line

    def name(self, seat: int) -> str:
        """The seat's name as the table shows it: ``you`` for this seat when given, "seat N" for a seat
        with no name, and the name with its seat number where two seats share it (bots do)."""
        if seat == self.seat and self.you:
            return self.you
        seats = self.info.seat_info if self.info is not None else []
        name = seats[seat].name if 0 <= seat < len(seats) else ""
        if not name:
            return f"seat {seat}"
        return f"{name} {seat}" if sum(1 for s in seats if s.name == name) > 1 else name

    # --- the game --------------------------------------------------------------------------------

    def _decision(self, request: pb.DecisionRequest) -> None:
        if self.seat is None or request.seat != self.seat or self.view is None:
            return
        legal = tuple(mapping.command_from_pb(self.seat, c) for c in request.legal_commands)
        self.view = dataclasses.replace(self.view, legal=legal)
        self.deadline_ms = request.deadline_ms

    def _game_event(self, kind: str, event: pb.Event) -> str | None:
        if kind == "game_started":
            self._start(event.game_started)
            return f"The game starts: {event.game_started.seats} seats"
        if self.view is None:  # a game event before any game: nothing to fold it into
            return None
        # Every game event ends this seat's open decision; a new one, if any, follows in the batch.
        v = dataclasses.replace(self.view, legal=())
        self.deadline_ms = 0
        line = self._fold(kind, event, v)
        self.view = v
        return line

    def _start(self, started: pb.GameStarted) -> None:
        rules = mapping.rules_from_pb(started.rules)
        self.rules = rules
        if self.info is not None:
            self.info.status = pb.TABLE_STATUS_PLAYING
            self.info.expires_at = 0
        self.round_end = self.game_end = None
        self.winners = ()
        self.pile = []
        self.deadline_ms = 0
        self.view = SeatView(
            seat=self.seat, seats=started.seats, rules=rules, round=rules.rounds[0], dealer=0, turn_seat=0,
            turn=0, phase=Phase.PICK_UP, to_act=(), hand=(),
            players=tuple(PlayerInfo(s, 0, rules.buy_pennies, 0, False, 0, 0) for s in range(started.seats)),
            table=(), discard_top=None, discard_live=False, pile_size=0, stock_size=0, pot=0,
            reshuffles_left=rules.reshuffles, buy_offer=(), legal=(), spec=rules.round(rules.rounds[0]))

    def _fold(self, kind: str, event: pb.Event, v: SeatView) -> str | None:
        """Fold one game event into ``v`` (a fresh copy of the view); return its line."""
        t = self.card_text
        players = list(v.players)

        def grow(seat: int, by: int) -> None:
            players[seat] = players[seat]._replace(hand_size=players[seat].hand_size + by)

        mine = self.seat
        line: str | None = None
        match getattr(event, kind):
            case pb.DealerDraw() as m:
                again = " again" if m.tie_break else ""
                line = f"{self.name(m.seat)} drew {t(mapping.card_from_pb(m.card))}{again} for the deal"
            case pb.RoundStarted() as m:
                assert self.rules is not None
                v.round, v.dealer, v.spec = m.round, m.dealer, self.rules.round(m.round)
                v.turn, v.table, v.hand, v.buy_offer, v.to_act = 0, (), (), (), ()
                v.stock_size, v.pile_size, v.discard_top, v.discard_live = m.stock_size, 0, None, False
                v.reshuffles_left = self.rules.reshuffles
                self.pile = []
                players = [p._replace(hand_size=m.hand_size, down=False) for p in players]
                line = f"Round {m.round}: the contract is {v.spec.contract}, dealt by {self.name(m.dealer)}"
            case pb.CardsReceived() as m:
                if m.seat == mine:
                    got = tuple(mapping.card_from_pb(c) for c in m.cards)
                    v.hand = v.hand + got
                    shown = " ".join(t(c) for c in got)
                    if m.reason == pb.RECEIVED_REASON_DEAL:
                        line = f"Dealt to {self.name(m.seat)}: {shown}"
                    elif m.reason == pb.RECEIVED_REASON_DRAW:
                        line = f"{self.name(m.seat)} drew the {shown}"
                    else:
                        line = f"{self.name(m.seat)} took the penalty cards {shown}"
            case pb.UpcardTurned() as m:
                card = mapping.card_from_pb(m.card)
                self._push(v, card)
                line = f"The upcard is the {t(card)}"
            case pb.TurnStarted() as m:
                v.turn_seat, v.turn, v.phase, v.to_act, v.buy_offer = m.seat, m.turn, Phase.PICK_UP, (m.seat,), ()
            case pb.DiscardTaken() as m:
                card = mapping.card_from_pb(m.card)
                self._pop(v)
                v.discard_live, v.phase = False, Phase.MELD
                grow(m.seat, 1)
                if m.seat == mine:
                    v.hand = v.hand + (card,)
                line = f"{self.name(m.seat)} took the {t(card)}"
            case pb.DiscardDeclined() as m:
                v.phase, v.to_act, v.buy_offer = Phase.BUY, tuple(m.offered_to), tuple(m.offered_to)
                offered = ", ".join(self.name(s) for s in m.offered_to) or "nobody (no pennies left)"
                line = f"{self.name(m.seat)} declined the {t(mapping.card_from_pb(m.card))}: offered to {offered}"
            case pb.BuyAnswered() as m:
                v.to_act = tuple(s for s in v.to_act if s != m.seat)
                line = f"{self.name(m.seat)} {'asked to buy' if m.buy else 'passed'}"
            case pb.CardBought() as m:
                card = mapping.card_from_pb(m.card)
                self._pop(v)
                v.discard_live, v.phase, v.to_act, v.buy_offer = False, Phase.DRAW, (v.turn_seat,), ()
                v.stock_size -= m.penalty_cards - self._penalty_before_rebuild
                self._penalty_before_rebuild = 0
                v.pot += 1
                grow(m.seat, 1 + m.penalty_cards)
                players[m.seat] = players[m.seat]._replace(pennies=m.pennies_left)
                if m.seat == mine:
                    v.hand = v.hand + (card,)
                extra = f" (+{m.penalty_cards} card{'s' if m.penalty_cards != 1 else ''})"
                line = f"{self.name(m.seat)} bought the {t(card)}{extra}"
            case pb.CardDead() as m:
                card = mapping.card_from_pb(m.card)
                v.discard_live, v.phase, v.to_act, v.buy_offer = False, Phase.DRAW, (v.turn_seat,), ()
                line = f"Nobody bought the {t(card)}"
            case pb.StockDrawn() as m:
                v.stock_size -= 1
                v.phase = Phase.MELD
                grow(m.seat, 1)
                if m.seat != mine:  # this seat's own draw is told with its card (cards_received)
                    line = f"{self.name(m.seat)} drew"
            case pb.StockRebuilt() as m:
                self._rebuild(v, m)
                line = f"The pile became the stock: {m.size} cards, {m.reshuffles_left} reshuffles left"
            case pb.ContractLaid() as m:
                melds = tuple(mapping.meld_from_pb(x) for x in m.melds)
                self._lay(v, m.seat, melds, grow)
                players[m.seat] = players[m.seat]._replace(down=True)
                sets = " / ".join(" ".join(t(c) for c in x.cards) for x in melds)
                line = f"{self.name(m.seat)} laid the contract: {sets}"
            case pb.SetLaid() as m:
                meld = mapping.meld_from_pb(m.meld)
                self._lay(v, m.seat, (meld,), grow)
                line = f"{self.name(m.seat)} laid set {meld.id}: {' '.join(t(c) for c in meld.cards)}"
            case pb.LaidOff() as m:
                card = mapping.card_from_pb(m.card)
                table = list(v.table)
                target = table[m.set_id]
                rank = target.rank if card.rank in v.spec.wild_ranks else card.rank
                table[m.set_id] = target._replace(cards=target.cards + (card,), rank=rank)
                v.table = tuple(table)
                grow(m.seat, -1)
                if m.seat == mine:
                    v.hand = _without(v.hand, (card,))
                line = f"{self.name(m.seat)} laid off {t(card)} on set {m.set_id}"
            case pb.Discarded() as m:
                card = mapping.card_from_pb(m.card)
                self._push(v, card)
                grow(m.seat, -1)
                if m.seat == mine:
                    v.hand = _without(v.hand, (card,))
                line = f"{self.name(m.seat)} discarded the {t(card)}"
            case pb.WentOut() as m:
                line = f"{self.name(m.seat)} went out"
            case pb.RoundEnded() as m:
                self.round_end = m
                players = [p._replace(score=m.scores[s], paid=p.paid + len(m.hands[s].cards))
                           for s, p in enumerate(players)]
                v.pot = m.pot
                why = round_end_why(m, self.name)
                scores = ", ".join(f"{self.name(s)} {m.points[s]} ({m.scores[s]})" for s in range(len(m.scores)))
                line = f"Round {m.round} over, {why}: {scores}"
            case pb.GameEnded() as m:
                self.game_end = m
                self.winners = tuple(m.winners)
                v.phase, v.to_act, v.buy_offer, v.discard_live = Phase.GAME_OVER, (), (), False
                players = [p._replace(score=m.scores[s], won=m.shares[s]) for s, p in enumerate(players)]
                if self.info is not None:
                    self.info.status = pb.TABLE_STATUS_FINISHED
                won = " and ".join(self.name(s) for s in m.winners)
                pennies = sum(m.shares)
                line = f"Game over: {won} won{f' {pennies} pennies' if pennies else ''}"
            case pb.TimerExpired() as m:  # what was done for the seat follows as events of its own: its line
                self._timed_out = m.seat  # (the first the seat's own events make) tells it, once
        v.players = tuple(players)
        if line is not None and self._timed_out is not None and _seat_of(event, kind) == self._timed_out:
            self._timed_out = None
            line = f"Time ran out: {line}"
        return line

    def _push(self, v: SeatView, card: Card) -> None:
        self.pile.append(card)
        v.pile_size += 1
        v.discard_top, v.discard_live = card, True

    def _pop(self, v: SeatView) -> None:
        """The top card leaves the pile (taken or bought); the one below shows, if it is known."""
        if self.pile:
            self.pile.pop()
        v.pile_size -= 1
        v.discard_top = self.pile[-1] if self.pile else None

    def _rebuild(self, v: SeatView, m: pb.StockRebuilt) -> None:
        """TP-4.18: all the pile but its top becomes the stock. A buy's penalty cards rebuild it after the
        bought card left the pile (the event comes before the CardBought), so then the top two stay here
        until the CardBought takes the bought one; the penalty cards drawn before it emptied the stock."""
        keep = 2 if v.phase is Phase.BUY else 1
        self.pile = self.pile[-keep:]
        v.pile_size = keep
        if v.phase is Phase.BUY:
            self._penalty_before_rebuild = v.stock_size
        v.stock_size = m.size
        v.reshuffles_left = m.reshuffles_left

    def _lay(self, v: SeatView, seat: int, melds: tuple[Meld, ...], grow: Callable[[int, int], None]) -> None:
        laid = tuple(c for x in melds for c in x.cards)
        v.table = v.table + melds
        grow(seat, -len(laid))
        if seat == self.seat:
            v.hand = _without(v.hand, laid)

    # --- the table ---------------------------------------------------------------------------------

    def _seat_changed(self, seat: pb.SeatInfo) -> str | None:
        if self.info is None:
            return None
        index = seat.seat
        while len(self.info.seat_info) <= index:
            self.info.seat_info.add(seat=len(self.info.seat_info), kind=pb.SEAT_KIND_EMPTY)
        before = pb.SeatInfo()
        before.CopyFrom(self.info.seat_info[index])
        self.info.seat_info[index].CopyFrom(seat)
        name = self.name(index)
        if seat.kind == pb.SEAT_KIND_EMPTY:
            self._arriving.discard(index)
            return f"{before.name or f'seat {index}'} left" if before.kind != pb.SEAT_KIND_EMPTY else None
        if before.kind != seat.kind or before.name != seat.name:
            if seat.kind == pb.SEAT_KIND_PLAYER and not seat.connected:
                self._arriving.add(index)
            return f"{name} joined"
        arrived = seat.connected and index in self._arriving
        if seat.connected:
            self._arriving.discard(index)
        if seat.bot_playing and not before.bot_playing:
            return f"a bot plays for {name}"
        if index == self.seat:
            return None  # this seat's own comings and goings go without saying
        if before.bot_playing and not seat.bot_playing:
            return f"{name} is back"
        if before.connected and not seat.connected:
            return f"{name} is away"
        if seat.connected and not before.connected and not arrived:
            return f"{name} is here"  # (one just joined: "joined" said it)
        return None


def round_end_why(end: pb.RoundEnded, name: Callable[[int], str]) -> str:
    """Why a round ended, in words: who went out, else what ran out."""
    return f"{name(end.out)} went out" if end.HasField("out") else _ROUND_END_WORDS.get(end.reason, "it ended")


def _seat_of(event: pb.Event, kind: str) -> int | None:
    """The seat a game event is about (None: a table-wide one, as the stock rebuilt)."""
    message = getattr(event, kind)
    return int(message.seat) if "seat" in message.DESCRIPTOR.fields_by_name else None


def _without(hand: tuple[Card, ...], cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """``hand`` less ``cards``, in the hand's order (cards are unique objects)."""
    gone = {c.id for c in cards}
    return tuple(c for c in hand if c.id not in gone)

