from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Suit(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SUIT_UNSPECIFIED: _ClassVar[Suit]
    SUIT_CLUBS: _ClassVar[Suit]
    SUIT_DIAMONDS: _ClassVar[Suit]
    SUIT_HEARTS: _ClassVar[Suit]
    SUIT_SPADES: _ClassVar[Suit]

class Preset(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PRESET_UNSPECIFIED: _ClassVar[Preset]
    PRESET_STANDARD: _ClassVar[Preset]
    PRESET_DEUCES: _ClassVar[Preset]

class LaterSetWilds(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LATER_SET_WILDS_UNSPECIFIED: _ClassVar[LaterSetWilds]
    LATER_SET_WILDS_ROUND_CAP: _ClassVar[LaterSetWilds]
    LATER_SET_WILDS_ONE_PER_THREE: _ClassVar[LaterSetWilds]

class ThirtyOnePreset(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    THIRTY_ONE_PRESET_UNSPECIFIED: _ClassVar[ThirtyOnePreset]
    THIRTY_ONE_PRESET_CLASSIC: _ClassVar[ThirtyOnePreset]
    THIRTY_ONE_PRESET_CUT_THROAT: _ClassVar[ThirtyOnePreset]
    THIRTY_ONE_PRESET_NO_ELIMINATION: _ClassVar[ThirtyOnePreset]
    THIRTY_ONE_PRESET_BANKING: _ClassVar[ThirtyOnePreset]
    THIRTY_ONE_PRESET_SWITCH: _ClassVar[ThirtyOnePreset]
    THIRTY_ONE_PRESET_STOP_THE_BUS: _ClassVar[ThirtyOnePreset]

class ThirtyOneThreeOfAKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    THIRTY_ONE_THREE_OF_A_KIND_UNSPECIFIED: _ClassVar[ThirtyOneThreeOfAKind]
    THIRTY_ONE_THREE_OF_A_KIND_30_5: _ClassVar[ThirtyOneThreeOfAKind]
    THIRTY_ONE_THREE_OF_A_KIND_OFF: _ClassVar[ThirtyOneThreeOfAKind]

class ThirtyOneKnockerTie(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    THIRTY_ONE_KNOCKER_TIE_UNSPECIFIED: _ClassVar[ThirtyOneKnockerTie]
    THIRTY_ONE_KNOCKER_TIE_ONE: _ClassVar[ThirtyOneKnockerTie]
    THIRTY_ONE_KNOCKER_TIE_TWO: _ClassVar[ThirtyOneKnockerTie]

class TableStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TABLE_STATUS_UNSPECIFIED: _ClassVar[TableStatus]
    TABLE_STATUS_WAITING: _ClassVar[TableStatus]
    TABLE_STATUS_PLAYING: _ClassVar[TableStatus]
    TABLE_STATUS_FINISHED: _ClassVar[TableStatus]

class SeatKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_KIND_UNSPECIFIED: _ClassVar[SeatKind]
    SEAT_KIND_EMPTY: _ClassVar[SeatKind]
    SEAT_KIND_PLAYER: _ClassVar[SeatKind]
    SEAT_KIND_BOT: _ClassVar[SeatKind]

class BotStrategy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BOT_STRATEGY_UNSPECIFIED: _ClassVar[BotStrategy]
    BOT_STRATEGY_GREEDY: _ClassVar[BotStrategy]
    BOT_STRATEGY_RANDOM: _ClassVar[BotStrategy]
    BOT_STRATEGY_AVERAGING: _ClassVar[BotStrategy]
    BOT_STRATEGY_EARLY: _ClassVar[BotStrategy]
    BOT_STRATEGY_HOLDOUT: _ClassVar[BotStrategy]
    BOT_STRATEGY_SAMPLER: _ClassVar[BotStrategy]
    BOT_STRATEGY_HEURISTIC: _ClassVar[BotStrategy]
    BOT_STRATEGY_SEARCHER: _ClassVar[BotStrategy]

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    PHASE_PICK_UP: _ClassVar[Phase]
    PHASE_BUY: _ClassVar[Phase]
    PHASE_DRAW: _ClassVar[Phase]
    PHASE_MELD: _ClassVar[Phase]
    PHASE_GAME_OVER: _ClassVar[Phase]

class ThirtyOnePhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    THIRTY_ONE_PHASE_UNSPECIFIED: _ClassVar[ThirtyOnePhase]
    THIRTY_ONE_PHASE_KEEP: _ClassVar[ThirtyOnePhase]
    THIRTY_ONE_PHASE_TURN: _ClassVar[ThirtyOnePhase]
    THIRTY_ONE_PHASE_DISCARD: _ClassVar[ThirtyOnePhase]
    THIRTY_ONE_PHASE_AGAIN: _ClassVar[ThirtyOnePhase]
    THIRTY_ONE_PHASE_GAME_OVER: _ClassVar[ThirtyOnePhase]

class ReceivedReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RECEIVED_REASON_UNSPECIFIED: _ClassVar[ReceivedReason]
    RECEIVED_REASON_DEAL: _ClassVar[ReceivedReason]
    RECEIVED_REASON_DRAW: _ClassVar[ReceivedReason]
    RECEIVED_REASON_PENALTY: _ClassVar[ReceivedReason]

class RoundEndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROUND_END_REASON_UNSPECIFIED: _ClassVar[RoundEndReason]
    ROUND_END_REASON_OUT: _ClassVar[RoundEndReason]
    ROUND_END_REASON_STOCK: _ClassVar[RoundEndReason]
    ROUND_END_REASON_MAX_TURNS: _ClassVar[RoundEndReason]

class ThirtyOneReceivedReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    THIRTY_ONE_RECEIVED_REASON_UNSPECIFIED: _ClassVar[ThirtyOneReceivedReason]
    THIRTY_ONE_RECEIVED_REASON_DEAL: _ClassVar[ThirtyOneReceivedReason]
    THIRTY_ONE_RECEIVED_REASON_SPARE: _ClassVar[ThirtyOneReceivedReason]
    THIRTY_ONE_RECEIVED_REASON_DRAW: _ClassVar[ThirtyOneReceivedReason]
    THIRTY_ONE_RECEIVED_REASON_WIDOW: _ClassVar[ThirtyOneReceivedReason]
    THIRTY_ONE_RECEIVED_REASON_MIDDLE: _ClassVar[ThirtyOneReceivedReason]

class ThirtyOneDealEnd(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    THIRTY_ONE_DEAL_END_UNSPECIFIED: _ClassVar[ThirtyOneDealEnd]
    THIRTY_ONE_DEAL_END_KNOCK: _ClassVar[ThirtyOneDealEnd]
    THIRTY_ONE_DEAL_END_BLITZ: _ClassVar[ThirtyOneDealEnd]
    THIRTY_ONE_DEAL_END_DEAD: _ClassVar[ThirtyOneDealEnd]
SUIT_UNSPECIFIED: Suit
SUIT_CLUBS: Suit
SUIT_DIAMONDS: Suit
SUIT_HEARTS: Suit
SUIT_SPADES: Suit
PRESET_UNSPECIFIED: Preset
PRESET_STANDARD: Preset
PRESET_DEUCES: Preset
LATER_SET_WILDS_UNSPECIFIED: LaterSetWilds
LATER_SET_WILDS_ROUND_CAP: LaterSetWilds
LATER_SET_WILDS_ONE_PER_THREE: LaterSetWilds
THIRTY_ONE_PRESET_UNSPECIFIED: ThirtyOnePreset
THIRTY_ONE_PRESET_CLASSIC: ThirtyOnePreset
THIRTY_ONE_PRESET_CUT_THROAT: ThirtyOnePreset
THIRTY_ONE_PRESET_NO_ELIMINATION: ThirtyOnePreset
THIRTY_ONE_PRESET_BANKING: ThirtyOnePreset
THIRTY_ONE_PRESET_SWITCH: ThirtyOnePreset
THIRTY_ONE_PRESET_STOP_THE_BUS: ThirtyOnePreset
THIRTY_ONE_THREE_OF_A_KIND_UNSPECIFIED: ThirtyOneThreeOfAKind
THIRTY_ONE_THREE_OF_A_KIND_30_5: ThirtyOneThreeOfAKind
THIRTY_ONE_THREE_OF_A_KIND_OFF: ThirtyOneThreeOfAKind
THIRTY_ONE_KNOCKER_TIE_UNSPECIFIED: ThirtyOneKnockerTie
THIRTY_ONE_KNOCKER_TIE_ONE: ThirtyOneKnockerTie
THIRTY_ONE_KNOCKER_TIE_TWO: ThirtyOneKnockerTie
TABLE_STATUS_UNSPECIFIED: TableStatus
TABLE_STATUS_WAITING: TableStatus
TABLE_STATUS_PLAYING: TableStatus
TABLE_STATUS_FINISHED: TableStatus
SEAT_KIND_UNSPECIFIED: SeatKind
SEAT_KIND_EMPTY: SeatKind
SEAT_KIND_PLAYER: SeatKind
SEAT_KIND_BOT: SeatKind
BOT_STRATEGY_UNSPECIFIED: BotStrategy
BOT_STRATEGY_GREEDY: BotStrategy
BOT_STRATEGY_RANDOM: BotStrategy
BOT_STRATEGY_AVERAGING: BotStrategy
BOT_STRATEGY_EARLY: BotStrategy
BOT_STRATEGY_HOLDOUT: BotStrategy
BOT_STRATEGY_SAMPLER: BotStrategy
BOT_STRATEGY_HEURISTIC: BotStrategy
BOT_STRATEGY_SEARCHER: BotStrategy
PHASE_UNSPECIFIED: Phase
PHASE_PICK_UP: Phase
PHASE_BUY: Phase
PHASE_DRAW: Phase
PHASE_MELD: Phase
PHASE_GAME_OVER: Phase
THIRTY_ONE_PHASE_UNSPECIFIED: ThirtyOnePhase
THIRTY_ONE_PHASE_KEEP: ThirtyOnePhase
THIRTY_ONE_PHASE_TURN: ThirtyOnePhase
THIRTY_ONE_PHASE_DISCARD: ThirtyOnePhase
THIRTY_ONE_PHASE_AGAIN: ThirtyOnePhase
THIRTY_ONE_PHASE_GAME_OVER: ThirtyOnePhase
RECEIVED_REASON_UNSPECIFIED: ReceivedReason
RECEIVED_REASON_DEAL: ReceivedReason
RECEIVED_REASON_DRAW: ReceivedReason
RECEIVED_REASON_PENALTY: ReceivedReason
ROUND_END_REASON_UNSPECIFIED: RoundEndReason
ROUND_END_REASON_OUT: RoundEndReason
ROUND_END_REASON_STOCK: RoundEndReason
ROUND_END_REASON_MAX_TURNS: RoundEndReason
THIRTY_ONE_RECEIVED_REASON_UNSPECIFIED: ThirtyOneReceivedReason
THIRTY_ONE_RECEIVED_REASON_DEAL: ThirtyOneReceivedReason
THIRTY_ONE_RECEIVED_REASON_SPARE: ThirtyOneReceivedReason
THIRTY_ONE_RECEIVED_REASON_DRAW: ThirtyOneReceivedReason
THIRTY_ONE_RECEIVED_REASON_WIDOW: ThirtyOneReceivedReason
THIRTY_ONE_RECEIVED_REASON_MIDDLE: ThirtyOneReceivedReason
THIRTY_ONE_DEAL_END_UNSPECIFIED: ThirtyOneDealEnd
THIRTY_ONE_DEAL_END_KNOCK: ThirtyOneDealEnd
THIRTY_ONE_DEAL_END_BLITZ: ThirtyOneDealEnd
THIRTY_ONE_DEAL_END_DEAD: ThirtyOneDealEnd

class Card(_message.Message):
    __slots__ = ("id", "text", "rank", "suit")
    ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    SUIT_FIELD_NUMBER: _ClassVar[int]
    id: int
    text: str
    rank: int
    suit: Suit
    def __init__(self, id: _Optional[int] = ..., text: _Optional[str] = ..., rank: _Optional[int] = ..., suit: _Optional[_Union[Suit, str]] = ...) -> None: ...

class HouseRules(_message.Message):
    __slots__ = ("ten_pennies", "thirty_one")
    TEN_PENNIES_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_FIELD_NUMBER: _ClassVar[int]
    ten_pennies: TenPenniesRules
    thirty_one: ThirtyOneRules
    def __init__(self, ten_pennies: _Optional[_Union[TenPenniesRules, _Mapping]] = ..., thirty_one: _Optional[_Union[ThirtyOneRules, _Mapping]] = ...) -> None: ...

class TenPenniesRules(_message.Message):
    __slots__ = ("preset", "distinct_suits", "all_wild_sets", "wild_layoff_cap", "discard_to_go_out", "hand_size", "buy_pennies", "buy_penalty_cards", "reshuffles", "max_turns", "rounds", "later_set_wilds")
    PRESET_FIELD_NUMBER: _ClassVar[int]
    DISTINCT_SUITS_FIELD_NUMBER: _ClassVar[int]
    ALL_WILD_SETS_FIELD_NUMBER: _ClassVar[int]
    WILD_LAYOFF_CAP_FIELD_NUMBER: _ClassVar[int]
    DISCARD_TO_GO_OUT_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    BUY_PENNIES_FIELD_NUMBER: _ClassVar[int]
    BUY_PENALTY_CARDS_FIELD_NUMBER: _ClassVar[int]
    RESHUFFLES_FIELD_NUMBER: _ClassVar[int]
    MAX_TURNS_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    LATER_SET_WILDS_FIELD_NUMBER: _ClassVar[int]
    preset: Preset
    distinct_suits: bool
    all_wild_sets: bool
    wild_layoff_cap: bool
    discard_to_go_out: bool
    hand_size: int
    buy_pennies: int
    buy_penalty_cards: int
    reshuffles: int
    max_turns: int
    rounds: _containers.RepeatedScalarFieldContainer[int]
    later_set_wilds: LaterSetWilds
    def __init__(self, preset: _Optional[_Union[Preset, str]] = ..., distinct_suits: _Optional[bool] = ..., all_wild_sets: _Optional[bool] = ..., wild_layoff_cap: _Optional[bool] = ..., discard_to_go_out: _Optional[bool] = ..., hand_size: _Optional[int] = ..., buy_pennies: _Optional[int] = ..., buy_penalty_cards: _Optional[int] = ..., reshuffles: _Optional[int] = ..., max_turns: _Optional[int] = ..., rounds: _Optional[_Iterable[int]] = ..., later_set_wilds: _Optional[_Union[LaterSetWilds, str]] = ...) -> None: ...

class ThirtyOneRules(_message.Message):
    __slots__ = ("preset", "three_of_a_kind", "discard_taken", "first_turn_knock", "blitz_after_knock", "knocker_tie", "lives", "free_ride", "tokens", "deals")
    PRESET_FIELD_NUMBER: _ClassVar[int]
    THREE_OF_A_KIND_FIELD_NUMBER: _ClassVar[int]
    DISCARD_TAKEN_FIELD_NUMBER: _ClassVar[int]
    FIRST_TURN_KNOCK_FIELD_NUMBER: _ClassVar[int]
    BLITZ_AFTER_KNOCK_FIELD_NUMBER: _ClassVar[int]
    KNOCKER_TIE_FIELD_NUMBER: _ClassVar[int]
    LIVES_FIELD_NUMBER: _ClassVar[int]
    FREE_RIDE_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    preset: ThirtyOnePreset
    three_of_a_kind: ThirtyOneThreeOfAKind
    discard_taken: bool
    first_turn_knock: bool
    blitz_after_knock: bool
    knocker_tie: ThirtyOneKnockerTie
    lives: int
    free_ride: bool
    tokens: int
    deals: int
    def __init__(self, preset: _Optional[_Union[ThirtyOnePreset, str]] = ..., three_of_a_kind: _Optional[_Union[ThirtyOneThreeOfAKind, str]] = ..., discard_taken: _Optional[bool] = ..., first_turn_knock: _Optional[bool] = ..., blitz_after_knock: _Optional[bool] = ..., knocker_tie: _Optional[_Union[ThirtyOneKnockerTie, str]] = ..., lives: _Optional[int] = ..., free_ride: _Optional[bool] = ..., tokens: _Optional[int] = ..., deals: _Optional[int] = ...) -> None: ...

class TableSettings(_message.Message):
    __slots__ = ("decision_seconds", "takeover_seconds")
    DECISION_SECONDS_FIELD_NUMBER: _ClassVar[int]
    TAKEOVER_SECONDS_FIELD_NUMBER: _ClassVar[int]
    decision_seconds: int
    takeover_seconds: int
    def __init__(self, decision_seconds: _Optional[int] = ..., takeover_seconds: _Optional[int] = ...) -> None: ...

class SeatInfo(_message.Message):
    __slots__ = ("seat", "kind", "name", "connected", "bot_playing")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CONNECTED_FIELD_NUMBER: _ClassVar[int]
    BOT_PLAYING_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: SeatKind
    name: str
    connected: bool
    bot_playing: bool
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[SeatKind, str]] = ..., name: _Optional[str] = ..., connected: _Optional[bool] = ..., bot_playing: _Optional[bool] = ...) -> None: ...

class TableInfo(_message.Message):
    __slots__ = ("table_id", "name", "seats", "status", "rules", "settings", "seat_info", "last_sequence", "seed", "expires_at", "tournament", "locked", "game")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    SEAT_INFO_FIELD_NUMBER: _ClassVar[int]
    LAST_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    LOCKED_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    name: str
    seats: int
    status: TableStatus
    rules: HouseRules
    settings: TableSettings
    seat_info: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    last_sequence: int
    seed: int
    expires_at: int
    tournament: str
    locked: bool
    game: str
    def __init__(self, table_id: _Optional[str] = ..., name: _Optional[str] = ..., seats: _Optional[int] = ..., status: _Optional[_Union[TableStatus, str]] = ..., rules: _Optional[_Union[HouseRules, _Mapping]] = ..., settings: _Optional[_Union[TableSettings, _Mapping]] = ..., seat_info: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ..., last_sequence: _Optional[int] = ..., seed: _Optional[int] = ..., expires_at: _Optional[int] = ..., tournament: _Optional[str] = ..., locked: _Optional[bool] = ..., game: _Optional[str] = ...) -> None: ...

class Command(_message.Message):
    __slots__ = ("take_discard", "decline_discard", "buy", "pass_buy", "draw", "lay_contract", "lay_set", "lay_off", "discard", "thirty_one_draw_stock", "thirty_one_take_discard", "thirty_one_discard", "thirty_one_knock", "thirty_one_stand", "thirty_one_exchange_widow", "thirty_one_keep_hand", "thirty_one_exchange_middle", "thirty_one_swap_hand", "thirty_one_renew", "thirty_one_table_swap", "thirty_one_table_swap_all")
    TAKE_DISCARD_FIELD_NUMBER: _ClassVar[int]
    DECLINE_DISCARD_FIELD_NUMBER: _ClassVar[int]
    BUY_FIELD_NUMBER: _ClassVar[int]
    PASS_BUY_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    LAY_CONTRACT_FIELD_NUMBER: _ClassVar[int]
    LAY_SET_FIELD_NUMBER: _ClassVar[int]
    LAY_OFF_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_DRAW_STOCK_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_TAKE_DISCARD_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_DISCARD_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_KNOCK_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_STAND_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_EXCHANGE_WIDOW_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_KEEP_HAND_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_EXCHANGE_MIDDLE_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_SWAP_HAND_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_RENEW_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_TABLE_SWAP_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_TABLE_SWAP_ALL_FIELD_NUMBER: _ClassVar[int]
    take_discard: TakeDiscard
    decline_discard: DeclineDiscard
    buy: Buy
    pass_buy: PassBuy
    draw: Draw
    lay_contract: LayContract
    lay_set: LaySet
    lay_off: LayOff
    discard: Discard
    thirty_one_draw_stock: ThirtyOneDrawStock
    thirty_one_take_discard: ThirtyOneTakeDiscard
    thirty_one_discard: ThirtyOneDiscard
    thirty_one_knock: ThirtyOneKnock
    thirty_one_stand: ThirtyOneStand
    thirty_one_exchange_widow: ThirtyOneExchangeWidow
    thirty_one_keep_hand: ThirtyOneKeepHand
    thirty_one_exchange_middle: ThirtyOneExchangeMiddle
    thirty_one_swap_hand: ThirtyOneSwapHand
    thirty_one_renew: ThirtyOneRenew
    thirty_one_table_swap: ThirtyOneTableSwap
    thirty_one_table_swap_all: ThirtyOneTableSwapAll
    def __init__(self, take_discard: _Optional[_Union[TakeDiscard, _Mapping]] = ..., decline_discard: _Optional[_Union[DeclineDiscard, _Mapping]] = ..., buy: _Optional[_Union[Buy, _Mapping]] = ..., pass_buy: _Optional[_Union[PassBuy, _Mapping]] = ..., draw: _Optional[_Union[Draw, _Mapping]] = ..., lay_contract: _Optional[_Union[LayContract, _Mapping]] = ..., lay_set: _Optional[_Union[LaySet, _Mapping]] = ..., lay_off: _Optional[_Union[LayOff, _Mapping]] = ..., discard: _Optional[_Union[Discard, _Mapping]] = ..., thirty_one_draw_stock: _Optional[_Union[ThirtyOneDrawStock, _Mapping]] = ..., thirty_one_take_discard: _Optional[_Union[ThirtyOneTakeDiscard, _Mapping]] = ..., thirty_one_discard: _Optional[_Union[ThirtyOneDiscard, _Mapping]] = ..., thirty_one_knock: _Optional[_Union[ThirtyOneKnock, _Mapping]] = ..., thirty_one_stand: _Optional[_Union[ThirtyOneStand, _Mapping]] = ..., thirty_one_exchange_widow: _Optional[_Union[ThirtyOneExchangeWidow, _Mapping]] = ..., thirty_one_keep_hand: _Optional[_Union[ThirtyOneKeepHand, _Mapping]] = ..., thirty_one_exchange_middle: _Optional[_Union[ThirtyOneExchangeMiddle, _Mapping]] = ..., thirty_one_swap_hand: _Optional[_Union[ThirtyOneSwapHand, _Mapping]] = ..., thirty_one_renew: _Optional[_Union[ThirtyOneRenew, _Mapping]] = ..., thirty_one_table_swap: _Optional[_Union[ThirtyOneTableSwap, _Mapping]] = ..., thirty_one_table_swap_all: _Optional[_Union[ThirtyOneTableSwapAll, _Mapping]] = ...) -> None: ...

class TakeDiscard(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DeclineDiscard(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Buy(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PassBuy(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Draw(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class CardSet(_message.Message):
    __slots__ = ("card_ids",)
    CARD_IDS_FIELD_NUMBER: _ClassVar[int]
    card_ids: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, card_ids: _Optional[_Iterable[int]] = ...) -> None: ...

class LayContract(_message.Message):
    __slots__ = ("sets",)
    SETS_FIELD_NUMBER: _ClassVar[int]
    sets: _containers.RepeatedCompositeFieldContainer[CardSet]
    def __init__(self, sets: _Optional[_Iterable[_Union[CardSet, _Mapping]]] = ...) -> None: ...

class LaySet(_message.Message):
    __slots__ = ("card_ids",)
    CARD_IDS_FIELD_NUMBER: _ClassVar[int]
    card_ids: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, card_ids: _Optional[_Iterable[int]] = ...) -> None: ...

class LayOff(_message.Message):
    __slots__ = ("card_id", "set_id")
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    SET_ID_FIELD_NUMBER: _ClassVar[int]
    card_id: int
    set_id: int
    def __init__(self, card_id: _Optional[int] = ..., set_id: _Optional[int] = ...) -> None: ...

class Discard(_message.Message):
    __slots__ = ("card_id",)
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    card_id: int
    def __init__(self, card_id: _Optional[int] = ...) -> None: ...

class ThirtyOneDrawStock(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ThirtyOneTakeDiscard(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ThirtyOneDiscard(_message.Message):
    __slots__ = ("card_id",)
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    card_id: int
    def __init__(self, card_id: _Optional[int] = ...) -> None: ...

class ThirtyOneKnock(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ThirtyOneStand(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ThirtyOneExchangeWidow(_message.Message):
    __slots__ = ("give_ids", "take_positions")
    GIVE_IDS_FIELD_NUMBER: _ClassVar[int]
    TAKE_POSITIONS_FIELD_NUMBER: _ClassVar[int]
    give_ids: _containers.RepeatedScalarFieldContainer[int]
    take_positions: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, give_ids: _Optional[_Iterable[int]] = ..., take_positions: _Optional[_Iterable[int]] = ...) -> None: ...

class ThirtyOneKeepHand(_message.Message):
    __slots__ = ("hand",)
    HAND_FIELD_NUMBER: _ClassVar[int]
    hand: int
    def __init__(self, hand: _Optional[int] = ...) -> None: ...

class ThirtyOneExchangeMiddle(_message.Message):
    __slots__ = ("card_id", "place", "slot")
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    card_id: int
    place: int
    slot: int
    def __init__(self, card_id: _Optional[int] = ..., place: _Optional[int] = ..., slot: _Optional[int] = ...) -> None: ...

class ThirtyOneSwapHand(_message.Message):
    __slots__ = ("place",)
    PLACE_FIELD_NUMBER: _ClassVar[int]
    place: int
    def __init__(self, place: _Optional[int] = ...) -> None: ...

class ThirtyOneRenew(_message.Message):
    __slots__ = ("place", "face_up")
    PLACE_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_FIELD_NUMBER: _ClassVar[int]
    place: int
    face_up: bool
    def __init__(self, place: _Optional[int] = ..., face_up: _Optional[bool] = ...) -> None: ...

class ThirtyOneTableSwap(_message.Message):
    __slots__ = ("give_id", "take_id")
    GIVE_ID_FIELD_NUMBER: _ClassVar[int]
    TAKE_ID_FIELD_NUMBER: _ClassVar[int]
    give_id: int
    take_id: int
    def __init__(self, give_id: _Optional[int] = ..., take_id: _Optional[int] = ...) -> None: ...

class ThirtyOneTableSwapAll(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Contract(_message.Message):
    __slots__ = ("sets", "size")
    SETS_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    sets: int
    size: int
    def __init__(self, sets: _Optional[int] = ..., size: _Optional[int] = ...) -> None: ...

class Player(_message.Message):
    __slots__ = ("seat", "hand_size", "pennies", "score", "down", "paid", "won")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    PENNIES_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    DOWN_FIELD_NUMBER: _ClassVar[int]
    PAID_FIELD_NUMBER: _ClassVar[int]
    WON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hand_size: int
    pennies: int
    score: int
    down: bool
    paid: int
    won: int
    def __init__(self, seat: _Optional[int] = ..., hand_size: _Optional[int] = ..., pennies: _Optional[int] = ..., score: _Optional[int] = ..., down: _Optional[bool] = ..., paid: _Optional[int] = ..., won: _Optional[int] = ...) -> None: ...

class Meld(_message.Message):
    __slots__ = ("set_id", "owner", "cards", "rank")
    SET_ID_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    set_id: int
    owner: int
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    rank: int
    def __init__(self, set_id: _Optional[int] = ..., owner: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., rank: _Optional[int] = ...) -> None: ...

class GameView(_message.Message):
    __slots__ = ("seat", "dealer", "turn_seat", "turn", "to_act", "hand", "discard_top", "pile_size", "stock_size", "legal_commands", "winners", "ten_pennies", "thirty_one")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    TURN_SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    DISCARD_TOP_FIELD_NUMBER: _ClassVar[int]
    PILE_SIZE_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_FIELD_NUMBER: _ClassVar[int]
    LEGAL_COMMANDS_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    TEN_PENNIES_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    dealer: int
    turn_seat: int
    turn: int
    to_act: _containers.RepeatedScalarFieldContainer[int]
    hand: _containers.RepeatedCompositeFieldContainer[Card]
    discard_top: Card
    pile_size: int
    stock_size: int
    legal_commands: _containers.RepeatedCompositeFieldContainer[Command]
    winners: _containers.RepeatedScalarFieldContainer[int]
    ten_pennies: TenPenniesView
    thirty_one: ThirtyOneView
    def __init__(self, seat: _Optional[int] = ..., dealer: _Optional[int] = ..., turn_seat: _Optional[int] = ..., turn: _Optional[int] = ..., to_act: _Optional[_Iterable[int]] = ..., hand: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., discard_top: _Optional[_Union[Card, _Mapping]] = ..., pile_size: _Optional[int] = ..., stock_size: _Optional[int] = ..., legal_commands: _Optional[_Iterable[_Union[Command, _Mapping]]] = ..., winners: _Optional[_Iterable[int]] = ..., ten_pennies: _Optional[_Union[TenPenniesView, _Mapping]] = ..., thirty_one: _Optional[_Union[ThirtyOneView, _Mapping]] = ...) -> None: ...

class TenPenniesView(_message.Message):
    __slots__ = ("round", "contract", "wild_ranks", "wild_cap", "phase", "players", "table", "discard_live", "pot", "reshuffles_left", "buy_offer")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    WILD_RANKS_FIELD_NUMBER: _ClassVar[int]
    WILD_CAP_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_LIVE_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    RESHUFFLES_LEFT_FIELD_NUMBER: _ClassVar[int]
    BUY_OFFER_FIELD_NUMBER: _ClassVar[int]
    round: int
    contract: Contract
    wild_ranks: _containers.RepeatedScalarFieldContainer[int]
    wild_cap: int
    phase: Phase
    players: _containers.RepeatedCompositeFieldContainer[Player]
    table: _containers.RepeatedCompositeFieldContainer[Meld]
    discard_live: bool
    pot: int
    reshuffles_left: int
    buy_offer: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, round: _Optional[int] = ..., contract: _Optional[_Union[Contract, _Mapping]] = ..., wild_ranks: _Optional[_Iterable[int]] = ..., wild_cap: _Optional[int] = ..., phase: _Optional[_Union[Phase, str]] = ..., players: _Optional[_Iterable[_Union[Player, _Mapping]]] = ..., table: _Optional[_Iterable[_Union[Meld, _Mapping]]] = ..., discard_live: _Optional[bool] = ..., pot: _Optional[int] = ..., reshuffles_left: _Optional[int] = ..., buy_offer: _Optional[_Iterable[int]] = ...) -> None: ...

class ThirtyOnePlayer(_message.Message):
    __slots__ = ("seat", "hand_size", "lives", "riding", "out", "tokens", "points")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    LIVES_FIELD_NUMBER: _ClassVar[int]
    RIDING_FIELD_NUMBER: _ClassVar[int]
    OUT_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hand_size: int
    lives: int
    riding: bool
    out: bool
    tokens: int
    points: int
    def __init__(self, seat: _Optional[int] = ..., hand_size: _Optional[int] = ..., lives: _Optional[int] = ..., riding: _Optional[bool] = ..., out: _Optional[bool] = ..., tokens: _Optional[int] = ..., points: _Optional[int] = ...) -> None: ...

class ThirtyOneSlot(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: Card
    def __init__(self, card: _Optional[_Union[Card, _Mapping]] = ...) -> None: ...

class ThirtyOneMiddleHand(_message.Message):
    __slots__ = ("place", "face_up", "up", "cards")
    PLACE_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_FIELD_NUMBER: _ClassVar[int]
    UP_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    place: int
    face_up: bool
    up: _containers.RepeatedScalarFieldContainer[bool]
    cards: _containers.RepeatedCompositeFieldContainer[ThirtyOneSlot]
    def __init__(self, place: _Optional[int] = ..., face_up: _Optional[bool] = ..., up: _Optional[_Iterable[bool]] = ..., cards: _Optional[_Iterable[_Union[ThirtyOneSlot, _Mapping]]] = ...) -> None: ...

class ThirtyOneView(_message.Message):
    __slots__ = ("deal", "phase", "players", "pile", "knocker", "final_turns", "taken", "widow", "middle", "table_cards", "centre", "value", "spare", "last_deal")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    PILE_FIELD_NUMBER: _ClassVar[int]
    KNOCKER_FIELD_NUMBER: _ClassVar[int]
    FINAL_TURNS_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    WIDOW_FIELD_NUMBER: _ClassVar[int]
    MIDDLE_FIELD_NUMBER: _ClassVar[int]
    TABLE_CARDS_FIELD_NUMBER: _ClassVar[int]
    CENTRE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    SPARE_FIELD_NUMBER: _ClassVar[int]
    LAST_DEAL_FIELD_NUMBER: _ClassVar[int]
    deal: int
    phase: ThirtyOnePhase
    players: _containers.RepeatedCompositeFieldContainer[ThirtyOnePlayer]
    pile: _containers.RepeatedCompositeFieldContainer[Card]
    knocker: int
    final_turns: _containers.RepeatedScalarFieldContainer[int]
    taken: Card
    widow: _containers.RepeatedCompositeFieldContainer[ThirtyOneSlot]
    middle: _containers.RepeatedCompositeFieldContainer[ThirtyOneMiddleHand]
    table_cards: _containers.RepeatedCompositeFieldContainer[Card]
    centre: int
    value: float
    spare: _containers.RepeatedCompositeFieldContainer[Card]
    last_deal: ThirtyOneDealEnded
    def __init__(self, deal: _Optional[int] = ..., phase: _Optional[_Union[ThirtyOnePhase, str]] = ..., players: _Optional[_Iterable[_Union[ThirtyOnePlayer, _Mapping]]] = ..., pile: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., knocker: _Optional[int] = ..., final_turns: _Optional[_Iterable[int]] = ..., taken: _Optional[_Union[Card, _Mapping]] = ..., widow: _Optional[_Iterable[_Union[ThirtyOneSlot, _Mapping]]] = ..., middle: _Optional[_Iterable[_Union[ThirtyOneMiddleHand, _Mapping]]] = ..., table_cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., centre: _Optional[int] = ..., value: _Optional[float] = ..., spare: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., last_deal: _Optional[_Union[ThirtyOneDealEnded, _Mapping]] = ...) -> None: ...

class Snapshot(_message.Message):
    __slots__ = ("table", "game", "sequence", "decision_deadline_ms", "decision")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    DECISION_DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    table: TableInfo
    game: GameView
    sequence: int
    decision_deadline_ms: int
    decision: int
    def __init__(self, table: _Optional[_Union[TableInfo, _Mapping]] = ..., game: _Optional[_Union[GameView, _Mapping]] = ..., sequence: _Optional[int] = ..., decision_deadline_ms: _Optional[int] = ..., decision: _Optional[int] = ...) -> None: ...

class GameStarted(_message.Message):
    __slots__ = ("seats", "rules")
    SEATS_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    seats: int
    rules: HouseRules
    def __init__(self, seats: _Optional[int] = ..., rules: _Optional[_Union[HouseRules, _Mapping]] = ...) -> None: ...

class DealerDraw(_message.Message):
    __slots__ = ("seat", "card", "tie_break")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    TIE_BREAK_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    tie_break: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, _Mapping]] = ..., tie_break: _Optional[int] = ...) -> None: ...

class RoundStarted(_message.Message):
    __slots__ = ("round", "dealer", "hand_size", "stock_size", "contract", "wild_ranks", "wild_cap")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    WILD_RANKS_FIELD_NUMBER: _ClassVar[int]
    WILD_CAP_FIELD_NUMBER: _ClassVar[int]
    round: int
    dealer: int
    hand_size: int
    stock_size: int
    contract: Contract
    wild_ranks: _containers.RepeatedScalarFieldContainer[int]
    wild_cap: int
    def __init__(self, round: _Optional[int] = ..., dealer: _Optional[int] = ..., hand_size: _Optional[int] = ..., stock_size: _Optional[int] = ..., contract: _Optional[_Union[Contract, _Mapping]] = ..., wild_ranks: _Optional[_Iterable[int]] = ..., wild_cap: _Optional[int] = ...) -> None: ...

class CardsReceived(_message.Message):
    __slots__ = ("seat", "cards", "reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    reason: ReceivedReason
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., reason: _Optional[_Union[ReceivedReason, str]] = ...) -> None: ...

class UpcardTurned(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: Card
    def __init__(self, card: _Optional[_Union[Card, _Mapping]] = ...) -> None: ...

class TurnStarted(_message.Message):
    __slots__ = ("seat", "turn")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    turn: int
    def __init__(self, seat: _Optional[int] = ..., turn: _Optional[int] = ...) -> None: ...

class DiscardTaken(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, _Mapping]] = ...) -> None: ...

class DiscardDeclined(_message.Message):
    __slots__ = ("seat", "card", "offered_to")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    OFFERED_TO_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    offered_to: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, _Mapping]] = ..., offered_to: _Optional[_Iterable[int]] = ...) -> None: ...

class BuyAnswered(_message.Message):
    __slots__ = ("seat", "buy")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BUY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    buy: bool
    def __init__(self, seat: _Optional[int] = ..., buy: _Optional[bool] = ...) -> None: ...

class CardBought(_message.Message):
    __slots__ = ("seat", "card", "penalty_cards", "pennies_left")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    PENALTY_CARDS_FIELD_NUMBER: _ClassVar[int]
    PENNIES_LEFT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    penalty_cards: int
    pennies_left: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, _Mapping]] = ..., penalty_cards: _Optional[int] = ..., pennies_left: _Optional[int] = ...) -> None: ...

class CardDead(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: Card
    def __init__(self, card: _Optional[_Union[Card, _Mapping]] = ...) -> None: ...

class StockDrawn(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class StockRebuilt(_message.Message):
    __slots__ = ("size", "reshuffles_left")
    SIZE_FIELD_NUMBER: _ClassVar[int]
    RESHUFFLES_LEFT_FIELD_NUMBER: _ClassVar[int]
    size: int
    reshuffles_left: int
    def __init__(self, size: _Optional[int] = ..., reshuffles_left: _Optional[int] = ...) -> None: ...

class ContractLaid(_message.Message):
    __slots__ = ("seat", "melds")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MELDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    melds: _containers.RepeatedCompositeFieldContainer[Meld]
    def __init__(self, seat: _Optional[int] = ..., melds: _Optional[_Iterable[_Union[Meld, _Mapping]]] = ...) -> None: ...

class SetLaid(_message.Message):
    __slots__ = ("seat", "meld")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MELD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    meld: Meld
    def __init__(self, seat: _Optional[int] = ..., meld: _Optional[_Union[Meld, _Mapping]] = ...) -> None: ...

class LaidOff(_message.Message):
    __slots__ = ("seat", "card", "set_id")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    SET_ID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    set_id: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, _Mapping]] = ..., set_id: _Optional[int] = ...) -> None: ...

