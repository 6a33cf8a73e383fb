"""Sets: checking them (TP-4.8 to TP-4.13) and listing the ways a hand can lay them.

Checking is complete: any set, contract or lay-off is judged here. Listing is bounded: it offers
canonical candidates (for each rank, the lowest-numbered copy of each suit first, the fewest wilds a
set needs, highest-point wilds first since every wild plays alike), never more than
``MAX_CANDIDATES``, so a hand full of wild cards cannot blow it up. Anything else legal the player
can still lay by naming the cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from operator import attrgetter

from ..cards import Card
from .rules import HouseRules, RoundSpec, RuleError

MAX_CANDIDATES = 48


class TableSet:
    """A set on the table during a round (mutable: lay-offs grow it). Its rank, the suits of its
    naturals and its count of wilds follow from its cards; ``rank`` is None for an all-wild set."""

    __slots__ = ("id", "owner", "cards", "rank", "suits", "wilds", "_wild_ranks")

    def __init__(self, set_id: int, owner: int, cards: Sequence[Card], wild_ranks: frozenset[int]) -> None:
        self.id = set_id
        self.owner = owner
        self._wild_ranks = wild_ranks
        self.cards: list[Card] = []
        self.rank: int | None = None
        self.suits: set[str] = set()
        self.wilds = 0
        for card in cards:
            self.add(card)

    def add(self, card: Card) -> None:
        """Put a card on the set (already judged by check_set or check_layoff)."""
        self.cards.append(card)
        self.rank = rank_after(self.rank, card, self._wild_ranks)
        if card.rank in self._wild_ranks:
            self.wilds += 1
        elif card.suit is not None:
            self.suits.add(card.suit)


def rank_after(rank: int | None, card: Card, wild_ranks: Iterable[int]) -> int | None:
    """A set's rank once ``card`` is on it: a wild card leaves it as it was, a natural one names it."""
    return rank if card.rank in wild_ranks else card.rank


def check_set(cards: Sequence[Card], spec: RoundSpec, rules: HouseRules, *, further: bool = False) -> int | None:
    """Judge a set being laid down; return its rank (None for all-wild) or raise RuleError.
    ``further``: a set laid after the contract (TP-4.12), whose wild cards ``later_set_wilds`` may cap."""
    if len(cards) < 3:
        raise RuleError("TP-4.8", f"a set is 3 or more cards, not {len(cards)}")
    wild_ranks = spec.wild_ranks
    rank = None
    suits: set[str] = set()
    wilds = 0
    for card in cards:
        if card.rank in wild_ranks:
            wilds += 1
            continue
        if rank is None:
            rank = card.rank
        elif card.rank != rank:
            raise RuleError("TP-4.8", f"the natural cards of a set share one rank ({_cards(cards)})")
        if rules.distinct_suits and card.suit is not None:
            if card.suit in suits:
                raise RuleError("TP-4.9", f"a set may not hold two naturals of one rank and suit "
                                          f"({_cards(cards)})")
            suits.add(card.suit)
    if rank is None:
        if not rules.all_wild_sets:
            raise RuleError("TP-4.10", "sets of wild cards only are off at this table (all_wild_sets)")
        return None
    if further and rules.later_set_wilds == "one_per_three":
        cap = len(cards) // 3
        if wilds > cap:
            raise RuleError("TP-4.12", f"a further set holds at most one wild card for every three cards "
                                       f"(later_set_wilds): {cap} in a set of {len(cards)}, not {wilds}")
        return rank
    if wilds > spec.wild_cap:
        raise RuleError("TP-4.10", f"a set is laid with at most {spec.wild_cap} wild card"
                                   f"{'s' if spec.wild_cap > 1 else ''} in round {spec.number}, "
                                   f"not {wilds}")
    return rank


def check_contract_set(cards: Sequence[Card], spec: RoundSpec, rules: HouseRules) -> int | None:
    """Judge one set of the round's contract (TP-4.11): at least the contract's size, then a set
    (check_set); return its rank or raise RuleError."""
    contract = spec.contract
    if len(cards) < contract.size:
        raise RuleError("TP-4.11", f"the contract of round {spec.number} is {contract}: "
                                   f"a set of {len(cards)} is too small")
    return check_set(cards, spec, rules)


def set_error(cards: Sequence[Card], spec: RoundSpec, rules: HouseRules, *,
              contract: bool = False) -> RuleError | None:
    """Why ``cards`` are not a set, as the RuleError the engine raises when they are laid, else None:
    with ``contract`` as one set of the contract (check_contract_set), else as a further set (TP-4.12).
    A client asks this before it sends, so that it says at once what the server would say later."""
    try:
        if contract:
            check_contract_set(cards, spec, rules)
        else:
            check_set(cards, spec, rules, further=True)
    except RuleError as error:
        return error
    return None


