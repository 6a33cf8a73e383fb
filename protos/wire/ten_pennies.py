"""Ten Pennies on the wire (docs/RULES.md): its rules, commands, events and a seat's view <-> the protobuf
messages (``TenPenniesRules``, ``TenPenniesView`` and ``TenPenniesEnd`` under the shared messages' ``ten_pennies``,
its commands and events in the ``Command`` and ``Event`` oneofs). The cards are every game's (``wire.cards``).
No rules here, no I/O."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tenpennies.engine.ten_pennies import (
    Buy,
    Command,
    DeclineDiscard,
    Discard,
    Draw,
    HouseRules,
    LayContract,
    LayOff,
    LaySet,
    PassBuy,
    PlayerInfo,
    SeatView,
    TakeDiscard,
)
from tenpennies.engine.ten_pennies import events as ev
from tenpennies.engine.ten_pennies.game import Phase
from tenpennies.engine.ten_pennies.kind import TEN_PENNIES
from tenpennies.engine.ten_pennies.rules import KNOBS, knob_named
from tenpennies.v2 import tenpennies_pb2 as pb

from .cards import card, card_from_id, card_from_pb, cards
from .errors import BadRequest
from .whose import other_games_command, refuse_other_games_rules
from .words import enum_of, inverse

# Each knob's words are its declaration's (``rules.KNOBS``); the proto names its values after them; an unset
# one is the knob's default.
KNOB_ENUMS: dict[str, Mapping[str, int]] = {
    knob.name: {word: enum_of(knob.name.upper(), word) for word, _ in knob.choices} for knob in KNOBS if knob.choices}
KNOB_WORDS = {name: inverse(table, str(knob_named(name).default)) for name, table in KNOB_ENUMS.items()}
PRESETS = KNOB_ENUMS["preset"]
PRESET_WORDS = KNOB_WORDS["preset"]

_PHASES = {Phase.PICK_UP: pb.PHASE_PICK_UP, Phase.BUY: pb.PHASE_BUY, Phase.DRAW: pb.PHASE_DRAW,
           Phase.MELD: pb.PHASE_MELD, Phase.GAME_OVER: pb.PHASE_GAME_OVER}
_PHASE_NAMES = {v: k for k, v in _PHASES.items()}
_RECEIVED = {"deal": pb.RECEIVED_REASON_DEAL, "draw": pb.RECEIVED_REASON_DRAW,
             "penalty": pb.RECEIVED_REASON_PENALTY}
_ROUND_END = {"out": pb.ROUND_END_REASON_OUT, "stock": pb.ROUND_END_REASON_STOCK,
              "max_turns": pb.ROUND_END_REASON_MAX_TURNS}



# --- rules ------------------------------------------------------------------------------------------

def rules_to_pb(rules: HouseRules) -> pb.HouseRules:
    """Every knob of ``KNOBS`` set, by its own name (a knob of words as its enum, rounds as a list), in
    ``HouseRules.ten_pennies``."""
    message = pb.TenPenniesRules()
    for knob in KNOBS:
        value = getattr(rules, knob.name)
        if knob.name in KNOB_ENUMS:
            setattr(message, knob.name, KNOB_ENUMS[knob.name][value])
        elif knob.kind is tuple:
            getattr(message, knob.name).extend(value)
        else:
            setattr(message, knob.name, value)
    return pb.HouseRules(ten_pennies=message)


def rules_from_pb(message: pb.HouseRules) -> HouseRules:
    """Unset knobs take the defaults, so a message from before a knob existed means what it meant; the
    engine judges the values (TP-6). BadRequest for another game's rules (``HouseRules.thirty_one``)."""
    refuse_other_games_rules(message, TEN_PENNIES.name)
    own = message.ten_pennies
    knobs: dict[str, Any] = {}
    for knob in KNOBS:
        if knob.name in KNOB_WORDS:
            number = getattr(own, knob.name)
            if number not in KNOB_WORDS[knob.name]:
                raise BadRequest(f"rules.ten_pennies.{knob.name}: unknown {knob.name} {number}")
            knobs[knob.name] = KNOB_WORDS[knob.name][number]
        elif knob.kind is tuple:
            if values := getattr(own, knob.name):
                knobs[knob.name] = tuple(values)
        elif own.HasField(knob.name):
            knobs[knob.name] = getattr(own, knob.name)
    return HouseRules(**knobs)


# --- commands ---------------------------------------------------------------------------------------

