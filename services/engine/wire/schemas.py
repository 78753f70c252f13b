"""Request and response bodies of the engine service's HTTP API (/v1).

Shared by the service and its typed client (client.py): the one description of what
crosses the wire. A player's hand appears in exactly one place, ``EngineView.hand``,
filled only by the rules engine's ``view`` for that player.

Request bodies are strict: every field has one JSON type (``"1001"`` is not a user id,
``4.0`` not a version, ``"yes"`` not ``true``) and unknown fields are refused; the service
answers anything else 400.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StrictBool

from services.engine.rules import HouseRule, Options, Variant

#: The AI players a seat may hold (services/worker/ai).
AiLevel = Literal["strong", "random", "first-legal", "hard"]

#: [decision] Action id prefixes kept for the service's own actors (the worker's timers use
#: ``timer:{game}:{kind}:{version}``). A player's action ids are remembered apart from the
#: service's anyway (README "Idempotency"); refusing these prefixes from players also keeps
#: logs and metrics unambiguous. Compared without regard to case.
RESERVED_ACTION_ID_PREFIXES = ("timer:", "system:", "service:", "worker:", "stand-in:")


def _no_bool(value: Any) -> Any:
    """JSON ``true`` is not the number 1 (Python would say it is)."""
    if isinstance(value, bool):
        raise ValueError("a number is required, not a boolean")
    return value


_NotBool = BeforeValidator(_no_bool)

# -- field types -------------------------------------------------------------------------

#: Telegram user ids are positive and fit in 52 bits.
USER_ID_MAX = 2**53
UserId = Annotated[int, _NotBool, Field(ge=1, le=USER_ID_MAX, description="Telegram user id")]
#: Group and supergroup ids are negative (``-100...``); private chats positive.
ChatId = Annotated[int, _NotBool, Field(ge=-(2**53), le=2**53, description="Telegram chat id")]
#: Forum topic (``message_thread_id``); 0 for a chat without topics.
TopicId = Annotated[int, _NotBool, Field(ge=0, le=2**31, description="Forum topic id, 0 for none")]
Name = Annotated[str, Field(min_length=1, max_length=64, description="Display name")]
Version = Annotated[int, _NotBool, Field(ge=0, le=2**53, description="The game's state version")]
ActionCode = Annotated[
    str,
    Field(
        min_length=1,
        max_length=32,
        pattern=r"^[a-z]{1,5}(\.[A-Za-z0-9+/]{1,16})?$",
        description="Compact action code: p.R5, d, k, c.R, ch, a, u, x.2, s.1 (RULES.md §1)",
        examples=["p.R5", "d"],
    ),
]
ActionId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=128,
        pattern=r"^[!-~]+$",
        description="Client-chosen id; a repeat returns the first result, applied once",
    ),
]


def _not_reserved(action_id: str) -> str:
    if action_id.lower().startswith(RESERVED_ACTION_ID_PREFIXES):
        reserved = ", ".join(RESERVED_ACTION_ID_PREFIXES)
        raise ValueError(f"an action id may not start with {reserved} (the service's own)")
    return action_id


#: A player's (or the bot's) action id: any ``ActionId`` but the service's own prefixes.
PlayerActionId = Annotated[ActionId, AfterValidator(_not_reserved)]
VariantName = Annotated[str, Field(pattern=r"^[a-z0-9_-]{1,32}$", examples=["classic"])]
#: The turn time a game may have, in seconds (a chat's settings keep to it too).
TURN_SECONDS_RANGE = (5, 3600)
TurnSeconds = Annotated[
    int,
    _NotBool,
    Field(ge=TURN_SECONDS_RANGE[0], le=TURN_SECONDS_RANGE[1], description="Time for each decision"),
]
#: The UNO-window time a game may have, in seconds (RULES.md §2 "The catch window"; a
#: chat's settings keep to it too).
UNO_WINDOW_SECONDS_RANGE = (2, 60)
UnoWindowSeconds = Annotated[
    int,
    _NotBool,
    Field(
        ge=UNO_WINDOW_SECONDS_RANGE[0],
        le=UNO_WINDOW_SECONDS_RANGE[1],
        description="Longest a UNO window stays open when no other player acts",
    ),
]
GameStatusName = Literal["lobby", "playing", "over", "ended"]


class Model(BaseModel):
    """Request bodies: strict types, unknown fields refused."""

    model_config = ConfigDict(extra="forbid", strict=True)


class HouseRules(Model):
    """The house rules a chat may switch on (RULES.md §2; the rules engine's ``Options``)."""

    progressive_draw: StrictBool = False
    seven_o: StrictBool = False
    jump_in: StrictBool = False
    draw_until_playable: StrictBool = False
    alternate_scoring: StrictBool = False
    target_score: Annotated[int, _NotBool, Field(ge=1, le=1_000_000)] | None = None
    false_catch_penalty: StrictBool = False

    def to_options(self) -> Options:
        return Options(**self.model_dump())

    @classmethod
    def from_options(cls, options: Options) -> HouseRules:
        return cls(**{name: getattr(options, name) for name in cls.model_fields})


# -- errors ------------------------------------------------------------------------------


class ErrorBody(BaseModel):
    """Every 4xx/5xx answer. ``error`` is a stable code; ``message`` is for people."""

    error: str
    message: str
    reason: str | None = Field(
        default=None,
        description="The rules engine's reason code (422); why the person is out of the game "
        "(403 seat_removed: kicked, left_group)",
    )
    current_version: int | None = Field(default=None, description="The game's version now (409)")
    game_id: str | None = Field(default=None, description="The live game in the chat (409)")


# -- requests ----------------------------------------------------------------------------


class CreateGame(Model):
    chat_id: ChatId
    topic_id: TopicId = 0
    user_id: UserId = Field(description="The host, who takes the first seat")
    name: Name
    variant: VariantName = "classic"
    turn_seconds: TurnSeconds | None = None
    uno_window_seconds: UnoWindowSeconds | None = Field(
        default=None, description="Default: the service's UNO_UNO_WINDOW_SECONDS"
    )
    rules: HouseRules | None = Field(default=None, description="House rules (RULES.md §2)")


class Join(Model):
    user_id: UserId
    name: Name


class PlayerOnly(Model):
    user_id: UserId


class HostCommand(Model):
    user_id: UserId
    admin: StrictBool = Field(default=False, description="The caller is a chat administrator")


class Kick(HostCommand):
    target: UserId = Field(description="The player removed from the game for good")


class RematchVote(Model):
    user_id: UserId
    vote: StrictBool = Field(description="true: play again; false: leave instead")


class LeftGroup(Model):
    user_id: UserId = Field(description="The person who left the game's chat")
    by: UserId | None = Field(
        default=None, description="Who removed them from the chat; null: they left"
    )


#: Why a person is out of a game (``Removal``, and the ``reason`` of a 403 ``seat_removed``).
RemovalReasonName = Literal["kicked", "left_group"]


class RemovalInfo(BaseModel):
    """A person out of a game: why, when (unix seconds) and who removed them (null: they
    left the chat themselves)."""

    user_id: int
    reason: RemovalReasonName
    at: int
    by: int | None = None


class AddAi(HostCommand):
    level: AiLevel = "strong"
    name: Name | None = None


class SetOptions(HostCommand):
    variant: VariantName | None = None
    turn_seconds: TurnSeconds | None = None
    rules: HouseRules | None = None


class ActionRequest(Model):
    user_id: UserId
    action: ActionCode
    version: Version = Field(description="The version the player saw; another one is a 409")
    action_id: PlayerActionId


class StandInAction(Model):
    version: Version
    action: ActionCode
    action_id: ActionId


class CloseUnoWindow(Model):
    opened_version: Version
    action_id: ActionId


class FrozenMoved(Model):
    version: Version
    seat: int = Field(ge=0, le=9, description="The frozen seat that moved")
    action_id: PlayerActionId


class SeatSpec(Model):
    name: Name
    user_id: UserId | None = None
    ai: AiLevel | None = None


Cards = Annotated[
    str, Field(max_length=2000, description="Card codes, space-separated (RULES.md §1)")
]


class TestSetup(Model):
    """A table written out card by card: the fields of ``services.engine.rules.Setup``
    (piles listed top first). No discard pile but a draw pile: a round about to start,
    whose first card is turned up from the draw pile."""

    hands: list[Cards] = Field(min_length=2, max_length=10)
    variant: VariantName = "classic"
    names: list[Name] | None = None
    draw_pile: Cards = ""
    discard: Cards = ""
    dealer: int = Field(default=0, ge=0, le=9)
    current: int | None = Field(default=None, ge=0, le=9, description="Default: dealer's left")
    direction: Literal[1, -1] = 1
    color: Annotated[str, Field(pattern=r"^[A-Za-z]{1,8}$")] | None = None
    side: Literal["light", "dark"] = "light"
    scores: list[Annotated[int, _NotBool, Field(ge=0, le=1_000_000)]] | None = None
    options: HouseRules | None = None
    seed: int = Field(default=0, ge=0, le=2**63 - 1)
    round: int = Field(default=1, ge=1, le=10_000)


class TestGame(Model):
    """A game already in play, dealt exactly as ``setup`` says (RULES.md §1 notation)."""

    chat_id: ChatId
    topic_id: TopicId = 0
    seats: list[SeatSpec] = Field(min_length=2, max_length=10)
    setup: TestSetup
    turn_seconds: TurnSeconds | None = None
    uno_window_seconds: UnoWindowSeconds | None = None


# -- responses ---------------------------------------------------------------------------


class SeatInfo(BaseModel):
    seat: int
    name: str
    user_id: int | None = None
    ai: AiLevel | None = None
    away: bool = False
    missed: int = 0
    left: bool = False
    finishing_turn: bool = Field(
        default=False,
        description="The stand-in is finishing the turn it took for this player (RULES.md §7)",
    )


class RematchInfo(BaseModel):
    """A finished game's vote on a rematch (RULES.md §7 "Rematch")."""

    yes: list[int] = Field(default_factory=list, description="Who voted to play again")
    no: list[int] = Field(default_factory=list, description="Who voted to leave instead")
    next_game_id: str | None = Field(
        default=None, description="The rematch, once every player has voted and one said yes"
    )


class GameInfo(BaseModel):
    """The public facts of a game: no cards."""

    game_id: str
    version: int
    status: GameStatusName
    chat_id: int
    topic_id: int
    host: int
    variant: str
    turn_seconds: int
    uno_window_seconds: int | None = Field(
        default=None, description="The game's UNO window; null: the service's default"
    )
    rules: dict[str, Any] = Field(description="House rules that differ from the defaults")
    seats: list[SeatInfo]
    winner: int | None = None
    uno_opened: int | None = Field(
        default=None, description="Version at which the open UNO window opened"
    )
    removed: list[RemovalInfo] = Field(
        default_factory=list,
        description="The people out of this game (kicked, or gone from its chat): every "
        "move, hand view, join and 'I'm back' of theirs is refused 403 seat_removed",
    )
    rematch: RematchInfo = Field(
        default_factory=RematchInfo, description="The vote on playing the game again"
    )


class UserGames(BaseModel):
    """The live games a person holds a seat in (one they have not left)."""

    games: list[GameInfo]


class EngineSeatView(BaseModel):
    model_config = ConfigDict(extra="allow")

    seat: int
    name: str
    cards: int
    score: int = 0
    declared_uno: bool = False
    knocked_out: bool = False
    frozen: bool = False
    back_faces: list[str] | None = None


class EnginePendingView(BaseModel):
    model_config = ConfigDict(extra="allow")

    kind: str
    player: int
    amount: int = 0
    source: int | None = None
    card_kind: str | None = None
    challengeable: bool = False


class EngineView(BaseModel):
    """The rules engine's ``view(state, viewer)``: the viewer's hand and legal action codes
    (empty for a spectator) and the public table."""

    model_config = ConfigDict(extra="allow")

    viewer: int | None = None
    variant: str
    version: int
    round: int = 1
    side: str = "light"
    top: str
    color: str | None = None
    direction: int = 1
    dealer: int = 0
    current: int = 0
    draw_pile: int = 0
    discard_pile: int = 0
    seats: list[EngineSeatView]
    pending: EnginePendingView | None = None
    uno_window: int | None = None
    hand: list[str] = Field(default_factory=list)
    legal: list[str] = Field(default_factory=list)
    target_score: int = 0
    winner: int | None = None
    # The commitment to the round's shuffle (SHA-256 of its seed, hex; RULES.md §2
    # "Checking a deal"): a front may show its first characters.
    deal_commitment: str = ""


class PlayerView(BaseModel):
    """What one player (``seat``) or a spectator (``seat`` null) may see now."""

    game: GameInfo
    seat: int | None
    view: EngineView | None = Field(description="Null before the game starts")


class ViewOf(BaseModel):
    """One person's view among several: their own seat's, or a spectator's (``seat`` null)
    when they hold none."""

    user_id: int
    seat: int | None
    view: EngineView | None = Field(description="Null before the game starts")
    removed: RemovalReasonName | None = Field(
        default=None, description="Out of the game (their view is the spectator's): why"
    )


class ViewsOf(BaseModel):
    """Several people's views of a game at one version (``game.version``)."""

    game: GameInfo
    views: list[ViewOf]
    turn_left: float | None = Field(
        default=None,
        description="Seconds until the decision owed at this version times out, as the "
        "answer was made (0: being fired now); null: no timed decision",
    )
    spectator: EngineView | None = Field(
        default=None,
        description="The spectator's view, when asked for (``spectator=true``); null "
        "otherwise, and before the game starts",
    )


class ActionResult(BaseModel):
    game_id: str
    version: int = Field(description="The version this action produced")
    seat: int | None = Field(description="The acting seat; null for the service's own")
    duplicate: bool = Field(description="A repeat of an action id already applied")
    events: list[dict[str, Any]] = Field(
        description="What the action did, as the acting seat may see it"
    )


class StandInTurn(BaseModel):
    game_id: str
    version: int
    seat: int = Field(description="The seat owing the decision")
    ai: AiLevel | None = None
    away: bool = False
    missed: int = 0
    view: EngineView = Field(description="That seat's own view: all a stand-in may know")


class StreamEventOut(BaseModel):
    id: str = Field(
        description="Event id '{version}-{n}': the n-th event of the write that produced "
        "'version' (README \"Events\")"
    )
    version: int
    event: dict[str, Any]


class EventsPage(BaseModel):
    events: list[StreamEventOut]
    last_id: str = Field(description="Pass as 'after' to read on")


class Health(BaseModel):
    status: str


#: The house option every variant offers besides its ``HouseRule``s: a catch with nothing to
#: catch costs the catcher 2 (RULES.md §2 "UNO").
FALSE_CATCH_PENALTY = "false_catch_penalty"


class VariantFacts(BaseModel):
    """What the rules library says of one variant (RULES.md §3-§6), for the fronts: its
    name (the id games are created with), its title, the score that wins a game of it, its
    seats, whether its cards have a light and a dark side, the house rules a chat may switch
    on for it (``Options`` field names, in the rule sheet's order), what people type for it
    besides its name and titles (``spellings``), whether its own rules stack draw cards,
    and the message ids a front shows it by (``VariantWords``: its name, its title, meant in
    the context ``TITLE_CONTEXT``, its summary, and the name of each side)."""

    name: str
    title: str
    target_score: int
    min_players: int
    max_players: int
    two_sided: bool
    house_rules: list[str]
    spellings: list[str] = []
    stacks_draws: bool = False
    name_msgid: str = ""
    title_msgid: str = ""
    summary_msgid: str = ""
    side_msgids: dict[str, str] = {}

    @classmethod
    def of(cls, variant: Variant[Any]) -> VariantFacts:
        return cls(
            name=variant.name,
            title=variant.title,
            target_score=variant.target_score,
            min_players=variant.min_players,
            max_players=variant.max_players,
            two_sided=variant.double_sided,
            house_rules=[
                *(r.value for r in HouseRule if r in variant.house_rules),
                FALSE_CATCH_PENALTY,
            ],
            spellings=list(variant.spellings),
            stacks_draws=variant.stacks_draws,
            name_msgid=variant.words.name,
            title_msgid=variant.words.title,
            summary_msgid=variant.words.summary,
            side_msgids=dict(variant.words.side_names),
        )


class Variants(BaseModel):
    """Every variant the engine plays, in the rule sheet's order."""

    variants: list[VariantFacts]
