"""The hard AI player (services/worker/ai/hard.py): legal answers to every decision kind of
every variant (RULES.md §7: an AI seat may owe any of them), the same choices for the same
seed, worlds sampled consistently with the seat's view and memory (RULES.md §3 "What is
visible" for Flip's backs), and the search's preference for the strong choice."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from services.engine.rules import (
    VARIANTS,
    Action,
    ActionType,
    Color,
    GameState,
    Kind,
    Options,
    PendingKind,
    View,
    new_game,
    view,
)
from services.engine.rules.actions import challenge, choose_color, draw, keep, play, swap
from services.worker.ai import FirstLegalPolicy, HardPolicy, StrongPolicy, get_policy
from services.worker.ai.arena import Arena, Turn, seat_names
from services.worker.ai.hard import ENDGAME, STAGES, _paired_margin
from services.worker.ai.sampling import (
    Memory,
    honest_draw_card,
    may_bluff,
    played_over,
    sample_world,
)
from services.worker.ai.strong import _Recall
from tests.helpers.ai import (
    Recorder,
    option_sets,
    play_rounds,
    quick_policy,
    reachable_kinds,
    rng,
    seen,
    table,
)
from tests.helpers.rules import after

PUBLIC = (
    "viewer",
    "variant",
    "round",
    "side",
    "top",
    "color",
    "direction",
    "current",
    "draw_pile",
    "discard_pile",
    "seats",
    "pending",
    "uno_window",
    "hand",
    "legal",
    "draw_pile_back",
    "options",
)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_hard_policy_answers_every_decision_kind_legally(variant: str) -> None:
    """RULES.md §7: every decision the variant can ask for, with its house rules on and
    off, reaches the hard player and gets one of the legal actions (``Recorder`` checks
    each answer, owed or out of turn)."""
    spec = VARIANTS[variant]
    hard = Recorder(quick_policy("hard"))
    seed = 100
    for options in option_sets(spec):
        for players in (2, 3, 5):
            for _ in range(3):
                seed += 1
                others = [Recorder(get_policy(("strong", "random")[seed % 2]))] * (players - 1)
                seats = [hard, *others]
                random.Random(seed).shuffle(seats)
                play_rounds(variant, seats, options, seed)
    missing = reachable_kinds(spec) - set(hard.kinds)
    assert not missing, f"{variant}: the hard policy never faced {sorted(missing)}"


class Forgetful(FirstLegalPolicy):
    """Plays the first legal move and never calls UNO: always somebody to catch."""

    def choose(self, view: View, rng: random.Random) -> Action:
        return next(a for a in view.legal if a.type is not ActionType.CALL_UNO)

    def react(self, view: View, rng: random.Random) -> Action | None:
        return None


def test_hard_policy_jumps_in_calls_uno_and_catches() -> None:
    """RULES.md §2 "UNO" and "House rules" (Jump-In): the out-of-turn moves are made."""
    made: Counter[ActionType] = Counter()

    def note(turn: Turn) -> None:
        if turn.seat == 0:
            made[turn.action.type] += 1

    for seed in range(12):
        policies = [quick_policy("hard"), Forgetful(), Forgetful()]
        state, _ = new_game("classic", seat_names(policies), Options(jump_in=True), seed=seed)
        Arena(policies, random.Random(seed), observer=note).play_game(state, rounds=1)
    assert made[ActionType.CATCH] > 0
    assert made[ActionType.CALL_UNO] > 0
    assert made[ActionType.PLAY] > 0


def transcript(variant: str, players: int, seed: int) -> list[str]:
    codes: list[str] = []

    def note(turn: Turn) -> None:
        codes.append(f"{turn.seat}:{turn.action.code}")

    policies = [quick_policy("hard"), get_policy("strong")] + [quick_policy("hard")] * (players - 2)
    state, _ = new_game(variant, seat_names(policies), seed=seed)
    Arena(policies, random.Random(seed), observer=note).play_round(state)
    return codes


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_same_seed_gives_the_same_choices(variant: str) -> None:
    """The budget is a count of rollouts, never a time: a game replays exactly."""
    first = transcript(variant, 3, seed=4)
    assert first == transcript(variant, 3, seed=4)
    assert len(first) > 5


def test_the_registry_instance_decides_from_the_view_alone() -> None:
    """The stand-in's path: the same view and seed give the same action, however often
    and in whatever order it is asked (the shared instance keeps no memory)."""
    policy = get_policy("hard")
    state, _ = new_game("classic", ["a", "b", "c"], seed=9)
    given = view(state, state.current)
    answers = {policy.choose(given, random.Random(1)).code for _ in range(3)}
    other, _ = new_game("classic", ["a", "b", "c"], seed=10)
    policy.choose(view(other, other.current), random.Random(2))
    answers.add(policy.choose(given, random.Random(1)).code)
    assert len(answers) == 1


def views_along_games(variant: str, seeds: range) -> list[tuple[GameState, View]]:
    out = []
    for seed in seeds:
        policies = [get_policy("strong")] * 3
        state, _ = new_game(variant, seat_names(policies), seed=seed)
        arena = Arena(policies, random.Random(seed))
        while state.pending is not None and state.round == 1:
            out.append((state, view(state, state.pending.player)))
            state = arena.step(state)
    return out


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_sampled_world_shows_the_seat_exactly_its_view(variant: str) -> None:
    """A world is a full state whose view, for the seat, is the view it was sampled from:
    the own hand, the top card, hand sizes, piles, the decision owed and what may be done;
    in Flip also every back the seat sees (RULES.md §3), bar a rare deal where the backs
    leave no card for one slot and that one slot is dealt freely."""
    mismatched = Counter[str]()
    checked = 0
    for index, (_, given) in enumerate(views_along_games(variant, range(4))):
        world = sample_world(given, None, random.Random(index))
        again = view(world, given.viewer)
        for name in PUBLIC:
            if getattr(again, name) != getattr(given, name):
                mismatched[name] += 1
        assert sorted(c.code for c in world.draw_pile + world.discard + world.set_aside) != []
        total = len(world.draw_pile) + len(world.discard) + len(world.set_aside)
        assert total + sum(len(p.hand) for p in world.players) == len(VARIANTS[variant].deck)
        checked += 1
    assert checked > 50
    if VARIANTS[variant].double_sided:
        assert set(mismatched) <= {"seats"}
        assert mismatched["seats"] <= checked // 50
    else:
        assert not mismatched


def test_memory_keeps_seen_discards_out_of_the_sampled_hands() -> None:
    """Cards the seat saw played (its own included) are on the discard pile in every
    world, never in a hand."""
    state = table(["R1 G5 B7 Y3", "R3 R5 R6 G2 B2", "Y1 Y2 Y4 B5 B6"], "R9", "G1 G3 G4 G6 G7 G8")
    memory = Memory()
    first = seen(state, 0)
    memory.observe(first)
    memory.played(first, play(0, "R1"))
    state = after(state, play(0, "R1"), play(1, "R3"))
    given = seen(state, 0)
    memory.observe(given)
    assert [code for _, code in memory.discards] == ["R1", "R9"]
    for seed in range(30):
        world = sample_world(given, memory, random.Random(seed))
        assert [c.code for c in world.discard[:3]] == ["R3", "R1", "R9"]
        # The deck's other R1 and R9 may be anywhere; these two are on the pile.
        elsewhere = Counter(c.code for p in world.players for c in p.hand + world.draw_pile)
        assert elsewhere["R1"] <= 1 and elsewhere["R9"] <= 1


def test_a_hand_shown_by_a_lost_challenge_is_dealt_to_its_seat() -> None:
    """RULES.md §2 "Wild Draw Four challenge": the challenger sees the hand; every world
    then deals that hand to its seat."""
    state = table(["W+4 R2", "G3 G4 B5 Y6", "B1 B2"], "R7", "G1 G2 G5 G6 G7 G8 Y1 Y2 Y3")
    state = after(state, play(0, "W+4"), choose_color(0, "B"), challenge(1))
    given = seen(state, 1)
    assert given.reveal_of == 0 and given.reveal == ("R2",)  # the bluff: R2 on R7
    memory = Memory()
    memory.observe(given)
    for seed in range(10):
        world = sample_world(given, memory, random.Random(seed))
        held = Counter(c.code for c in world.players[0].hand)
        assert held >= Counter(given.reveal)


def test_the_hand_given_away_in_a_swap_is_dealt_to_its_new_holder() -> None:
    """RULES.md §2 "Seven-O": the hand the seat handed over is the target's in every world
    (as far as they still hold that many cards)."""
    options = Options(seven_o=True)
    state = table(["R7 G5 B6", "Y1 Y2 Y3 Y4", "B1 B2"], "R9", "G1 G2 G3 G4 G6", options=options)
    memory = Memory()
    before = seen(state, 0)
    memory.observe(before)
    state = after(state, play(0, "R7"))
    given = seen(state, 0)
    memory.observe(given)
    memory.swapped(given, 1)
    state = after(state, swap(0, 1))
    given = seen(state, 0)
    memory.observe(given)
    for seed in range(10):
        world = sample_world(given, memory, random.Random(seed))
        assert sorted(c.code for c in world.players[1].hand) == ["B6", "G5"]


def test_what_the_opponent_lacked_is_kept_out_of_the_cards_they_held() -> None:
    """With two standing, an opponent who drew on a card held nothing that fitted it (as
    the strong player remembers, ``strong._Recall``): the cards they held then are dealt
    with none of its colour, none of its kind and no wild."""
    state = table(["R1 G3 G4 B2", "B5 B6 Y7 Y8 Y9"], "R9", "G1 G2 B1 B3 Y1 Y2 Y3")
    first = seen(state, 0)
    recall = _Recall(first.round, first.version)
    recall.remember(first, play(0, "R1"))
    state = after(state, play(0, "R1"), draw(1))
    if state.pending is not None and state.pending.kind is PendingKind.PLAY_DRAWN:
        state = after(state, keep(1))
    given = seen(state, 0)
    recall.learn(given)
    memory = Memory()
    memory.observe(given)
    memory.recall = recall
    assert Color.RED in recall.lacks.get(1, {})
    assert {Kind.N1, Kind.WILD, Kind.WILD_DRAW4} <= recall.lacks_kinds.get(1, {}).keys()
    held_then = given.seats[1].cards
    for seed in range(20):
        world = sample_world(given, memory, random.Random(seed))
        fitted = [
            c.code
            for c in world.players[1].hand[:held_then]
            if c.light.color is Color.RED or c.light.kind is Kind.N1 or c.light.kind.is_wild
        ]
        assert fitted == []


def wild_draw_four_to_answer(opponent_hand: str) -> tuple[View, Memory, HardPolicy]:
    """Seat 0 (a hard player at its game) plays R1 on R9; seat 1 answers with a Wild Draw
    Four and names blue.  Seat 0 now owes the answer, challengeable."""
    state = table(["R1 G3 G4 B2", opponent_hand], "R9", "G1 G2 B1 B3 Y1 Y2 Y3 Y4 Y5 G6 G7")
    hard = HardPolicy().for_game()
    assert hard.choose(seen(state, 0), rng()) == play(0, "R1")
    state = after(state, play(0, "R1"), play(1, "W+4"), choose_color(1, "B"))
    given = seen(state, 0)
    assert given.pending is not None and given.pending.challengeable
    memory = hard._memory
    assert memory is not None
    return given, memory, hard


def test_a_wild_draw_four_from_a_big_hand_was_honest_in_every_world() -> None:
    """RULES.md §2 (a Wild Draw Four may be challenged): the strong player plays one while
    holding the colour in play only from a hand too small to be challenged, so after one
    from a bigger hand every world keeps red out of its player's hand, and a challenge
    fails there; the hard player accepts instead of adding two cards to the draw (the
    strong player challenges on the odds of a hand that size)."""
    given, memory, hard = wild_draw_four_to_answer("W+4 B5 B6 Y7 Y8 Y9")
    assert not may_bluff(given)
    assert honest_draw_card(given, played_over(given, memory)) == (1, Color.RED)
    for seed in range(20):
        world = sample_world(given, memory, random.Random(seed))
        assert [c.code for c in world.players[1].hand if c.light.color is Color.RED] == []
        assert world.pending is not None and not world.pending.bluffed
    assert StrongPolicy().choose(given, rng()).type is ActionType.CHALLENGE
    assert hard.choose(given, rng()).type is ActionType.ACCEPT
    # Without a memory of the colour (the registry's player) the hand size says as much.
    assert HardPolicy().choose(given, rng()).type is ActionType.ACCEPT


def test_a_wild_draw_four_from_a_last_card_but_one_may_be_a_bluff() -> None:
    """From a hand of one card left the strong player bluffs when it pays, so the worlds
    leave that card free, and each world's bluff is whether that card is red."""
    given, memory, _ = wild_draw_four_to_answer("W+4 R5")
    assert may_bluff(given)
    assert honest_draw_card(given, played_over(given, memory)) is None
    bluffs = Counter()
    for seed in range(60):
        world = sample_world(given, memory, random.Random(seed))
        assert world.pending is not None
        (card,) = world.players[1].hand
        assert world.pending.bluffed == (card.light.color is Color.RED)
        bluffs[world.pending.bluffed] += 1
    assert bluffs[True] and bluffs[False]


