"""The house rules are declared once (``HouseRules``' fields, listed as ``KNOBS``): validation, ``--rule``,
the plain dict, the wire both ways and the README's table all follow the declarations, and the wire's
enum <-> word tables each cover their enum.

Run as a script (``python tests/test_house_rules.py``) it rewrites the README's table of knobs."""

from __future__ import annotations

import re
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from google.protobuf.descriptor import FieldDescriptor

from tenpennies.client import cli
from tenpennies.engine.games import GAMES
from tenpennies.engine.ten_pennies import Game, HouseRules, RuleError
from tenpennies.engine.ten_pennies.bots import BOTS
from tenpennies.engine.ten_pennies.rules import KNOBS, Knob, knob_named, knobs_table
from tenpennies.engine.thirty_one.bots import BOTS as THIRTY_ONE_BOTS
from tenpennies.engine.thirty_one.rules import KNOBS as THIRTY_ONE_KNOBS
from tenpennies.server.table import Settings
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire import ten_pennies as mapping
from tenpennies.wire import thirty_one as thirty_one_wire
from tenpennies.wire import words
from tenpennies.wire.errors import BadRequest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
TABLE = re.compile(r"(<!-- knobs: .*? -->\n)(.*?)(<!-- end of knobs -->)", re.S)
# A value of each knob other than its default, and a text --rule refuses for it.
OTHER: dict[str, Any] = {"preset": "deuces", "distinct_suits": False, "all_wild_sets": False, "wild_layoff_cap": True,
         "discard_to_go_out": True, "later_set_wilds": "one_per_three", "hand_size": 9, "buy_pennies": 3,
         "buy_penalty_cards": 1, "reshuffles": 0, "max_turns": 40, "rounds": (2, 5)}
BAD = {"preset": "jokers", "distinct_suits": "maybe", "all_wild_sets": "1", "wild_layoff_cap": "",
       "discard_to_go_out": "sometimes", "later_set_wilds": "one_per_set", "hand_size": "0", "buy_pennies": "ten",
       "buy_penalty_cards": "101", "reshuffles": "-1", "max_turns": "100001", "rounds": "3,2"}


def test_every_knob_is_a_field_of_house_rules_with_its_declared_default() -> None:
    assert [k.name for k in KNOBS] == [f.name for f in fields(HouseRules)] == list(OTHER) == list(BAD)
    defaults = HouseRules()
    for knob in KNOBS:
        assert getattr(defaults, knob.name) == knob.default and knob.kind is type(OTHER[knob.name])
        assert re.fullmatch(r"TP-\d\.\d+", knob.rule) and knob.label and knob.help


@pytest.mark.parametrize("knob", KNOBS, ids=lambda k: k.name)
def test_each_knob_both_ways_through_rule_text_dict_and_wire(knob: Knob) -> None:
    value = OTHER[knob.name]
    rules = HouseRules(**{knob.name: value})
    assert HouseRules.from_settings([f"{knob.name}={knob.word(value)}"]) == rules
    assert HouseRules.from_settings([f"{knob.name.replace('_', '-')}={knob.word(knob.default)}"]) == HouseRules()
    assert HouseRules.from_dict(rules.to_dict()) == rules
    assert mapping.rules_from_pb(mapping.rules_to_pb(rules)) == rules
    assert mapping.rules_from_pb(mapping.rules_to_pb(HouseRules())) == HouseRules()
    Game(2, rules)  # the engine takes it


@pytest.mark.parametrize("knob", KNOBS, ids=lambda k: k.name)
def test_a_bad_rule_setting_is_refused_naming_the_knob_and_what_it_takes(knob: Knob) -> None:
    with pytest.raises(RuleError, match="TP-6") as refused:
        HouseRules.from_settings([f"{knob.name}={BAD[knob.name]}"])
    assert refused.value.message.startswith(f"{knob.name} takes {knob.takes}, not ")


def test_an_unknown_rule_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(RuleError, match="TP-6: no such house rule: jokers_wild") as refused:
        HouseRules.from_settings(["jokers-wild=on"])
    assert all(k.name in str(refused.value) for k in KNOBS)
    with pytest.raises(RuleError, match="TP-6: no such house rule: nope"):
        knob_named("nope")


def test_a_bad_rule_on_the_command_line_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["bots", "--rule", "hand_size=many"])
    assert exited.value.code == 2
    assert "TP-6: hand_size takes a whole number of at least 1, not 'many'" in capsys.readouterr().err


def test_the_proto_has_a_field_of_each_knob_by_its_name_and_kind() -> None:
    # HouseRules holds one game's rules, each game's a message of its own
    assert set(pb.HouseRules.DESCRIPTOR.fields_by_name) == set(GAMES)
    assert [f.name for f in pb.HouseRules.DESCRIPTOR.oneofs_by_name["game"].fields] == list(GAMES)
    described = pb.TenPenniesRules.DESCRIPTOR.fields_by_name
    assert set(described) == {k.name for k in KNOBS}
    for knob in KNOBS:
        field = described[knob.name]
        if knob.kind is tuple:
            assert field.is_repeated and field.type == FieldDescriptor.TYPE_UINT32
        elif knob.choices:
            assert field.enum_type is not None
            assert set(mapping.KNOB_ENUMS[knob.name]) == set(knob.words)
            assert set(mapping.KNOB_WORDS[knob.name]) == {v.number for v in field.enum_type.values}
            assert mapping.KNOB_WORDS[knob.name][0] == knob.default  # unset: the default
        else:
            assert field.has_presence, f"{knob.name}: unset must be told from 0 or off"
            assert field.type == (FieldDescriptor.TYPE_BOOL if knob.kind is bool else FieldDescriptor.TYPE_UINT32)