class Discarded(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, _Mapping]] = ...) -> None: ...

class WentOut(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class Hand(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...

class RoundEnded(_message.Message):
    __slots__ = ("round", "out", "reason", "hands", "points", "scores", "pot")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    OUT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    round: int
    out: int
    reason: RoundEndReason
    hands: _containers.RepeatedCompositeFieldContainer[Hand]
    points: _containers.RepeatedScalarFieldContainer[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    pot: int
    def __init__(self, round: _Optional[int] = ..., out: _Optional[int] = ..., reason: _Optional[_Union[RoundEndReason, str]] = ..., hands: _Optional[_Iterable[_Union[Hand, _Mapping]]] = ..., points: _Optional[_Iterable[int]] = ..., scores: _Optional[_Iterable[int]] = ..., pot: _Optional[int] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("scores", "winners", "ten_pennies", "thirty_one")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    TEN_PENNIES_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    ten_pennies: TenPenniesEnd
    thirty_one: ThirtyOneEnd
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., ten_pennies: _Optional[_Union[TenPenniesEnd, _Mapping]] = ..., thirty_one: _Optional[_Union[ThirtyOneEnd, _Mapping]] = ...) -> None: ...

class TenPenniesEnd(_message.Message):
    __slots__ = ("shares",)
    SHARES_FIELD_NUMBER: _ClassVar[int]
    shares: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, shares: _Optional[_Iterable[int]] = ...) -> None: ...

class ThirtyOneEnd(_message.Message):
    __slots__ = ("players",)
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    players: _containers.RepeatedCompositeFieldContainer[ThirtyOnePlayer]
    def __init__(self, players: _Optional[_Iterable[_Union[ThirtyOnePlayer, _Mapping]]] = ...) -> None: ...

class ThirtyOneDealStarted(_message.Message):
    __slots__ = ("deal", "dealer", "players", "centre", "stock_size")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    CENTRE_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_FIELD_NUMBER: _ClassVar[int]
    deal: int
    dealer: int
    players: _containers.RepeatedCompositeFieldContainer[ThirtyOnePlayer]
    centre: int
    stock_size: int
    def __init__(self, deal: _Optional[int] = ..., dealer: _Optional[int] = ..., players: _Optional[_Iterable[_Union[ThirtyOnePlayer, _Mapping]]] = ..., centre: _Optional[int] = ..., stock_size: _Optional[int] = ...) -> None: ...

class ThirtyOneCardsReceived(_message.Message):
    __slots__ = ("seat", "cards", "reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    reason: ThirtyOneReceivedReason
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., reason: _Optional[_Union[ThirtyOneReceivedReason, str]] = ...) -> None: ...

class ThirtyOneUpcardTurned(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: Card
    def __init__(self, card: _Optional[_Union[Card, _Mapping]] = ...) -> None: ...

class ThirtyOneWidowDealt(_message.Message):
    __slots__ = ("size",)
    SIZE_FIELD_NUMBER: _ClassVar[int]
    size: int
    def __init__(self, size: _Optional[int] = ...) -> None: ...

class ThirtyOneMiddleDealt(_message.Message):
    __slots__ = ("place", "size")
    PLACE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    place: int
    size: int
    def __init__(self, place: _Optional[int] = ..., size: _Optional[int] = ...) -> None: ...

class ThirtyOneHandKept(_message.Message):
    __slots__ = ("seat", "hand", "place", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hand: int
    place: int
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, seat: _Optional[int] = ..., hand: _Optional[int] = ..., place: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...

class ThirtyOneTableCardsTurned(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...

class ThirtyOneTurnStarted(_message.Message):
    __slots__ = ("seat", "turn", "final")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    turn: int
    final: bool
    def __init__(self, seat: _Optional[int] = ..., turn: _Optional[int] = ..., final: _Optional[bool] = ...) -> None: ...

class ThirtyOneStockDrawn(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class ThirtyOneDiscardTaken(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, _Mapping]] = ...) -> None: ...

class ThirtyOneDiscarded(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, _Mapping]] = ...) -> None: ...

class ThirtyOneKnocked(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class ThirtyOneStood(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class ThirtyOneWidowExchanged(_message.Message):
    __slots__ = ("seat", "given", "positions", "taken", "widow")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GIVEN_FIELD_NUMBER: _ClassVar[int]
    POSITIONS_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    WIDOW_FIELD_NUMBER: _ClassVar[int]
    seat: int
    given: _containers.RepeatedCompositeFieldContainer[Card]
    positions: _containers.RepeatedScalarFieldContainer[int]
    taken: _containers.RepeatedCompositeFieldContainer[ThirtyOneSlot]
    widow: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, seat: _Optional[int] = ..., given: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., positions: _Optional[_Iterable[int]] = ..., taken: _Optional[_Iterable[_Union[ThirtyOneSlot, _Mapping]]] = ..., widow: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...

class ThirtyOneMiddleExchanged(_message.Message):
    __slots__ = ("seat", "place", "slot", "given", "taken")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    GIVEN_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    place: int
    slot: int
    given: Card
    taken: ThirtyOneSlot
    def __init__(self, seat: _Optional[int] = ..., place: _Optional[int] = ..., slot: _Optional[int] = ..., given: _Optional[_Union[Card, _Mapping]] = ..., taken: _Optional[_Union[ThirtyOneSlot, _Mapping]] = ...) -> None: ...

class ThirtyOneHandSwapped(_message.Message):
    __slots__ = ("seat", "place", "taken", "given")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    GIVEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    place: int
    taken: _containers.RepeatedCompositeFieldContainer[ThirtyOneSlot]
    given: _containers.RepeatedCompositeFieldContainer[ThirtyOneSlot]
    def __init__(self, seat: _Optional[int] = ..., place: _Optional[int] = ..., taken: _Optional[_Iterable[_Union[ThirtyOneSlot, _Mapping]]] = ..., given: _Optional[_Iterable[_Union[ThirtyOneSlot, _Mapping]]] = ...) -> None: ...

class ThirtyOneHandRenewed(_message.Message):
    __slots__ = ("seat", "place", "face_up", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    place: int
    face_up: bool
    cards: _containers.RepeatedCompositeFieldContainer[ThirtyOneSlot]
    def __init__(self, seat: _Optional[int] = ..., place: _Optional[int] = ..., face_up: _Optional[bool] = ..., cards: _Optional[_Iterable[_Union[ThirtyOneSlot, _Mapping]]] = ...) -> None: ...

class ThirtyOneTableSwapped(_message.Message):
    __slots__ = ("seat", "given", "taken")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GIVEN_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    given: _containers.RepeatedCompositeFieldContainer[Card]
    taken: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, seat: _Optional[int] = ..., given: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., taken: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...

class ThirtyOneDealEnded(_message.Message):
    __slots__ = ("deal", "how", "knocker", "blitzer", "hands", "values", "places", "lost", "scored", "paid", "won", "went_out", "players", "centre")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    HOW_FIELD_NUMBER: _ClassVar[int]
    KNOCKER_FIELD_NUMBER: _ClassVar[int]
    BLITZER_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    PLACES_FIELD_NUMBER: _ClassVar[int]
    LOST_FIELD_NUMBER: _ClassVar[int]
    SCORED_FIELD_NUMBER: _ClassVar[int]
    PAID_FIELD_NUMBER: _ClassVar[int]
    WON_FIELD_NUMBER: _ClassVar[int]
    WENT_OUT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    CENTRE_FIELD_NUMBER: _ClassVar[int]
    deal: int
    how: ThirtyOneDealEnd
    knocker: int
    blitzer: int
    hands: _containers.RepeatedCompositeFieldContainer[Hand]
    values: _containers.RepeatedScalarFieldContainer[float]
    places: _containers.RepeatedScalarFieldContainer[int]
    lost: _containers.RepeatedScalarFieldContainer[int]
    scored: _containers.RepeatedScalarFieldContainer[int]
    paid: _containers.RepeatedScalarFieldContainer[int]
    won: _containers.RepeatedScalarFieldContainer[int]
    went_out: _containers.RepeatedScalarFieldContainer[int]
    players: _containers.RepeatedCompositeFieldContainer[ThirtyOnePlayer]
    centre: int
    def __init__(self, deal: _Optional[int] = ..., how: _Optional[_Union[ThirtyOneDealEnd, str]] = ..., knocker: _Optional[int] = ..., blitzer: _Optional[int] = ..., hands: _Optional[_Iterable[_Union[Hand, _Mapping]]] = ..., values: _Optional[_Iterable[float]] = ..., places: _Optional[_Iterable[int]] = ..., lost: _Optional[_Iterable[int]] = ..., scored: _Optional[_Iterable[int]] = ..., paid: _Optional[_Iterable[int]] = ..., won: _Optional[_Iterable[int]] = ..., went_out: _Optional[_Iterable[int]] = ..., players: _Optional[_Iterable[_Union[ThirtyOnePlayer, _Mapping]]] = ..., centre: _Optional[int] = ...) -> None: ...

class SeatChanged(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: SeatInfo
    def __init__(self, seat: _Optional[_Union[SeatInfo, _Mapping]] = ...) -> None: ...

class ChatPosted(_message.Message):
    __slots__ = ("seat", "name", "text")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    text: str
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class TimerExpired(_message.Message):
    __slots__ = ("seat", "command")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    command: Command
    def __init__(self, seat: _Optional[int] = ..., command: _Optional[_Union[Command, _Mapping]] = ...) -> None: ...

class DecisionRequest(_message.Message):
    __slots__ = ("seat", "legal_commands", "deadline_ms")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LEGAL_COMMANDS_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    legal_commands: _containers.RepeatedCompositeFieldContainer[Command]
    deadline_ms: int
    def __init__(self, seat: _Optional[int] = ..., legal_commands: _Optional[_Iterable[_Union[Command, _Mapping]]] = ..., deadline_ms: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("sequence", "time_ms", "game_started", "dealer_draw", "round_started", "cards_received", "upcard_turned", "turn_started", "discard_taken", "discard_declined", "buy_answered", "card_bought", "card_dead", "stock_drawn", "stock_rebuilt", "contract_laid", "set_laid", "laid_off", "discarded", "went_out", "round_ended", "game_ended", "thirty_one_deal_started", "thirty_one_cards_received", "thirty_one_upcard_turned", "thirty_one_widow_dealt", "thirty_one_middle_dealt", "thirty_one_hand_kept", "thirty_one_table_cards_turned", "thirty_one_turn_started", "thirty_one_stock_drawn", "thirty_one_discard_taken", "thirty_one_discarded", "thirty_one_knocked", "thirty_one_stood", "thirty_one_widow_exchanged", "thirty_one_middle_exchanged", "thirty_one_hand_swapped", "thirty_one_hand_renewed", "thirty_one_table_swapped", "thirty_one_deal_ended", "seat_changed", "chat_posted", "timer_expired", "decision_request")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    TIME_MS_FIELD_NUMBER: _ClassVar[int]
    GAME_STARTED_FIELD_NUMBER: _ClassVar[int]
    DEALER_DRAW_FIELD_NUMBER: _ClassVar[int]
    ROUND_STARTED_FIELD_NUMBER: _ClassVar[int]
    CARDS_RECEIVED_FIELD_NUMBER: _ClassVar[int]
    UPCARD_TURNED_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    DISCARD_TAKEN_FIELD_NUMBER: _ClassVar[int]
    DISCARD_DECLINED_FIELD_NUMBER: _ClassVar[int]
    BUY_ANSWERED_FIELD_NUMBER: _ClassVar[int]
    CARD_BOUGHT_FIELD_NUMBER: _ClassVar[int]
    CARD_DEAD_FIELD_NUMBER: _ClassVar[int]
    STOCK_DRAWN_FIELD_NUMBER: _ClassVar[int]
    STOCK_REBUILT_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_LAID_FIELD_NUMBER: _ClassVar[int]
    SET_LAID_FIELD_NUMBER: _ClassVar[int]
    LAID_OFF_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    WENT_OUT_FIELD_NUMBER: _ClassVar[int]
    ROUND_ENDED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_DEAL_STARTED_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_CARDS_RECEIVED_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_UPCARD_TURNED_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_WIDOW_DEALT_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_MIDDLE_DEALT_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_HAND_KEPT_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_TABLE_CARDS_TURNED_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_STOCK_DRAWN_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_DISCARD_TAKEN_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_KNOCKED_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_STOOD_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_WIDOW_EXCHANGED_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_MIDDLE_EXCHANGED_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_HAND_SWAPPED_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_HAND_RENEWED_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_TABLE_SWAPPED_FIELD_NUMBER: _ClassVar[int]
    THIRTY_ONE_DEAL_ENDED_FIELD_NUMBER: _ClassVar[int]
    SEAT_CHANGED_FIELD_NUMBER: _ClassVar[int]
    CHAT_POSTED_FIELD_NUMBER: _ClassVar[int]
    TIMER_EXPIRED_FIELD_NUMBER: _ClassVar[int]
    DECISION_REQUEST_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    time_ms: int
    game_started: GameStarted
    dealer_draw: DealerDraw
    round_started: RoundStarted
    cards_received: CardsReceived
    upcard_turned: UpcardTurned
    turn_started: TurnStarted
    discard_taken: DiscardTaken
    discard_declined: DiscardDeclined
    buy_answered: BuyAnswered
    card_bought: CardBought
    card_dead: CardDead
    stock_drawn: StockDrawn
    stock_rebuilt: StockRebuilt
    contract_laid: ContractLaid
    set_laid: SetLaid
    laid_off: LaidOff
    discarded: Discarded
    went_out: WentOut
    round_ended: RoundEnded
    game_ended: GameEnded
    thirty_one_deal_started: ThirtyOneDealStarted
    thirty_one_cards_received: ThirtyOneCardsReceived
    thirty_one_upcard_turned: ThirtyOneUpcardTurned
    thirty_one_widow_dealt: ThirtyOneWidowDealt
    thirty_one_middle_dealt: ThirtyOneMiddleDealt
    thirty_one_hand_kept: ThirtyOneHandKept
    thirty_one_table_cards_turned: ThirtyOneTableCardsTurned
    thirty_one_turn_started: ThirtyOneTurnStarted
    thirty_one_stock_drawn: ThirtyOneStockDrawn
    thirty_one_discard_taken: ThirtyOneDiscardTaken
    thirty_one_discarded: ThirtyOneDiscarded
    thirty_one_knocked: ThirtyOneKnocked
    thirty_one_stood: ThirtyOneStood
    thirty_one_widow_exchanged: ThirtyOneWidowExchanged
    thirty_one_middle_exchanged: ThirtyOneMiddleExchanged
    thirty_one_hand_swapped: ThirtyOneHandSwapped
    thirty_one_hand_renewed: ThirtyOneHandRenewed
    thirty_one_table_swapped: ThirtyOneTableSwapped
    thirty_one_deal_ended: ThirtyOneDealEnded
    seat_changed: SeatChanged
    chat_posted: ChatPosted
    timer_expired: TimerExpired
    decision_request: DecisionRequest
    def __init__(self, sequence: _Optional[int] = ..., time_ms: _Optional[int] = ..., game_started: _Optional[_Union[GameStarted, _Mapping]] = ..., dealer_draw: _Optional[_Union[DealerDraw, _Mapping]] = ..., round_started: _Optional[_Union[RoundStarted, _Mapping]] = ..., cards_received: _Optional[_Union[CardsReceived, _Mapping]] = ..., upcard_turned: _Optional[_Union[UpcardTurned, _Mapping]] = ..., turn_started: _Optional[_Union[TurnStarted, _Mapping]] = ..., discard_taken: _Optional[_Union[DiscardTaken, _Mapping]] = ..., discard_declined: _Optional[_Union[DiscardDeclined, _Mapping]] = ..., buy_answered: _Optional[_Union[BuyAnswered, _Mapping]] = ..., card_bought: _Optional[_Union[CardBought, _Mapping]] = ..., card_dead: _Optional[_Union[CardDead, _Mapping]] = ..., stock_drawn: _Optional[_Union[StockDrawn, _Mapping]] = ..., stock_rebuilt: _Optional[_Union[StockRebuilt, _Mapping]] = ..., contract_laid: _Optional[_Union[ContractLaid, _Mapping]] = ..., set_laid: _Optional[_Union[SetLaid, _Mapping]] = ..., laid_off: _Optional[_Union[LaidOff, _Mapping]] = ..., discarded: _Optional[_Union[Discarded, _Mapping]] = ..., went_out: _Optional[_Union[WentOut, _Mapping]] = ..., round_ended: _Optional[_Union[RoundEnded, _Mapping]] = ..., game_ended: _Optional[_Union[GameEnded, _Mapping]] = ..., thirty_one_deal_started: _Optional[_Union[ThirtyOneDealStarted, _Mapping]] = ..., thirty_one_cards_received: _Optional[_Union[ThirtyOneCardsReceived, _Mapping]] = ..., thirty_one_upcard_turned: _Optional[_Union[ThirtyOneUpcardTurned, _Mapping]] = ..., thirty_one_widow_dealt: _Optional[_Union[ThirtyOneWidowDealt, _Mapping]] = ..., thirty_one_middle_dealt: _Optional[_Union[ThirtyOneMiddleDealt, _Mapping]] = ..., thirty_one_hand_kept: _Optional[_Union[ThirtyOneHandKept, _Mapping]] = ..., thirty_one_table_cards_turned: _Optional[_Union[ThirtyOneTableCardsTurned, _Mapping]] = ..., thirty_one_turn_started: _Optional[_Union[ThirtyOneTurnStarted, _Mapping]] = ..., thirty_one_stock_drawn: _Optional[_Union[ThirtyOneStockDrawn, _Mapping]] = ..., thirty_one_discard_taken: _Optional[_Union[ThirtyOneDiscardTaken, _Mapping]] = ..., thirty_one_discarded: _Optional[_Union[ThirtyOneDiscarded, _Mapping]] = ..., thirty_one_knocked: _Optional[_Union[ThirtyOneKnocked, _Mapping]] = ..., thirty_one_stood: _Optional[_Union[ThirtyOneStood, _Mapping]] = ..., thirty_one_widow_exchanged: _Optional[_Union[ThirtyOneWidowExchanged, _Mapping]] = ..., thirty_one_middle_exchanged: _Optional[_Union[ThirtyOneMiddleExchanged, _Mapping]] = ..., thirty_one_hand_swapped: _Optional[_Union[ThirtyOneHandSwapped, _Mapping]] = ..., thirty_one_hand_renewed: _Optional[_Union[ThirtyOneHandRenewed, _Mapping]] = ..., thirty_one_table_swapped: _Optional[_Union[ThirtyOneTableSwapped, _Mapping]] = ..., thirty_one_deal_ended: _Optional[_Union[ThirtyOneDealEnded, _Mapping]] = ..., seat_changed: _Optional[_Union[SeatChanged, _Mapping]] = ..., chat_posted: _Optional[_Union[ChatPosted, _Mapping]] = ..., timer_expired: _Optional[_Union[TimerExpired, _Mapping]] = ..., decision_request: _Optional[_Union[DecisionRequest, _Mapping]] = ...) -> None: ...

class CreateTableRequest(_message.Message):
    __slots__ = ("name", "seats", "rules", "settings", "seed", "password", "game")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    seats: int
    rules: HouseRules
    settings: TableSettings
    seed: int
    password: str
    game: str
    def __init__(self, name: _Optional[str] = ..., seats: _Optional[int] = ..., rules: _Optional[_Union[HouseRules, _Mapping]] = ..., settings: _Optional[_Union[TableSettings, _Mapping]] = ..., seed: _Optional[int] = ..., password: _Optional[str] = ..., game: _Optional[str] = ...) -> None: ...

class CreateTableResponse(_message.Message):
    __slots__ = ("table", "host_token")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    HOST_TOKEN_FIELD_NUMBER: _ClassVar[int]
    table: TableInfo
    host_token: str
    def __init__(self, table: _Optional[_Union[TableInfo, _Mapping]] = ..., host_token: _Optional[str] = ...) -> None: ...

class ListTablesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListTablesResponse(_message.Message):
    __slots__ = ("tables",)
    TABLES_FIELD_NUMBER: _ClassVar[int]
    tables: _containers.RepeatedCompositeFieldContainer[TableInfo]
    def __init__(self, tables: _Optional[_Iterable[_Union[TableInfo, _Mapping]]] = ...) -> None: ...

class WatchTablesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class WatchTablesResponse(_message.Message):
    __slots__ = ("tables", "removed")
    TABLES_FIELD_NUMBER: _ClassVar[int]
    REMOVED_FIELD_NUMBER: _ClassVar[int]
    tables: _containers.RepeatedCompositeFieldContainer[TableInfo]
    removed: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, tables: _Optional[_Iterable[_Union[TableInfo, _Mapping]]] = ..., removed: _Optional[_Iterable[str]] = ...) -> None: ...

class JoinTableRequest(_message.Message):
    __slots__ = ("table_id", "name", "seat", "password")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    name: str
    seat: int
    password: str
    def __init__(self, table_id: _Optional[str] = ..., name: _Optional[str] = ..., seat: _Optional[int] = ..., password: _Optional[str] = ...) -> None: ...

class JoinTableResponse(_message.Message):
    __slots__ = ("seat", "token")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    token: str
    def __init__(self, seat: _Optional[int] = ..., token: _Optional[str] = ...) -> None: ...

class LeaveTableRequest(_message.Message):
    __slots__ = ("table_id", "token")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class LeaveTableResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AddBotRequest(_message.Message):
    __slots__ = ("table_id", "seat", "strategy", "host_token")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STRATEGY_FIELD_NUMBER: _ClassVar[int]
    HOST_TOKEN_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    strategy: BotStrategy
    host_token: str
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., strategy: _Optional[_Union[BotStrategy, str]] = ..., host_token: _Optional[str] = ...) -> None: ...

class AddBotResponse(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class RemoveSeatRequest(_message.Message):
    __slots__ = ("table_id", "seat", "host_token")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HOST_TOKEN_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    host_token: str
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., host_token: _Optional[str] = ...) -> None: ...

class RemoveSeatResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class CloseTableRequest(_message.Message):
    __slots__ = ("table_id", "host_token")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    HOST_TOKEN_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    host_token: str
    def __init__(self, table_id: _Optional[str] = ..., host_token: _Optional[str] = ...) -> None: ...

class CloseTableResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class StartGameRequest(_message.Message):
    __slots__ = ("table_id", "host_token")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    HOST_TOKEN_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    host_token: str
    def __init__(self, table_id: _Optional[str] = ..., host_token: _Optional[str] = ...) -> None: ...

class StartGameResponse(_message.Message):
    __slots__ = ("table",)
    TABLE_FIELD_NUMBER: _ClassVar[int]
    table: TableInfo
    def __init__(self, table: _Optional[_Union[TableInfo, _Mapping]] = ...) -> None: ...

class SubscribeRequest(_message.Message):
    __slots__ = ("table_id", "token", "from_sequence", "password")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    FROM_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    from_sequence: int
    password: str
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ..., from_sequence: _Optional[int] = ..., password: _Optional[str] = ...) -> None: ...

class EventBatch(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ...) -> None: ...

class SubscribeResponse(_message.Message):
    __slots__ = ("snapshot", "events")
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    snapshot: Snapshot
    events: EventBatch
    def __init__(self, snapshot: _Optional[_Union[Snapshot, _Mapping]] = ..., events: _Optional[_Union[EventBatch, _Mapping]] = ...) -> None: ...

class SendCommandRequest(_message.Message):
    __slots__ = ("table_id", "token", "command", "decision")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    command: Command
    decision: int
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ..., command: _Optional[_Union[Command, _Mapping]] = ..., decision: _Optional[int] = ...) -> None: ...

class SendCommandResponse(_message.Message):
    __slots__ = ("sequence",)
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    def __init__(self, sequence: _Optional[int] = ...) -> None: ...

class PlayRequest(_message.Message):
    __slots__ = ("table_id", "token", "password", "from_sequence", "id", "command", "decision")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    FROM_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    password: str
    from_sequence: int
    id: int
    command: Command
    decision: int
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ..., password: _Optional[str] = ..., from_sequence: _Optional[int] = ..., id: _Optional[int] = ..., command: _Optional[_Union[Command, _Mapping]] = ..., decision: _Optional[int] = ...) -> None: ...

class PlayResult(_message.Message):
    __slots__ = ("id", "code", "sequence", "message", "rule", "open_decision")
    ID_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    OPEN_DECISION_FIELD_NUMBER: _ClassVar[int]
    id: int
    code: int
    sequence: int
    message: str
    rule: str
    open_decision: int
    def __init__(self, id: _Optional[int] = ..., code: _Optional[int] = ..., sequence: _Optional[int] = ..., message: _Optional[str] = ..., rule: _Optional[str] = ..., open_decision: _Optional[int] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("snapshot", "events", "results")
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    snapshot: Snapshot
    events: EventBatch
    results: _containers.RepeatedCompositeFieldContainer[PlayResult]
    def __init__(self, snapshot: _Optional[_Union[Snapshot, _Mapping]] = ..., events: _Optional[_Union[EventBatch, _Mapping]] = ..., results: _Optional[_Iterable[_Union[PlayResult, _Mapping]]] = ...) -> None: ...

class GetSnapshotRequest(_message.Message):
    __slots__ = ("table_id", "token", "password")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    password: str
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ..., password: _Optional[str] = ...) -> None: ...

class GetSnapshotResponse(_message.Message):
    __slots__ = ("snapshot",)
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    snapshot: Snapshot
    def __init__(self, snapshot: _Optional[_Union[Snapshot, _Mapping]] = ...) -> None: ...

class GetGameRecordRequest(_message.Message):
    __slots__ = ("table_id", "token", "password")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    password: str
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ..., password: _Optional[str] = ...) -> None: ...

class GetGameRecordResponse(_message.Message):
    __slots__ = ("record",)
    RECORD_FIELD_NUMBER: _ClassVar[int]
    record: GameRecord
    def __init__(self, record: _Optional[_Union[GameRecord, _Mapping]] = ...) -> None: ...

class GameRecord(_message.Message):
    __slots__ = ("table_id", "name", "seats", "game", "rules", "seed", "status", "names", "commands")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    COMMANDS_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    name: str
    seats: int
    game: str
    rules: HouseRules
    seed: int
    status: TableStatus
    names: _containers.RepeatedScalarFieldContainer[str]
    commands: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, table_id: _Optional[str] = ..., name: _Optional[str] = ..., seats: _Optional[int] = ..., game: _Optional[str] = ..., rules: _Optional[_Union[HouseRules, _Mapping]] = ..., seed: _Optional[int] = ..., status: _Optional[_Union[TableStatus, str]] = ..., names: _Optional[_Iterable[str]] = ..., commands: _Optional[_Iterable[str]] = ...) -> None: ...