def test_another_candidate_must_beat_the_strong_choice_clearly() -> None:
    """The strong choice stays unless a candidate wins more often world by world by more
    than the noise."""
    assert _paired_margin([0.6] * 8, [0.5] * 8) > 0
    assert _paired_margin([0.5] * 8, [0.5] * 8) <= 0  # no better anywhere
    noisy = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0]
    assert _paired_margin(noisy, [0.5] * 8) <= 0  # a coin's luck is not shown
    assert _paired_margin([None, 0.9], [0.5, 0.5]) == 0.0  # too few comparable worlds


class Scripted(HardPolicy):
    """A hard player whose worlds value each candidate by a script: (mean, spread) per
    candidate, the spread alternating in sign world by world."""

    def __init__(self, *script: tuple[float, float]) -> None:
        super().__init__()
        self.script = script
        self.worlds = 0

    def _values_in_a_world(
        self, view: View, candidates: list[Action | None], rng: random.Random
    ) -> list[float | None]:
        sign = 1 if self.worlds % 2 else -1
        self.worlds += 1
        return [mean + sign * spread for mean, spread in self.script]


@pytest.mark.parametrize(
    ("script", "chosen", "batches"),
    [
        pytest.param([(0.5, 0.1), (0.9, 0.1)], 1, 1, id="a challenger far ahead: one batch"),
        pytest.param([(0.5, 0.0), (0.1, 0.0)], 0, 1, id="every challenger behind: one batch"),
        pytest.param([(0.5, 0.0), (0.52, 0.3)], 0, STAGES, id="open: decided on more worlds"),
    ],
)
def test_a_clear_first_batch_settles_the_choice_and_an_open_one_buys_more_worlds(
    script: list[tuple[float, float]], chosen: int, batches: int
) -> None:
    state = table(["R5 R6 G7", "G1 G2"], "R9", "B1 B2 B3 B4")
    given = seen(state, 0)
    candidates: list[Action | None] = list(given.legal[:2])
    policy = Scripted(*script)
    assert policy._search(given, candidates, rng()) == candidates[chosen]
    assert policy.worlds == batches * policy.worlds_per_batch(len(candidates))