def command_to_pb(command: Command) -> pb.Command:
    match command:
        case TakeDiscard():
            return pb.Command(take_discard=pb.TakeDiscard())
        case DeclineDiscard():
            return pb.Command(decline_discard=pb.DeclineDiscard())
        case Buy():
            return pb.Command(buy=pb.Buy())
        case PassBuy():
            return pb.Command(pass_buy=pb.PassBuy())
        case Draw():
            return pb.Command(draw=pb.Draw())
        case LayContract(sets=sets):
            return pb.Command(lay_contract=pb.LayContract(sets=[pb.CardSet(card_ids=[c.id for c in s]) for s in sets]))
        case LaySet(cards=laid):
            return pb.Command(lay_set=pb.LaySet(card_ids=[c.id for c in laid]))
        case LayOff(card=laid, set_id=set_id):
            return pb.Command(lay_off=pb.LayOff(card_id=laid.id, set_id=set_id))
        case Discard(card=discarded):
            return pb.Command(discard=pb.Discard(card_id=discarded.id))


MAX_CARDS_IN_COMMAND = 64


def command_from_pb(seat: int, message: pb.Command) -> Command:
    """The engine command ``seat`` asks for; BadRequest if the message cannot be a Ten Pennies command at all
    (another game's, or one that leaves out what it must name)."""
    kind = message.WhichOneof("kind")
    match kind:
        case None:
            raise BadRequest("the command names no action")
        case "take_discard":
            return TakeDiscard(seat)
        case "decline_discard":
            return DeclineDiscard(seat)
        case "buy":
            return Buy(seat)
        case "pass_buy":
            return PassBuy(seat)
        case "draw":
            return Draw(seat)
        case "lay_contract":
            sets = message.lay_contract.sets
            if len(sets) > 8 or sum(len(s.card_ids) for s in sets) > MAX_CARDS_IN_COMMAND:
                raise BadRequest("too many cards in one command")
            return LayContract(seat, tuple(tuple(card_from_id(i) for i in s.card_ids) for s in sets))
        case "lay_set":
            ids = message.lay_set.card_ids
            if len(ids) > MAX_CARDS_IN_COMMAND:
                raise BadRequest("too many cards in one command")
            return LaySet(seat, tuple(card_from_id(i) for i in ids))
        case "lay_off":
            lay_off = message.lay_off
            if not lay_off.HasField("card_id") or not lay_off.HasField("set_id"):
                raise BadRequest("a lay-off names its card (card_id) and the set it goes on (set_id)")
            return LayOff(seat, card_from_id(lay_off.card_id), lay_off.set_id)
        case "discard":
            if not message.discard.HasField("card_id"):
                raise BadRequest("a discard names its card (card_id)")
            return Discard(seat, card_from_id(message.discard.card_id))
    raise other_games_command(kind, TEN_PENNIES.name)


# --- views ------------------------------------------------------------------------------------------

def meld(m: ev.Meld) -> pb.Meld:
    return pb.Meld(set_id=m.id, owner=m.owner, cards=cards(m.cards), rank=m.rank or 0)


def view_to_pb(view: SeatView, winners: Iterable[int] = ()) -> pb.GameView:
    """A seat's view: what every game has in GameView's own fields, the rest in ``ten_pennies``."""
    spec = view.spec
    own = pb.TenPenniesView(
        round=view.round, contract=pb.Contract(sets=spec.contract.sets, size=spec.contract.size),
        wild_ranks=sorted(spec.wild_ranks), wild_cap=spec.wild_cap, phase=_PHASES[view.phase],
        players=[pb.Player(seat=p.seat, hand_size=p.hand_size, pennies=p.pennies, score=p.score, down=p.down,
                           paid=p.paid, won=p.won) for p in view.players],
        table=[meld(m) for m in view.table], discard_live=view.discard_live, pot=view.pot,
        reshuffles_left=view.reshuffles_left, buy_offer=view.buy_offer)
    message = pb.GameView(
        dealer=view.dealer, turn_seat=view.turn_seat, turn=view.turn, to_act=view.to_act, hand=cards(view.hand),
        pile_size=view.pile_size, stock_size=view.stock_size, legal_commands=[command_to_pb(c) for c in view.legal],
        winners=list(winners), ten_pennies=own)
    if view.seat is not None:
        message.seat = view.seat
    if view.discard_top is not None:
        message.discard_top.CopyFrom(card(view.discard_top))
    return message


def meld_from_pb(message: pb.Meld) -> ev.Meld:
    """A table set as the engine names it (rank 0 on the wire: an all-wild set, rank None)."""
    return ev.Meld(message.set_id, message.owner, tuple(card_from_pb(c) for c in message.cards),
                   message.rank or None)


