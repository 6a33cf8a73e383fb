"""What a hand of three is worth (T31-3): its value, a blitz, three-card brag order (stop_the_bus)."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import ACE, CARDS_PER_DECK, Card
from .rules import Rules

BLITZ = 31.0
THREE_OF_A_KIND = 30.5

BRAG_CLASSES = ("high card", "pair", "flush", "run", "running flush", "prial")
"""T31-3.4, lowest first: a hand's brag class is its index here."""


def card_value(card: Card) -> int:
    """T31-1.2: ace 11, K Q J 10 each 10, 2-9 face value."""
    rank = card.rank
    return 11 if rank == ACE else 10 if rank >= 10 else rank


_VALUES = [card_value(Card.from_id(i)) if Card.from_id(i).suit else 0 for i in range(CARDS_PER_DECK)]


def hand_value(cards: Sequence[Card], rules: Rules) -> float:
    """T31-3.1, T31-3.2: the best total of one suit; 30.5 for three of a rank where the knob says so.
    A hand of four (between a draw and its discard) is worth the best of its hands of three."""
    if len(cards) == 3:  # the hot path: every turn's blitz check, every bot's judgement
        a, b, c = cards
        if a.rank == b.rank == c.rank and rules.three_of_a_kind == "30.5":
            return THREE_OF_A_KIND
        va, vb, vc = _VALUES[a.id], _VALUES[b.id], _VALUES[c.id]
        sa, sb, sc = a.suit, b.suit, c.suit
        if sa == sb:
            return float(va + vb + vc if sb == sc else max(va + vb, vc))
        if sa == sc:
            return float(max(va + vc, vb))
        if sb == sc:
            return float(max(vb + vc, va))
        return float(max(va, vb, vc))
    if len(cards) == 4:  # between a draw and its discard: the best three of them
        a, b, c, d = cards
        return max(hand_value((b, c, d), rules), hand_value((a, c, d), rules), hand_value((a, b, d), rules),
                   hand_value((a, b, c), rules))
    totals: dict[str | None, list[int]] = {}
    for card in cards:
        totals.setdefault(card.suit, []).append(card_value(card))
    return float(max(sum(sorted(values, reverse=True)[:3]) for values in totals.values())) if totals else 0.0


def is_blitz(cards: Sequence[Card], rules: Rules) -> bool:
    """T31-3.3: 31, an ace and two ten-count cards of one suit (no blitz in stop_the_bus, T31-5.3)."""
    return rules.blitz and len(cards) == 3 and hand_value(cards, rules) == BLITZ


def brag_key(cards: Sequence[Card]) -> tuple[int, ...]:
    """T31-3.4: a key that orders hands of three by three-card brag (bigger is better, equal keys tie):
    the class (``BRAG_CLASSES``), then the ranks that decide within it."""
    ranks = sorted((c.rank for c in cards), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    high, mid, low = ranks
    if high == mid == low:
        return (5, 15 if high == 3 else high)  # three 3s are the best prial
    run = None
    if high - mid == 1 and mid - low == 1:
        run = (high, mid, low)
    elif ranks == [ACE, 3, 2]:
        run = (3, 2, 1)  # A-2-3 is a run, below 2-3-4
    if run is not None:
        return (4 if flush else 3, *run)
    if flush:
        return (2, high, mid, low)
    if high == mid or mid == low:
        pair, odd = (high, low) if high == mid else (mid, high)
        return (1, pair, odd)
    return (0, high, mid, low)


def brag_name(cards: Sequence[Card]) -> str:
    return BRAG_CLASSES[brag_key(cards)[0]]


def showdown_key(cards: Sequence[Card], rules: Rules) -> tuple[float, ...]:
    """What the showdown compares (bigger is better): brag order in stop_the_bus, else the value."""
    if rules.brag:
        return tuple(float(k) for k in brag_key(cards))
    return (hand_value(cards, rules),)