class SendChatRequest(_message.Message):
    __slots__ = ("table_id", "token", "text", "name", "password")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    token: str
    text: str
    name: str
    password: str
    def __init__(self, table_id: _Optional[str] = ..., token: _Optional[str] = ..., text: _Optional[str] = ..., name: _Optional[str] = ..., password: _Optional[str] = ...) -> None: ...

class SendChatResponse(_message.Message):
    __slots__ = ("sequence",)
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    def __init__(self, sequence: _Optional[int] = ...) -> None: ...

class RegisterBotRequest(_message.Message):
    __slots__ = ("tournament", "name", "bot_token")
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament: str
    name: str
    bot_token: str
    def __init__(self, tournament: _Optional[str] = ..., name: _Optional[str] = ..., bot_token: _Optional[str] = ...) -> None: ...

class RegisterBotResponse(_message.Message):
    __slots__ = ("bot_token",)
    BOT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    bot_token: str
    def __init__(self, bot_token: _Optional[str] = ...) -> None: ...

class WaitForSeatRequest(_message.Message):
    __slots__ = ("bot_token",)
    BOT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    bot_token: str
    def __init__(self, bot_token: _Optional[str] = ...) -> None: ...

class WaitForSeatResponse(_message.Message):
    __slots__ = ("table_id", "seat", "token", "game")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    token: str
    game: int
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., token: _Optional[str] = ..., game: _Optional[int] = ...) -> None: ...

