"""The committed stubs are exactly what grpcio-tools makes of the .proto, and the contract keeps its style."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tenpennies.engine.games import GAMES
from tenpennies.v2 import tenpennies_pb2 as pb

ROOT = Path(__file__).resolve().parents[1]
GENERATED = ("tenpennies_pb2.py", "tenpennies_pb2.pyi", "tenpennies_pb2_grpc.py", "tenpennies_pb2_grpc.pyi")


def test_committed_stubs_match_the_proto(tmp_path: Path) -> None:
    plugin = Path(sys.executable).parent / "protoc-gen-mypy_grpc"
    shutil.copytree(ROOT / "protos", tmp_path / "protos", ignore=shutil.ignore_patterns(*GENERATED, "__pycache__"))
    subprocess.run([sys.executable, "-m", "grpc_tools.protoc", "-Iprotos", "--python_out=protos", "--pyi_out=protos",
                    "--grpc_python_out=protos", f"--plugin=protoc-gen-mypy_grpc={plugin}", "--mypy_grpc_out=protos",
                    "protos/tenpennies/v2/tenpennies.proto"], cwd=tmp_path, check=True, capture_output=True)
    for name in GENERATED:
        fresh = (tmp_path / "protos/tenpennies/v2" / name).read_text()
        committed = (ROOT / "protos/tenpennies/v2" / name).read_text()
        assert fresh == committed, f"{name} is out of step with the .proto: run `make protos`"


def test_enums_follow_the_style_guide() -> None:
    for enum in pb.DESCRIPTOR.enum_types_by_name.values():
        prefix = "".join("_" + c if c.isupper() else c.upper() for c in enum.name).lstrip("_") + "_"
        assert enum.values[0].name == prefix + "UNSPECIFIED" and enum.values[0].number == 0
        assert all(v.name.startswith(prefix) for v in enum.values)


def test_every_rpc_has_its_own_request_and_response() -> None:
    for method in pb.DESCRIPTOR.services_by_name["TenPenniesService"].methods:
        assert method.input_type.name == method.name + "Request"
        assert method.output_type.name == method.name + "Response"


def test_each_games_own_part_of_a_shared_message_is_one_branch_of_its_game_oneof() -> None:
    """The proto per game: a message every game sends keeps each game's own part in a oneof ``game``, one branch
    per game of the registry, named as the game (a new game is one branch more)."""
    for message in (pb.HouseRules, pb.GameView, pb.GameEnded):
        branches = [f.name for f in message.DESCRIPTOR.oneofs_by_name["game"].fields]
        assert branches == list(GAMES), message.DESCRIPTOR.name