def layoff_refusal(card: Card, target: TableSet, spec: RoundSpec, rules: HouseRules) -> str | None:
    """TP-4.13: None if ``card`` may go on ``target``, else why not (a key of _REFUSALS). Plain strings,
    no exception: legal-command listing asks this of every card and set."""
    if card.rank in spec.wild_ranks:
        return "wild_cap" if rules.wild_layoff_cap and target.wilds >= spec.wild_cap else None
    if target.rank is None:
        return "all_wild"
    if card.rank != target.rank:
        return "rank"
    if rules.distinct_suits and card.suit is not None and card.suit in target.suits:
        return "suit"
    return None


def cards_laid_off(hand: Iterable[Card], target: TableSet, spec: RoundSpec, rules: HouseRules) -> list[Card]:
    """The cards of ``hand`` (in its order) that ``layoff_refusal`` lets go on ``target``, judged in one pass:
    the legal listing's hot path (tests/test_speed.py holds the two to the same answers)."""
    wild_ranks = spec.wild_ranks
    wild_fits = not (rules.wild_layoff_cap and target.wilds >= spec.wild_cap)
    rank, suits, distinct = target.rank, target.suits, rules.distinct_suits
    fitting = []
    for card in hand:
        if card.rank in wild_ranks:
            if wild_fits:
                fitting.append(card)
        elif card.rank == rank and not (distinct and card.suit is not None and card.suit in suits):
            fitting.append(card)  # a natural of the set's rank (an all-wild set has none) and a suit it lacks
    return fitting


_REFUSALS = {
    "wild_cap": ("TP-4.13", "set {set} already holds the round's {cap} wild card(s) (wild_layoff_cap)"),
    "all_wild": ("TP-4.10", "only wild cards can be laid off on the all-wild set {set}"),
    "rank": ("TP-4.13", "{card} is not of set {set}'s rank"),
    "suit": ("TP-4.9", "set {set} already holds a natural of {card}'s rank and suit"),
}


def check_layoff(card: Card, target: TableSet, spec: RoundSpec, rules: HouseRules) -> None:
    """TP-4.13: raise RuleError if ``card`` may not go on ``target``."""
    error = layoff_error(card, target, spec, rules)
    if error is not None:
        raise error


def layoff_error(card: Card, target: TableSet, spec: RoundSpec, rules: HouseRules) -> RuleError | None:
    """TP-4.13: why ``card`` may not go on ``target``, as the RuleError check_layoff raises, else None."""
    refusal = layoff_refusal(card, target, spec, rules)
    if refusal is None:
        return None
    rule, message = _REFUSALS[refusal]
    return RuleError(rule, message.format(set=target.id, cap=spec.wild_cap, card=card.describe()))


def _cards(cards: Iterable[Card]) -> str:
    return ", ".join(c.describe() for c in cards)


# --- listing candidates ---------------------------------------------------------------------------

def _groups(hand: Iterable[Card], spec: RoundSpec) -> tuple[dict[int, list[Card]], list[Card]]:
    """Naturals by rank (in id order) and wilds (highest points first)."""
    naturals: dict[int, list[Card]] = {}
    wilds: list[Card] = []
    wild_ranks = spec.wild_ranks
    for card in sorted(hand, key=_ID):
        if card.rank in wild_ranks:
            wilds.append(card)
        else:
            group = naturals.get(card.rank)
            if group is None:
                naturals[card.rank] = [card]
            else:
                group.append(card)
    wilds.sort(key=_POINTS, reverse=True)  # a stable sort, reversed or not: equal points keep id order
    return naturals, wilds


_ID = attrgetter("id")
_POINTS = attrgetter("points")


def _may_hold(hand: Iterable[Card], spec: RoundSpec, rules: HouseRules, size: int, cap: int, sets: int = 1) -> bool:
    """False only when the hand cannot hold ``sets`` sets of ``size`` cards with at most ``cap`` wilds each:
    the listings' quick way out for most hands. Each set takes its own cards: at least ``size`` less the
    wilds it may hold naturals of one rank, or ``size`` wilds if all-wild sets are allowed. It counts every
    natural of a rank, not only those TP-4.9 lets stand together: an over-estimate, never an under-one."""
    counts = [0] * 16  # by rank (2 to 15)
    for card in hand:
        counts[card.rank] += 1
    wilds = 0
    for rank in spec.wild_ranks:
        wilds += counts[rank]
        counts[rank] = 0
    naturals = max(1, size - min(cap, wilds))  # the fewest naturals a set of one rank needs
    found = wilds // size if rules.all_wild_sets else 0
    if max(counts) >= naturals:
        for count in counts:
            found += count // naturals
    return found >= sets