def phase_from_pb(phase: pb.Phase) -> Phase:
    if phase not in _PHASE_NAMES:
        raise BadRequest(f"unknown phase {phase}")
    return _PHASE_NAMES[phase]


def view_from_pb(message: pb.GameView, rules: HouseRules) -> SeatView:
    """The engine's view of a wire GameView: the inverse of ``view_to_pb`` (winners aside, which a
    SeatView does not hold). ``rules`` are the table's (TableInfo.rules through ``rules_from_pb``);
    the legal commands are the server's, mapped as the seat would send them."""
    seat = message.seat if message.HasField("seat") else None
    own = message.ten_pennies
    return SeatView(
        seat=seat, seats=len(own.players), rules=rules, round=own.round,
        dealer=message.dealer, turn_seat=message.turn_seat, turn=message.turn,
        phase=phase_from_pb(own.phase), to_act=tuple(message.to_act),
        hand=tuple(card_from_pb(c) for c in message.hand),
        players=tuple(PlayerInfo(p.seat, p.hand_size, p.pennies, p.score, p.down, p.paid, p.won)
                      for p in own.players),
        table=tuple(meld_from_pb(m) for m in own.table),
        discard_top=card_from_pb(message.discard_top) if message.HasField("discard_top") else None,
        discard_live=own.discard_live, pile_size=message.pile_size, stock_size=message.stock_size,
        pot=own.pot, reshuffles_left=own.reshuffles_left, buy_offer=tuple(own.buy_offer),
        legal=tuple(command_from_pb(seat, c) for c in message.legal_commands) if seat is not None else (),
        spec=rules.round(own.round))


# --- events -----------------------------------------------------------------------------------------

def event_to_pb(event: ev.Event, rules: HouseRules) -> pb.Event:
    """An engine event as a wire event (its sequence and time are the server's to set)."""
    match event:
        case ev.CardsReceived():
            return pb.Event(cards_received=pb.CardsReceived(seat=event.seat, cards=cards(event.cards),
                                                            reason=_RECEIVED[event.reason]))
        case ev.TurnStarted():
            return pb.Event(turn_started=pb.TurnStarted(seat=event.seat, turn=event.turn))
        case ev.Discarded():
            return pb.Event(discarded=pb.Discarded(seat=event.seat, card=card(event.card)))
        case ev.StockDrawn():
            return pb.Event(stock_drawn=pb.StockDrawn(seat=event.seat))
        case ev.DiscardTaken():
            return pb.Event(discard_taken=pb.DiscardTaken(seat=event.seat, card=card(event.card)))
        case ev.DiscardDeclined():
            return pb.Event(discard_declined=pb.DiscardDeclined(seat=event.seat, card=card(event.card),
                                                                offered_to=event.offered_to))
        case ev.BuyAnswered():
            return pb.Event(buy_answered=pb.BuyAnswered(seat=event.seat, buy=event.buy))
        case ev.CardBought():
            return pb.Event(card_bought=pb.CardBought(seat=event.seat, card=card(event.card),
                                                      penalty_cards=event.penalty_cards,
                                                      pennies_left=event.pennies_left))
        case ev.CardDead():
            return pb.Event(card_dead=pb.CardDead(card=card(event.card)))
        case ev.StockRebuilt():
            return pb.Event(stock_rebuilt=pb.StockRebuilt(size=event.size, reshuffles_left=event.reshuffles_left))
        case ev.ContractLaid():
            return pb.Event(contract_laid=pb.ContractLaid(seat=event.seat, melds=[meld(m) for m in event.melds]))
        case ev.SetLaid():
            return pb.Event(set_laid=pb.SetLaid(seat=event.seat, meld=meld(event.meld)))
        case ev.LaidOff():
            return pb.Event(laid_off=pb.LaidOff(seat=event.seat, card=card(event.card), set_id=event.set_id))
        case ev.WentOut():
            return pb.Event(went_out=pb.WentOut(seat=event.seat))
        case ev.UpcardTurned():
            return pb.Event(upcard_turned=pb.UpcardTurned(card=card(event.card)))
        case ev.RoundStarted():  # on the wire it also says the contract and wild cards, for thin clients
            spec = rules.round(event.round)
            return pb.Event(round_started=pb.RoundStarted(
                round=event.round, dealer=event.dealer, hand_size=event.hand_size, stock_size=event.stock_size,
                contract=pb.Contract(sets=spec.contract.sets, size=spec.contract.size),
                wild_ranks=sorted(spec.wild_ranks), wild_cap=spec.wild_cap))
        case ev.RoundEnded():
            message = pb.RoundEnded(round=event.round, reason=_ROUND_END[event.reason],
                                    hands=[pb.Hand(cards=cards(h)) for h in event.hands], points=event.points,
                                    scores=event.scores, pot=event.pot)
            if event.out is not None:
                message.out = event.out
            return pb.Event(round_ended=message)
        case ev.GameEnded():
            return pb.Event(game_ended=pb.GameEnded(scores=event.scores, winners=event.winners,
                                                    ten_pennies=pb.TenPenniesEnd(shares=event.shares)))
        case ev.DealerDraw():
            return pb.Event(dealer_draw=pb.DealerDraw(seat=event.seat, card=card(event.card),
                                                      tie_break=event.tie_break))
        case ev.GameStarted():
            return pb.Event(game_started=pb.GameStarted(seats=event.seats, rules=rules_to_pb(event.rules)))
    raise TypeError(f"no wire form for {event!r}")