def test_an_unset_proto_field_means_the_default_so_old_clients_keep_working() -> None:
    assert mapping.rules_from_pb(pb.HouseRules()) == HouseRules()
    assert mapping.rules_from_pb(pb.HouseRules(ten_pennies=pb.TenPenniesRules(hand_size=9))) == HouseRules(hand_size=9)
    for knob, bad in (("preset", pb.TenPenniesRules(preset=9)),  # type: ignore[arg-type]
                      ("later_set_wilds", pb.TenPenniesRules(later_set_wilds=7))):  # type: ignore[arg-type]
        with pytest.raises(BadRequest) as refused:
            mapping.rules_from_pb(pb.HouseRules(ten_pennies=bad))
        number = getattr(bad, knob)
        assert str(refused.value) == f"rules.ten_pennies.{knob}: unknown {knob} {number}"


def test_the_proto_has_a_field_of_each_thirty_one_knob_by_its_name_and_kind() -> None:
    described = pb.ThirtyOneRules.DESCRIPTOR.fields_by_name
    assert set(described) == {k.name for k in THIRTY_ONE_KNOBS}
    for knob in THIRTY_ONE_KNOBS:
        field = described[knob.name]
        if knob.choices:
            assert field.enum_type is not None
            assert set(thirty_one_wire.KNOB_ENUMS[knob.name]) == set(knob.words)
            # unset (0): the preset's value, so no word of its own
            assert set(thirty_one_wire.KNOB_WORDS[knob.name]) == {v.number for v in field.enum_type.values} - {0}
        else:
            assert field.has_presence, f"{knob.name}: unset (the preset's) must be told from 0 or off"
            assert field.type == (FieldDescriptor.TYPE_BOOL if knob.kind is bool else FieldDescriptor.TYPE_UINT32)


def test_each_enum_word_table_covers_its_enum_and_inverts() -> None:
    def numbers(enum: Any) -> set[int]:
        return {v.number for v in enum.DESCRIPTOR.values if v.number}

    for table, inverse, enum in ((words.STRATEGIES, words.STRATEGY_WORDS, pb.BotStrategy),
                                 (words.TABLE_STATUSES, words.STATUS_WORDS, pb.TableStatus),
                                 (words.SEAT_KINDS, words.SEAT_KIND_WORDS, pb.SeatKind),
                                 (mapping.PRESETS, mapping.PRESET_WORDS, pb.Preset)):
        assert set(table.values()) == numbers(enum)
        assert all(inverse[number] == word for word, number in table.items())
    # every built-in bot of every game can be asked for, and nothing else
    assert set(words.STRATEGIES) == set(BOTS) | set(THIRTY_ONE_BOTS)
    # unset has no word: it asks for the table's game's own bot, which only the table knows
    assert pb.BOT_STRATEGY_UNSPECIFIED not in words.STRATEGY_WORDS


def test_the_servers_table_settings_default_to_the_wires() -> None:
    settings = Settings()
    assert (settings.decision_seconds, settings.takeover_seconds) == (words.DECISION_SECONDS, words.TAKEOVER_SECONDS)


def test_the_readmes_table_of_knobs_is_the_generated_one() -> None:
    found = TABLE.search(README.read_text(encoding="utf-8"))
    assert found, "the README has lost its table of knobs (between <!-- knobs: ... --> and <!-- end of knobs -->)"
    assert found.group(2) == knobs_table(), \
        f"the README's table of knobs is out of date: run python tests/test_house_rules.py; it should read\n" \
        f"{knobs_table()}"


def test_the_rule_books_table_agrees_with_the_declarations() -> None:
    """docs/RULES.md keeps its own TP-6 table (a copy of the team's rule book): same knobs, same order, same
    defaults, and each names the rule its knob declares."""
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| (.+?) \| (.+?) \|$", text.split("## TP-6", 1)[1], re.M)
    assert [name for name, _, _ in rows] == [k.name for k in KNOBS]
    for name, default, meaning in rows:
        knob = knob_named(name)
        assert default.strip("`").replace("–", "-") == knobs_table().split(f"| `{name}` | ")[1].split(" |")[0]
        cited = re.search(r"TP-\d\.\d+", meaning)
        assert cited is None or cited.group() == knob.rule, (name, meaning)


def rewrite_readme() -> None:
    text = README.read_text(encoding="utf-8")
    if not TABLE.search(text):
        sys.exit("README.md has no <!-- knobs: ... --> ... <!-- end of knobs --> markers")
    README.write_text(TABLE.sub(lambda m: m.group(1) + knobs_table() + m.group(3), text), encoding="utf-8")
    print("README.md: table of knobs rewritten")


if __name__ == "__main__":
    rewrite_readme()