def test_in_flip_an_open_first_batch_decides_on_its_own() -> None:
    """Flip's rollouts cost the most, so its search never buys the second batch
    (``ONE_BATCH``): the open case above decides on one batch, keeping the strong choice."""
    state = table(["R5 R6 G7", "G1 G2"], "R9", "B1 B2 B3 B4")
    given = dataclasses.replace(seen(state, 0), variant="flip")
    candidates: list[Action | None] = list(given.legal[:2])
    policy = Scripted((0.5, 0.0), (0.52, 0.3))
    assert policy._search(given, candidates, rng()) == candidates[0]
    assert policy.worlds == policy.worlds_per_batch(len(candidates))


def test_far_from_the_rounds_end_hard_plays_the_strong_choice_without_searching() -> None:
    """The search runs only once a seat is near out (``ENDGAME`` cards): earlier, the
    strong choice stands and no world is sampled (the generator is left untouched)."""
    searched = 0
    for _, given in views_along_games("classic", range(3)):
        generator = rng()
        before = generator.getstate()
        chosen = HardPolicy().choose(given, generator)
        if all(s.cards > ENDGAME for s in given.seats):
            assert generator.getstate() == before
            assert chosen == StrongPolicy().choose(given, rng())
        elif generator.getstate() != before:
            searched += 1
    assert searched > 0


def test_hard_plays_its_last_card_to_win() -> None:
    state = table(["R5", "G1 G2 G3"], "R9", "B1 B2 B3 B4")
    given = seen(state, 0)
    assert HardPolicy().choose(given, rng()).code == "p.R5"