class GetStandingsRequest(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: str
    def __init__(self, tournament: _Optional[str] = ...) -> None: ...

class Standing(_message.Message):
    __slots__ = ("name", "games", "wins", "mean_score", "rating_mu", "rating_sigma", "mean_score_margin", "illegal", "timed_out", "shared_wins", "tallies")
    class TalliesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    MEAN_SCORE_FIELD_NUMBER: _ClassVar[int]
    RATING_MU_FIELD_NUMBER: _ClassVar[int]
    RATING_SIGMA_FIELD_NUMBER: _ClassVar[int]
    MEAN_SCORE_MARGIN_FIELD_NUMBER: _ClassVar[int]
    ILLEGAL_FIELD_NUMBER: _ClassVar[int]
    TIMED_OUT_FIELD_NUMBER: _ClassVar[int]
    SHARED_WINS_FIELD_NUMBER: _ClassVar[int]
    TALLIES_FIELD_NUMBER: _ClassVar[int]
    name: str
    games: int
    wins: int
    mean_score: float
    rating_mu: float
    rating_sigma: float
    mean_score_margin: float
    illegal: int
    timed_out: int
    shared_wins: float
    tallies: _containers.ScalarMap[str, int]
    def __init__(self, name: _Optional[str] = ..., games: _Optional[int] = ..., wins: _Optional[int] = ..., mean_score: _Optional[float] = ..., rating_mu: _Optional[float] = ..., rating_sigma: _Optional[float] = ..., mean_score_margin: _Optional[float] = ..., illegal: _Optional[int] = ..., timed_out: _Optional[int] = ..., shared_wins: _Optional[float] = ..., tallies: _Optional[_Mapping[str, int]] = ...) -> None: ...

class GetStandingsResponse(_message.Message):
    __slots__ = ("tournament", "standings", "games_played", "games_total", "games_playing", "game", "tallies")
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    GAMES_PLAYED_FIELD_NUMBER: _ClassVar[int]
    GAMES_TOTAL_FIELD_NUMBER: _ClassVar[int]
    GAMES_PLAYING_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    TALLIES_FIELD_NUMBER: _ClassVar[int]
    tournament: str
    standings: _containers.RepeatedCompositeFieldContainer[Standing]
    games_played: int
    games_total: int
    games_playing: int
    game: str
    tallies: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, tournament: _Optional[str] = ..., standings: _Optional[_Iterable[_Union[Standing, _Mapping]]] = ..., games_played: _Optional[int] = ..., games_total: _Optional[int] = ..., games_playing: _Optional[int] = ..., game: _Optional[str] = ..., tallies: _Optional[_Iterable[str]] = ...) -> None: ...