def _usable(naturals: list[Card], rules: HouseRules) -> list[Card]:
    """Naturals that may stand together in one set: under TP-4.9 the first copy of each suit, the
    suits with the most copies first, so that what is left can still make a second set of the rank."""
    if not rules.distinct_suits or len(naturals) < 2 or len({c.suit for c in naturals}) == len(naturals):
        return naturals  # (the last: no two of one suit, the common case)
    seen: set[str] = set()
    usable = []
    for card in naturals:
        if card.suit is None or card.suit not in seen:
            usable.append(card)
            if card.suit is not None:
                seen.add(card.suit)
    if len(usable) < len(naturals):
        copies = Counter(c.suit for c in naturals)
        usable.sort(key=lambda c: -copies[c.suit])
    return usable


def _grouped_set_candidates(naturals: dict[int, list[Card]], wilds: list[Card], spec: RoundSpec,
                            rules: HouseRules, size: int, min_rank: int = 0,
                            further: bool = False) -> list[tuple[Card, ...]]:
    # a candidate with wilds has exactly ``size`` cards, so one_per_three allows size // 3 of them
    per_three = further and rules.later_set_wilds == "one_per_three"
    cap = min(size // 3 if per_three else spec.wild_cap, len(wilds))
    out: list[tuple[Card, ...]] = []
    for rank in sorted(naturals):
        group = naturals[rank]
        if rank < min_rank or len(group) + cap < size:
            continue
        usable = _usable(group, rules)
        for count in range(len(usable), 0, -1):
            need = size - count if count < size else 0
            if need > cap:
                break
            out.append(tuple(usable[:count]) + tuple(wilds[:need]))
    if rules.all_wild_sets and len(wilds) >= size:
        out.append(tuple(wilds[:size]))
    return out


def set_candidates(hand: Sequence[Card], spec: RoundSpec, rules: HouseRules,
                   size: int = 3) -> list[tuple[Card, ...]]:
    """Further sets (TP-4.12) of at least ``size`` (at least 3) cards the hand can lay: for each rank, from
    all its usable naturals down to the fewest the wild cap allows, each with the fewest wilds it needs;
    and the all-wild set."""
    size = max(size, 3)
    cap = size // 3 if rules.later_set_wilds == "one_per_three" else spec.wild_cap
    if not _may_hold(hand, spec, rules, size, cap):
        return []
    return _search_sets(hand, spec, rules, size)


def _search_sets(hand: Sequence[Card], spec: RoundSpec, rules: HouseRules, size: int) -> list[tuple[Card, ...]]:
    """``set_candidates`` without its quick way out."""
    naturals, wilds = _groups(hand, spec)
    return _grouped_set_candidates(naturals, wilds, spec, rules, size, further=True)


def contract_candidates(hand: Sequence[Card], spec: RoundSpec, rules: HouseRules,
                        limit: int = MAX_CANDIDATES) -> list[tuple[tuple[Card, ...], ...]]:
    """Ways to lay the round's whole contract (TP-4.11), at most ``limit``. Sets are chosen in rank
    order (the all-wild set last), so each contract is found once."""
    contract = spec.contract
    if not _may_hold(hand, spec, rules, contract.size, spec.wild_cap, contract.sets):
        return []
    return _search_contracts(hand, spec, rules, limit)


def _search_contracts(hand: Sequence[Card], spec: RoundSpec, rules: HouseRules,
                      limit: int) -> list[tuple[tuple[Card, ...], ...]]:
    """``contract_candidates`` without its quick way out."""
    contract = spec.contract
    naturals, wilds = _groups(hand, spec)
    found: list[tuple[tuple[Card, ...], ...]] = []
    seen: set[frozenset[int]] = set()

    def extend(naturals: dict[int, list[Card]], wilds: list[Card], chosen: tuple[tuple[Card, ...], ...],
               min_rank: int) -> None:
        for candidate in _grouped_set_candidates(naturals, wilds, spec, rules, contract.size, min_rank):
            if len(found) >= limit:
                return
            sets = chosen + (candidate,)
            if len(sets) == contract.sets:
                key = frozenset(c.id for s in sets for c in s)
                if key not in seen:
                    seen.add(key)
                    found.append(sets)
                continue
            used = set(candidate)
            rank = next((c.rank for c in candidate if c.rank in naturals), 99)
            rest = {r: ([c for c in g if c not in used] if r == rank else g) for r, g in naturals.items()}
            extend(rest, [c for c in wilds if c not in used], sets, rank)

    extend(naturals, wilds, (), 0)
    return found
