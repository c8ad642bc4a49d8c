"""roots from Python: load and check variants, play step by step, simulate.

    import roots
    v = roots.load("standard", set=["beads.supply=35"])
    game = v.new_game(players=2, seed=7)
    while not game.over:
        if game.node == "chance":
            game.roll()                  # from the seed; or game.roll("4")
        else:
            game.apply(game.legal[0])    # or game.bot_move("greedy", play=True)
    rows = roots.simulate(v, games=200, bots=["greedy", "random"]).rows
    frame = roots.simulate(v, games=200).dataframe()   # needs pandas

Everything goes through the engine protocol of `roots engine`
(docs/protocol.md), in process: the same checks and the same messages.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from ._roots import PROTOCOL_VERSION
from ._roots import Engine as _Engine

__all__ = [
    "PROTOCOL_VERSION",
    "Diagnostic",
    "Game",
    "Refused",
    "RootsError",
    "Simulation",
    "Variant",
    "VariantError",
    "games",
    "load",
    "loads",
    "simulate",
]


class RootsError(Exception):
    """A request the engine refused: `kind` (as in docs/protocol.md) and `message`."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


class Refused(RootsError):
    """An action or roll the referee refused; the game is unchanged."""


@dataclass(frozen=True)
class Diagnostic:
    """One error or warning about a variant, placed in its file."""

    severity: str
    code: str
    file: str
    line: Optional[int]
    col: Optional[int]
    key_path: Optional[str]
    message: str
    expected: Optional[str] = None
    help: Optional[str] = None

    @classmethod
    def _from(cls, d: Dict[str, Any]) -> "Diagnostic":
        return cls(
            severity=d.get("severity", "error"),
            code=d.get("code", ""),
            file=d.get("file", ""),
            line=d.get("line"),
            col=d.get("col"),
            key_path=d.get("key_path"),
            message=d.get("message", ""),
            expected=d.get("expected"),
            help=d.get("help"),
        )

    def __str__(self) -> str:
        place = self.file
        if self.line is not None and self.col is not None:
            place = f"{self.file}:{self.line}:{self.col}"
        return f"{place}: {self.severity}: {self.message}"


class VariantError(RootsError):
    """A variant that does not load: every diagnostic, each with its file,
    line and column (`diagnostics`); the first is also `file`, `line`, `col`."""

    def __init__(self, message: str, diagnostics: List[Diagnostic]) -> None:
        super().__init__("invalid_variant", message)
        self.diagnostics = diagnostics
        first = diagnostics[0] if diagnostics else None
        self.file = first.file if first else None
        self.line = first.line if first else None
        self.col = first.col if first else None

    def __str__(self) -> str:
        return "\n".join(str(d) for d in self.diagnostics if d.severity == "error") or self.message


def _ask(engine: _Engine, request: Dict[str, Any]) -> Dict[str, Any]:
    answer = json.loads(engine.handle(json.dumps(request)))
    if answer.get("ok"):
        return answer
    error = answer.get("error", {})
    kind, message = error.get("kind", "internal"), error.get("message", "")
    if kind == "invalid_variant":
        raise VariantError(message, [Diagnostic._from(d) for d in error.get("diagnostics", [])])
    if kind == "refused":
        raise Refused(kind, message)
    raise RootsError(kind, message)


def _source(variant: str = "standard", toml: Optional[str] = None, set: Iterable[str] = ()) -> Dict[str, Any]:
    source: Dict[str, Any] = {"toml": toml} if toml is not None else {"variant": variant}
    overrides = list(set)
    if overrides:
        source["set"] = overrides
    return source


class Variant:
    """A variant that loaded and validated: its game, name, seat range, the
    resolved rules (`rules`, `toml`) and its warnings."""

    def __init__(self, source: Dict[str, Any], answer: Dict[str, Any]) -> None:
        self._source = source
        self.game: str = answer["game"]
        self.name: str = answer["name"]
        self.seats: Tuple[int, int] = (answer["seats"][0], answer["seats"][1])
        self.toml: str = answer["toml"]
        self.rules: Dict[str, Any] = answer["rules"]
        self.warnings: List[Diagnostic] = [Diagnostic._from(d) for d in answer.get("warnings") or []]

    def __repr__(self) -> str:
        return f"Variant(game={self.game!r}, name={self.name!r})"

    def new_game(self, players: int = 2, seed: int = 0) -> "Game":
        """A new game of this variant, its dice and bots seeded."""
        return Game(self._source, players, seed)

    def simulate(self, **kwargs: Any) -> "Simulation":
        """`roots.simulate(self, ...)`."""
        return simulate(self, **kwargs)


def load(variant: str = "standard", *, set: Iterable[str] = ()) -> Variant:
    """A built-in variant by name or a variant file by path, with `--set`
    style overrides (`"beads.supply=35"`). Raises VariantError."""
    if isinstance(variant, os.PathLike):
        variant = os.fspath(variant)
    if not isinstance(variant, str):
        raise TypeError(f"load() expects a variant name or path (str), not {type(variant).__name__}")
    source = _source(variant, None, set)
    return Variant(source, _ask(_Engine(), dict(cmd="validate", **source)))


def loads(text: str, *, set: Iterable[str] = ()) -> Variant:
    """A variant from the text of a variant file (TOML). Raises VariantError,
    its diagnostics placed in `<inline toml>`."""
    if not isinstance(text, str):
        # `loads(None)` used to load the standard variant.
        raise TypeError(f"loads() expects the text of a variant file (str), not {type(text).__name__}")
    source = _source(toml=text, set=set)
    return Variant(source, _ask(_Engine(), dict(cmd="validate", **source)))


def games() -> List[Dict[str, Any]]:
    """Every game with its built-in variants."""
    return list(_ask(_Engine(), {"cmd": "hello"})["games"])


