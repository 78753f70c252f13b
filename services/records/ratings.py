"""Ratings from a finished game's places: Weng-Lin (openskill's Plackett-Luce model).

Every seat is its own team; places may tie (two seats on the same score share a place).
A rating is ``(mu, sigma)``; boards sort by the conservative ``ordinal`` = mu - 3 sigma, so
a newcomer (25, 8.33: ordinal 0) climbs as games make the system surer of them.

[decision] AI seats are rated as their level (one subject per level, ``models.AI_USER_IDS``),
so "beat the strong AI" means something. When one subject holds several seats of a game
(two strong AIs), each seat is rated as a separate player from the same prior and the
subject takes the sum of its seats' changes of mu and the smallest of their sigmas.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


#: The rating of a player who has not played the variant yet.
NEW_PLAYER = Skill(mu=MODEL.mu, sigma=MODEL.sigma)


def places(scores: Sequence[int], winner: int, *, lowest_wins: bool = False) -> list[int]:
    """Each seat's place (1 = first) from the final scores: the game's winner first (the
    rules break a tie on top in their favour), then by score, highest first (lowest first
    with alternate scoring); equal scores share a place."""
    order = sorted(
        range(len(scores)),
        key=lambda seat: (seat != winner, scores[seat] if lowest_wins else -scores[seat]),
    )
    result = [0] * len(scores)
    for rank, seat in enumerate(order):
        previous = order[rank - 1] if rank else None
        tied = previous is not None and previous != winner and scores[previous] == scores[seat]
        result[seat] = result[previous] if tied and previous is not None else rank + 1
    return result


def rate(
    subjects: Sequence[int], seat_places: Sequence[int], current: Mapping[int, Skill]
) -> dict[int, Skill]:
    """New skills after one game: ``subjects[seat]`` sat at ``seat`` and finished at
    ``seat_places[seat]``; ``current`` holds each subject's skill before it (missing: new)."""
    priors = [current.get(subject, NEW_PLAYER) for subject in subjects]
    teams = [[MODEL.rating(mu=p.mu, sigma=p.sigma)] for p in priors]
    rated = MODEL.rate(teams, ranks=list(seat_places))
    mu_change: dict[int, float] = {}
    sigma: dict[int, float] = {}
    for subject, prior, team in zip(subjects, priors, rated, strict=True):
        after = team[0]
        mu_change[subject] = mu_change.get(subject, 0.0) + (after.mu - prior.mu)
        sigma[subject] = min(sigma.get(subject, after.sigma), after.sigma)
    return {
        subject: Skill(mu=current.get(subject, NEW_PLAYER).mu + change, sigma=sigma[subject])
        for subject, change in mu_change.items()
    }