_RECEIVED_NAMES = inverse(_RECEIVED)
_ROUND_END_NAMES = inverse(_ROUND_END)


def round_end_reason_from_pb(reason: pb.RoundEndReason) -> str:
    """The engine's word for why a round ended (out, stock, max_turns); "" for a reason this side does
    not know (a newer peer's): the narrator then says only that the round ended."""
    return _ROUND_END_NAMES.get(reason, "")


def event_from_pb(message: pb.Event, rules: HouseRules) -> ev.Event | None:
    """The engine event a wire event carries: the inverse of ``event_to_pb`` (what the wire adds for thin
    clients, as the contract on RoundStarted, is dropped: the engine has it from ``rules``, the table's).
    None for the table's own events (seats, chat, timers, decision requests), which are no game event."""
    match message.WhichOneof("kind"):
        case "cards_received":
            received = message.cards_received
            return ev.CardsReceived(received.seat, tuple(card_from_pb(c) for c in received.cards),
                                    _RECEIVED_NAMES.get(received.reason, ""))
        case "turn_started":
            return ev.TurnStarted(message.turn_started.seat, message.turn_started.turn)
        case "discarded":
            return ev.Discarded(message.discarded.seat, card_from_pb(message.discarded.card))
        case "stock_drawn":
            return ev.StockDrawn(message.stock_drawn.seat)
        case "discard_taken":
            return ev.DiscardTaken(message.discard_taken.seat, card_from_pb(message.discard_taken.card))
        case "discard_declined":
            declined = message.discard_declined
            return ev.DiscardDeclined(declined.seat, card_from_pb(declined.card), tuple(declined.offered_to))
        case "buy_answered":
            return ev.BuyAnswered(message.buy_answered.seat, message.buy_answered.buy)
        case "card_bought":
            bought = message.card_bought
            return ev.CardBought(bought.seat, card_from_pb(bought.card), bought.penalty_cards, bought.pennies_left)
        case "card_dead":
            return ev.CardDead(card_from_pb(message.card_dead.card))
        case "stock_rebuilt":
            return ev.StockRebuilt(message.stock_rebuilt.size, message.stock_rebuilt.reshuffles_left)
        case "contract_laid":
            laid = message.contract_laid
            return ev.ContractLaid(laid.seat, tuple(meld_from_pb(m) for m in laid.melds))
        case "set_laid":
            return ev.SetLaid(message.set_laid.seat, meld_from_pb(message.set_laid.meld))
        case "laid_off":
            off = message.laid_off
            return ev.LaidOff(off.seat, card_from_pb(off.card), off.set_id)
        case "went_out":
            return ev.WentOut(message.went_out.seat)
        case "upcard_turned":
            return ev.UpcardTurned(card_from_pb(message.upcard_turned.card))
        case "round_started":
            started = message.round_started
            return ev.RoundStarted(started.round, started.dealer, started.hand_size, started.stock_size)
        case "round_ended":
            end = message.round_ended
            return ev.RoundEnded(end.round, end.out if end.HasField("out") else None,
                                 round_end_reason_from_pb(end.reason),
                                 tuple(tuple(card_from_pb(c) for c in h.cards) for h in end.hands),
                                 tuple(end.points), tuple(end.scores), end.pot)
        case "game_ended":
            over = message.game_ended
            return ev.GameEnded(tuple(over.scores), tuple(over.winners), tuple(over.ten_pennies.shares))
        case "dealer_draw":
            draw = message.dealer_draw
            return ev.DealerDraw(draw.seat, card_from_pb(draw.card), draw.tie_break)
        case "game_started":
            return ev.GameStarted(message.game_started.seats, rules_from_pb(message.game_started.rules))
    return None