class Game:
    """A game in progress, node by node: at a chance node roll, at a
    decision apply one of `legal`; `state` is the whole node as the protocol
    describes it (docs/protocol.md)."""

    def __init__(self, source: Dict[str, Any], players: int = 2, seed: int = 0) -> None:
        # The native engine belongs to the thread that made it; using it
        # from another one raised a Rust panic (PanicException, which
        # `except Exception` does not catch). Checked here first instead.
        self._thread = threading.get_ident()
        self._engine = _Engine()
        answer = _ask(self._engine, dict(cmd="start", players=players, seed=seed, **source))
        self.seed: int = answer["seed"]
        self.state: Dict[str, Any] = answer["state"]

    def _do(self, request: Dict[str, Any]) -> Dict[str, Any]:
        if threading.get_ident() != self._thread:
            raise RootsError(
                "thread",
                "this Game was made in another thread and can only be used there: "
                "make one Game per thread (Variant.new_game)",
            )
        answer = _ask(self._engine, request)
        if "state" in answer:
            self.state = answer["state"]
        return answer

    @property
    def node(self) -> str:
        """"chance", "decision" or "over"."""
        return str(self.state["node"])

    @property
    def over(self) -> bool:
        return self.node == "over"

    @property
    def seat(self) -> int:
        """The seat (from 1) that decides, or whose turn it is."""
        return int(self.state["seat"])

    @property
    def legal(self) -> List[str]:
        """The legal actions in text form (empty unless a decision)."""
        return list(self.state.get("legal", []))

    @property
    def chance(self) -> Optional[Dict[str, Any]]:
        """At a chance node, what is drawn: `kind`, `faces` (text), ..."""
        return self.state.get("chance")

    @property
    def board(self) -> str:
        return str(self.state["board"]["text"])

    @property
    def board_data(self) -> Optional[Dict[str, Any]]:
        return self.state["board"].get("data")

    @property
    def scores(self) -> List[int]:
        return list(self.state["scores"])

    @property
    def outcome(self) -> Optional[Dict[str, Any]]:
        """Once over: `scores`, `winners` (seats from 1), `reason`."""
        return self.state.get("outcome")

    def apply(self, action: str, seat: Optional[int] = None) -> None:
        """Play an action (text form). Raises Refused, the game unchanged."""
        request: Dict[str, Any] = {"cmd": "act", "action": action}
        if seat is not None:
            request["seat"] = seat
        self._do(request)

    def roll(self, face: Union[str, int, None] = None) -> str:
        """Apply a roll: `face` given, or drawn from the seed. Returns the face."""
        request: Dict[str, Any] = {"cmd": "roll"}
        if face is not None:
            request["face"] = face
        return str(self._do(request)["rolled"])

    def bot_move(self, bot: str = "greedy", play: bool = False) -> str:
        """A built-in bot's move here (`random`, `greedy`, `mcts:N`); played too when `play`."""
        return str(self._do({"cmd": "bot", "bot": bot, "play": play})["action"])

    def undo(self, steps: int = 1) -> None:
        self._do({"cmd": "undo", "steps": steps})

    def record(self) -> List[str]:
        """The game's record so far, as lines (docs/records.md)."""
        return list(self._do({"cmd": "record"})["lines"])

    def save(self, path: str) -> None:
        """Write the record to a new file."""
        self._do({"cmd": "save", "path": path})


class Simulation:
    """A simulation's report (as `roots simulate --format json`) and one row
    per game (as `--out games.jsonl`: there `winner` and `top` count seats
    from 0, as the row format does)."""

    def __init__(self, report: Dict[str, Any], rows: List[Dict[str, Any]]) -> None:
        self.report = report
        self.rows = rows

    def dataframe(self) -> Any:
        """The rows as a pandas DataFrame, one column per key (`scores` and
        `bots` split into `score_1`, `bot_1`, ...; `winner` the seat from 1,
        like the columns, or None on a tie). Needs pandas."""
        try:
            import pandas
        except ImportError as e:
            raise ImportError("Simulation.dataframe() needs pandas: pip install pandas") from e
        flat = []
        for row in self.rows:
            r = {k: v for k, v in row.items() if k not in ("scores", "bots", "top")}
            r["winner"] = None if row["winner"] is None else row["winner"] + 1
            for i, s in enumerate(row["scores"], 1):
                r[f"score_{i}"] = s
            for i, b in enumerate(row["bots"], 1):
                r[f"bot_{i}"] = b
            flat.append(r)
        return pandas.DataFrame(flat)


def simulate(
    variant: Union[Variant, str] = "standard",
    *,
    games: int = 100,
    players: int = 2,
    bots: Sequence[str] = ("random",),
    seed: int = 0,
    rotate: bool = False,
    jobs: int = 1,
    cmd_timeout: float = 10.0,
    set: Iterable[str] = (),
    rows: Optional[bool] = None,
) -> Simulation:
    """Seeded games between bots, as `roots simulate`: the same seed gives the
    same games whatever `jobs` is. `rows` (one per game) come with at most
    10,000 games (the engine's memory stays flat): `rows=False` leaves them
    out, and without them `Simulation.rows` is None."""
    if isinstance(variant, Variant):
        source = dict(variant._source)
        extra = list(set)
        if extra:
            source["set"] = list(source.get("set", [])) + extra
    else:
        source = _source(variant, None, set)
    answer = _ask(
        _Engine(),
        dict(
            cmd="simulate",
            games=games,
            players=players,
            bots=list(bots),
            seed=seed,
            rotate=rotate,
            jobs=jobs,
            cmd_timeout=cmd_timeout,
            **({} if rows is None else {"rows": rows}),
            **source,
        ),
    )
    return Simulation(answer["report"], answer.get("rows"))
