"""Thirty-One on the wire (docs/THIRTY-ONE.md): its rules, commands, events and a seat's view <-> the
protobuf messages named ``ThirtyOne*`` (and the ``thirty_one_*`` fields of ``Command``, ``Event`` and
``GameView``; its rules ride in ``HouseRules.thirty_one``). The cards are every game's (``wire.cards``); a
malformed message is refused as in every game (``errors.BadRequest``).
No rules here, no I/O."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tenpennies.engine.cards import Card
from tenpennies.engine.thirty_one import events as ev
from tenpennies.engine.thirty_one.commands import (
    Command,
    Discard,
    DrawStock,
    ExchangeMiddle,
    ExchangeWidow,
    KeepHand,
    Knock,
    Renew,
    Stand,
    SwapHand,
    TableSwap,
    TableSwapAll,
    TakeDiscard,
)
from tenpennies.engine.thirty_one.events import PlayerInfo
from tenpennies.engine.thirty_one.kind import THIRTY_ONE
from tenpennies.engine.thirty_one.rules import KNOBS, Rules, knob_named, preset_only, unplayed
from tenpennies.engine.thirty_one.view import MiddleHand, Phase, SeatView
from tenpennies.v2 import tenpennies_pb2 as pb

from .cards import card, card_from_id, card_from_pb, cards
from .errors import BadRequest
from .whose import other_games_command, refuse_other_games_rules
from .words import enum_of, inverse

# Thirty-One's knobs of words (its enums are named ``THIRTY_ONE_KNOB_WORD``); an unset one is the preset's value,
# so it has no word here: the wire leaves it out of the rules it reads.
KNOB_ENUMS: dict[str, Mapping[str, int]] = {
    knob.name: {word: enum_of(f"THIRTY_ONE_{knob.name.upper()}", word) for word, _ in knob.choices}
    for knob in KNOBS if knob.choices}
KNOB_WORDS = {name: inverse(table) for name, table in KNOB_ENUMS.items()}

# --- rules ------------------------------------------------------------------------------------------


def rules_to_pb(rules: Rules) -> pb.HouseRules:
    """The preset and every knob it plays (``Rules.applies``: not ``tokens`` but in banking, ...) set, by its
    own name (a knob of words as its enum), in ``HouseRules.thirty_one``."""
    message = pb.ThirtyOneRules()
    for knob in KNOBS:
        if not rules.applies(knob.name):
            continue
        value = getattr(rules, knob.name)
        setattr(message, knob.name, KNOB_ENUMS[knob.name][value] if knob.name in KNOB_ENUMS
                else value)
    return pb.HouseRules(thirty_one=message)


def rules_from_pb(message: pb.HouseRules) -> Rules:
    """The preset's rules with the knobs the message sets (an unset one is the preset's: a client may send
    the preset alone); the engine judges the values (T31). BadRequest for a knob the preset does not play
    (``rules.thirty_one.tokens applies to the banking preset only (T31-7.4)``) or another game's set
    (``rules.ten_pennies is Ten Pennies': this table plays thirty_one``)."""
    refuse_other_games_rules(message, THIRTY_ONE.name)
    knobs = _knobs_from_pb(message.thirty_one)
    made = Rules.from_dict(knobs)
    for name in unplayed(made, knobs):
        raise BadRequest(f"rules.thirty_one.{name} {preset_only(name)} ({knob_named(name).rule})")
    return made


def told_rules_from_pb(message: pb.HouseRules) -> Rules:
    """The rules a ``GameStarted`` tells: ``rules_from_pb``'s, but a knob its preset does not play is left out
    rather than refused. A server from before that refusal wrote every knob into the events it stored, and
    sends them again from its store to every client of that table; such a knob changes nothing."""
    knobs = _knobs_from_pb(message.thirty_one)
    preset = Rules.from_dict(knobs)
    return Rules.from_dict({name: value for name, value in knobs.items() if preset.applies(name)})


def _knobs_from_pb(rules: pb.ThirtyOneRules) -> dict[str, Any]:
    """The knobs ``rules`` set, by name (an unknown word of one: BadRequest)."""
    knobs: dict[str, Any] = {}
    for knob in KNOBS:
        if knob.name in KNOB_WORDS:
            number = getattr(rules, knob.name)
            if number:  # 0: unset
                if number not in KNOB_WORDS[knob.name]:
                    raise BadRequest(f"rules.thirty_one.{knob.name}: unknown {knob.name} {number}")
                knobs[knob.name] = KNOB_WORDS[knob.name][number]
        elif rules.HasField(knob.name):
            knobs[knob.name] = getattr(rules, knob.name)
    return knobs


# --- cards that may lie face down ---------------------------------------------------------------------

def slot(c: Card | None) -> pb.ThirtyOneSlot:
    return pb.ThirtyOneSlot(card=card(c)) if c is not None else pb.ThirtyOneSlot()


def slots(cs: Iterable[Card | None]) -> list[pb.ThirtyOneSlot]:
    return [slot(c) for c in cs]


def slot_from_pb(message: pb.ThirtyOneSlot) -> Card | None:
    return card_from_pb(message.card) if message.HasField("card") else None


def slots_from_pb(messages: Iterable[pb.ThirtyOneSlot]) -> tuple[Card | None, ...]:
    return tuple(slot_from_pb(m) for m in messages)


def _cards(messages: Iterable[pb.Card]) -> tuple[Card, ...]:
    return tuple(card_from_pb(m) for m in messages)


def _ids(ids: Sequence[int]) -> tuple[Card, ...]:
    if len(ids) > 3:
        raise BadRequest("a Thirty-One hand has three cards: no command names more")
    return tuple(card_from_id(i) for i in ids)


def _required(message: Any, *names: str) -> None:
    missing = [name for name in names if not message.HasField(name)]
    if missing:
        raise BadRequest(f"{type(message).__name__} names its {' and '.join(missing)}")


# --- commands ---------------------------------------------------------------------------------------

def command_to_pb(command: Command) -> pb.Command:
    match command:
        case DrawStock():
            return pb.Command(thirty_one_draw_stock=pb.ThirtyOneDrawStock())
        case TakeDiscard():
            return pb.Command(thirty_one_take_discard=pb.ThirtyOneTakeDiscard())
        case Discard(card=discarded):
            return pb.Command(thirty_one_discard=pb.ThirtyOneDiscard(card_id=discarded.id))
        case Knock():
            return pb.Command(thirty_one_knock=pb.ThirtyOneKnock())
        case Stand():
            return pb.Command(thirty_one_stand=pb.ThirtyOneStand())
        case ExchangeWidow(give=give, take=take):
            return pb.Command(thirty_one_exchange_widow=pb.ThirtyOneExchangeWidow(
                give_ids=[c.id for c in give], take_positions=take))
        case KeepHand(hand=hand):
            return pb.Command(thirty_one_keep_hand=pb.ThirtyOneKeepHand(hand=hand))
        case ExchangeMiddle(card=given, place=place, slot=at):
            return pb.Command(thirty_one_exchange_middle=pb.ThirtyOneExchangeMiddle(card_id=given.id, place=place,
                                                                                    slot=at))
        case SwapHand(place=place):
            return pb.Command(thirty_one_swap_hand=pb.ThirtyOneSwapHand(place=place))
        case Renew(place=place, face_up=face_up):
            return pb.Command(thirty_one_renew=pb.ThirtyOneRenew(place=place, face_up=face_up))
        case TableSwap(give=give, take=take):
            return pb.Command(thirty_one_table_swap=pb.ThirtyOneTableSwap(give_id=give.id, take_id=take.id))
        case TableSwapAll():
            return pb.Command(thirty_one_table_swap_all=pb.ThirtyOneTableSwapAll())
    raise TypeError(f"no wire form for {command!r}")


def command_from_pb(seat: int, message: pb.Command) -> Command:
    """The Thirty-One command ``seat`` asks for; BadRequest if the message cannot be one at all (another
    game's, or one that leaves out what it must name)."""
    kind = message.WhichOneof("kind")
    match kind:
        case None:
            raise BadRequest("the command names no action")
        case "thirty_one_draw_stock":
            return DrawStock(seat)
        case "thirty_one_take_discard":
            return TakeDiscard(seat)
        case "thirty_one_discard":
            _required(message.thirty_one_discard, "card_id")
            return Discard(seat, card_from_id(message.thirty_one_discard.card_id))
        case "thirty_one_knock":
            return Knock(seat)
        case "thirty_one_stand":
            return Stand(seat)
        case "thirty_one_exchange_widow":
            widow = message.thirty_one_exchange_widow
            if len(widow.take_positions) > 3:
                raise BadRequest("the widow has three cards: no exchange takes more")
            return ExchangeWidow(seat, _ids(widow.give_ids), tuple(widow.take_positions))
        case "thirty_one_keep_hand":
            _required(message.thirty_one_keep_hand, "hand")
            return KeepHand(seat, message.thirty_one_keep_hand.hand)
        case "thirty_one_exchange_middle":
            middle = message.thirty_one_exchange_middle
            _required(middle, "card_id", "place", "slot")
            return ExchangeMiddle(seat, card_from_id(middle.card_id), middle.place, middle.slot)
        case "thirty_one_swap_hand":
            _required(message.thirty_one_swap_hand, "place")
            return SwapHand(seat, message.thirty_one_swap_hand.place)
        case "thirty_one_renew":
            _required(message.thirty_one_renew, "place")
            return Renew(seat, message.thirty_one_renew.place, message.thirty_one_renew.face_up)
        case "thirty_one_table_swap":
            swap = message.thirty_one_table_swap
            _required(swap, "give_id", "take_id")
            return TableSwap(seat, card_from_id(swap.give_id), card_from_id(swap.take_id))
        case "thirty_one_table_swap_all":
            return TableSwapAll(seat)
    raise other_games_command(kind, THIRTY_ONE.name)


# --- seats, deals, views ------------------------------------------------------------------------------

def player(p: PlayerInfo) -> pb.ThirtyOnePlayer:
    return pb.ThirtyOnePlayer(seat=p.seat, hand_size=p.hand_size, lives=p.lives, riding=p.riding, out=p.out,
                              tokens=p.tokens, points=p.points)


def player_from_pb(m: pb.ThirtyOnePlayer) -> PlayerInfo:
    return PlayerInfo(m.seat, m.hand_size, m.lives, m.riding, m.out, m.tokens, m.points)


def players_from_pb(messages: Iterable[pb.ThirtyOnePlayer]) -> tuple[PlayerInfo, ...]:
    return tuple(player_from_pb(m) for m in messages)


_DEAL_ENDS = {"knock": pb.THIRTY_ONE_DEAL_END_KNOCK, "blitz": pb.THIRTY_ONE_DEAL_END_BLITZ,
              "dead": pb.THIRTY_ONE_DEAL_END_DEAD}
_DEAL_END_WORDS = inverse(_DEAL_ENDS)
_RECEIVED = {"deal": pb.THIRTY_ONE_RECEIVED_REASON_DEAL, "spare": pb.THIRTY_ONE_RECEIVED_REASON_SPARE,
             "draw": pb.THIRTY_ONE_RECEIVED_REASON_DRAW, "widow": pb.THIRTY_ONE_RECEIVED_REASON_WIDOW,
             "middle": pb.THIRTY_ONE_RECEIVED_REASON_MIDDLE}
_RECEIVED_WORDS = inverse(_RECEIVED)
_PHASES = {Phase.KEEP: pb.THIRTY_ONE_PHASE_KEEP, Phase.TURN: pb.THIRTY_ONE_PHASE_TURN,
           Phase.DISCARD: pb.THIRTY_ONE_PHASE_DISCARD, Phase.AGAIN: pb.THIRTY_ONE_PHASE_AGAIN,
           Phase.GAME_OVER: pb.THIRTY_ONE_PHASE_GAME_OVER}
_PHASE_NAMES = {number: phase for phase, number in _PHASES.items()}


def deal_ended(event: ev.DealEnded) -> pb.ThirtyOneDealEnded:
    message = pb.ThirtyOneDealEnded(
        deal=event.deal, how=_DEAL_ENDS[event.how], hands=[pb.Hand(cards=cards(h)) for h in event.hands],
        values=event.values, places=event.places, lost=event.lost, scored=event.scored, paid=event.paid,
        won=event.won, went_out=event.went_out, players=[player(p) for p in event.players], centre=event.centre)
    if event.knocker is not None:
        message.knocker = event.knocker
    if event.blitzer is not None:
        message.blitzer = event.blitzer
    return message


def deal_ended_from_pb(m: pb.ThirtyOneDealEnded) -> ev.DealEnded:
    return ev.DealEnded(m.deal, _DEAL_END_WORDS.get(m.how, ""), m.knocker if m.HasField("knocker") else None,
                        m.blitzer if m.HasField("blitzer") else None, tuple(_cards(h.cards) for h in m.hands),
                        tuple(m.values), tuple(m.places), tuple(m.lost), tuple(m.scored), tuple(m.paid), tuple(m.won),
                        tuple(m.went_out), players_from_pb(m.players), m.centre)


def view_to_pb(view: SeatView) -> pb.GameView:
    """A seat's view: what every game has in GameView's own fields, the rest in ``thirty_one``."""
    thirty_one = pb.ThirtyOneView(
        deal=view.deal, phase=_PHASES[view.phase], players=[player(p) for p in view.players], pile=cards(view.pile),
        final_turns=view.final_turns, widow=slots(view.widow),
        middle=[pb.ThirtyOneMiddleHand(place=m.place, face_up=m.face_up, up=m.up, cards=slots(m.cards))
                for m in view.middle],
        table_cards=cards(view.table_cards), centre=view.centre, value=view.value, spare=cards(view.spare))
    if view.knocker is not None:
        thirty_one.knocker = view.knocker
    if view.taken is not None:
        thirty_one.taken.CopyFrom(card(view.taken))
    if view.last_deal is not None:
        thirty_one.last_deal.CopyFrom(deal_ended(view.last_deal))
    message = pb.GameView(dealer=view.dealer, turn_seat=view.turn_seat, turn=view.turn, to_act=view.to_act,
                          hand=cards(view.hand), pile_size=len(view.pile), stock_size=view.stock_size,
                          legal_commands=[command_to_pb(c) for c in view.legal], winners=view.winners,
                          thirty_one=thirty_one)
    if view.seat is not None:
        message.seat = view.seat
    if view.pile:
        message.discard_top.CopyFrom(card(view.pile[-1]))
    return message


def view_from_pb(message: pb.GameView, rules: Rules) -> SeatView:
    """The engine's view of a wire GameView: ``view_to_pb``'s inverse. ``rules`` are the table's; the legal
    commands are the server's, mapped as the seat would send them."""
    seat = message.seat if message.HasField("seat") else None
    t = message.thirty_one
    if t.phase not in _PHASE_NAMES:
        raise BadRequest(f"unknown Thirty-One phase {t.phase}")
    return SeatView(
        seat=seat, seats=len(t.players), rules=rules, deal=t.deal, dealer=message.dealer,
        turn_seat=message.turn_seat, turn=message.turn, phase=_PHASE_NAMES[t.phase], to_act=tuple(message.to_act),
        hand=_cards(message.hand), spare=_cards(t.spare), players=players_from_pb(t.players), pile=_cards(t.pile),
        stock_size=message.stock_size, knocker=t.knocker if t.HasField("knocker") else None,
        final_turns=tuple(t.final_turns), taken=card_from_pb(t.taken) if t.HasField("taken") else None,
        widow=slots_from_pb(t.widow),
        middle=tuple(MiddleHand(m.place, m.face_up, tuple(m.up), slots_from_pb(m.cards)) for m in t.middle),
        table_cards=_cards(t.table_cards), centre=t.centre, value=t.value,
        last_deal=deal_ended_from_pb(t.last_deal) if t.HasField("last_deal") else None,
        winners=tuple(message.winners),
        legal=tuple(command_from_pb(seat, c) for c in message.legal_commands) if seat is not None else ())


def game_view(game: Any, seat: int | None) -> pb.GameView:
    """What ``seat`` (None: a spectator) may see of ``game`` (the engine's Thirty-One game), on the wire."""
    return view_to_pb(game.view(seat))


# --- events -----------------------------------------------------------------------------------------

def event_to_pb(event: ev.Event, rules: Rules) -> pb.Event:
    """A Thirty-One event as a wire event (its sequence and time are the server's to set)."""
    match event:
        case ev.GameStarted(seats=seats, rules=started):
            return pb.Event(game_started=pb.GameStarted(seats=seats, rules=rules_to_pb(started)))
        case ev.DealStarted():
            return pb.Event(thirty_one_deal_started=pb.ThirtyOneDealStarted(
                deal=event.deal, dealer=event.dealer, players=[player(p) for p in event.players], centre=event.centre,
                stock_size=event.stock_size))
        case ev.CardsReceived():
            return pb.Event(thirty_one_cards_received=pb.ThirtyOneCardsReceived(
                seat=event.seat, cards=cards(event.cards), reason=_RECEIVED[event.reason]))
        case ev.UpcardTurned():
            return pb.Event(thirty_one_upcard_turned=pb.ThirtyOneUpcardTurned(card=card(event.card)))
        case ev.WidowDealt():
            return pb.Event(thirty_one_widow_dealt=pb.ThirtyOneWidowDealt(size=event.size))
        case ev.MiddleDealt():
            return pb.Event(thirty_one_middle_dealt=pb.ThirtyOneMiddleDealt(place=event.place, size=event.size))
        case ev.HandKept():
            return pb.Event(thirty_one_hand_kept=pb.ThirtyOneHandKept(seat=event.seat, hand=event.hand,
                                                                       place=event.place, cards=cards(event.cards)))
        case ev.TableCardsTurned():
            return pb.Event(thirty_one_table_cards_turned=pb.ThirtyOneTableCardsTurned(cards=cards(event.cards)))
        case ev.TurnStarted():
            return pb.Event(thirty_one_turn_started=pb.ThirtyOneTurnStarted(seat=event.seat, turn=event.turn,
                                                                             final=event.final))
        case ev.StockDrawn():
            return pb.Event(thirty_one_stock_drawn=pb.ThirtyOneStockDrawn(seat=event.seat))
        case ev.DiscardTaken():
            return pb.Event(thirty_one_discard_taken=pb.ThirtyOneDiscardTaken(seat=event.seat, card=card(event.card)))
        case ev.Discarded():
            return pb.Event(thirty_one_discarded=pb.ThirtyOneDiscarded(seat=event.seat, card=card(event.card)))
        case ev.Knocked():
            return pb.Event(thirty_one_knocked=pb.ThirtyOneKnocked(seat=event.seat))
        case ev.Stood():
            return pb.Event(thirty_one_stood=pb.ThirtyOneStood(seat=event.seat))
        case ev.WidowExchanged():
            return pb.Event(thirty_one_widow_exchanged=pb.ThirtyOneWidowExchanged(
                seat=event.seat, given=cards(event.given), positions=event.positions, taken=slots(event.taken),
                widow=cards(event.widow)))
        case ev.MiddleExchanged():
            return pb.Event(thirty_one_middle_exchanged=pb.ThirtyOneMiddleExchanged(
                seat=event.seat, place=event.place, slot=event.slot, given=card(event.given), taken=slot(event.taken)))
        case ev.HandSwapped():
            return pb.Event(thirty_one_hand_swapped=pb.ThirtyOneHandSwapped(
                seat=event.seat, place=event.place, taken=slots(event.taken), given=slots(event.given)))
        case ev.HandRenewed():
            return pb.Event(thirty_one_hand_renewed=pb.ThirtyOneHandRenewed(
                seat=event.seat, place=event.place, face_up=event.face_up, cards=slots(event.cards)))
        case ev.TableSwapped():
            return pb.Event(thirty_one_table_swapped=pb.ThirtyOneTableSwapped(
                seat=event.seat, given=cards(event.given), taken=cards(event.taken)))
        case ev.DealEnded():
            return pb.Event(thirty_one_deal_ended=deal_ended(event))
        case ev.GameEnded():
            end = pb.ThirtyOneEnd(players=[player(p) for p in event.players])
            return pb.Event(game_ended=pb.GameEnded(winners=event.winners, scores=event.places, thirty_one=end))
    raise TypeError(f"no wire form for {event!r}")


def event_from_pb(message: pb.Event, rules: Rules) -> ev.Event | None:
    """The Thirty-One event a wire event carries: ``event_to_pb``'s inverse; None for the table's own (seats,
    chat, timers, decision requests) and for any other game's."""
    match message.WhichOneof("kind"):
        case "game_started":
            return ev.GameStarted(message.game_started.seats, told_rules_from_pb(message.game_started.rules))
        case "thirty_one_deal_started":
            deal = message.thirty_one_deal_started
            return ev.DealStarted(deal.deal, deal.dealer, players_from_pb(deal.players), deal.centre, deal.stock_size)
        case "thirty_one_cards_received":
            received = message.thirty_one_cards_received
            return ev.CardsReceived(received.seat, _cards(received.cards), _RECEIVED_WORDS.get(received.reason, ""))
        case "thirty_one_upcard_turned":
            return ev.UpcardTurned(card_from_pb(message.thirty_one_upcard_turned.card))
        case "thirty_one_widow_dealt":
            return ev.WidowDealt(message.thirty_one_widow_dealt.size)
        case "thirty_one_middle_dealt":
            return ev.MiddleDealt(message.thirty_one_middle_dealt.place, message.thirty_one_middle_dealt.size)
        case "thirty_one_hand_kept":
            kept = message.thirty_one_hand_kept
            return ev.HandKept(kept.seat, kept.hand, kept.place, _cards(kept.cards))
        case "thirty_one_table_cards_turned":
            return ev.TableCardsTurned(_cards(message.thirty_one_table_cards_turned.cards))
        case "thirty_one_turn_started":
            turn = message.thirty_one_turn_started
            return ev.TurnStarted(turn.seat, turn.turn, turn.final)
        case "thirty_one_stock_drawn":
            return ev.StockDrawn(message.thirty_one_stock_drawn.seat)
        case "thirty_one_discard_taken":
            taken = message.thirty_one_discard_taken
            return ev.DiscardTaken(taken.seat, card_from_pb(taken.card))
        case "thirty_one_discarded":
            return ev.Discarded(message.thirty_one_discarded.seat, card_from_pb(message.thirty_one_discarded.card))
        case "thirty_one_knocked":
            return ev.Knocked(message.thirty_one_knocked.seat)
        case "thirty_one_stood":
            return ev.Stood(message.thirty_one_stood.seat)
        case "thirty_one_widow_exchanged":
            w = message.thirty_one_widow_exchanged
            return ev.WidowExchanged(w.seat, _cards(w.given), tuple(w.positions), slots_from_pb(w.taken),
                                     _cards(w.widow))
        case "thirty_one_middle_exchanged":
            x = message.thirty_one_middle_exchanged
            return ev.MiddleExchanged(x.seat, x.place, x.slot, card_from_pb(x.given), slot_from_pb(x.taken))
        case "thirty_one_hand_swapped":
            h = message.thirty_one_hand_swapped
            return ev.HandSwapped(h.seat, h.place, slots_from_pb(h.taken), slots_from_pb(h.given))
        case "thirty_one_hand_renewed":
            r = message.thirty_one_hand_renewed
            return ev.HandRenewed(r.seat, r.place, r.face_up, slots_from_pb(r.cards))
        case "thirty_one_table_swapped":
            t = message.thirty_one_table_swapped
            return ev.TableSwapped(t.seat, _cards(t.given), _cards(t.taken))
        case "thirty_one_deal_ended":
            return deal_ended_from_pb(message.thirty_one_deal_ended)
        case "game_ended":
            over = message.game_ended
            return ev.GameEnded(tuple(over.winners), players_from_pb(over.thirty_one.players), tuple(over.scores))
    return None
