"""Pure decisions of the summarizer: generations, self-duplicates, exact duplicates.

Nothing here touches a database.  The pipeline (:mod:`unob.summarizer.pipeline`)
reads the crawls of one batch and the summary DB's current state, asks these
functions what to do, and writes the answer.  The rules (seed 002,
``reference/unobtanium.md`` §4, ``docs/summarizer.md``):

*Generations* (:func:`plan_generations`), per URL, crawls in log order:

* content (a page, a file, a redirect) equal to the URL's open generation
  (same content signature) is a **self-duplicate**: no new generation, the
  open one's ``last_seen`` is extended (and ``first_seen`` moved back when an
  older crawl arrives late from another crawl DB);
* content that differs makes a **new generation** ``[t, t]`` and closes the
  open one at ``t`` (``confirmed_end = t``);
* 304 Not Modified confirms the open generation like a self-duplicate;
* 404 / 410 **close** the open generation at the crawl's time;
* any other outcome (connection failure, 5xx, robots disallow, ...) is
  **attached** to the open generation and changes nothing: a flaky server must
  not end a page's life;
* a crawl older than what the open generation already saw (``t <
  last_seen``, possible when several crawl DBs feed one summary DB) never
  closes it: differing content becomes a **late generation** that is closed
  at once, at the earliest later time known to have other content.

*Exact duplicates* (:func:`plan_duplicates`), per (origin, text pile) group of
open generations: the shortest URL (ties: the smallest string) is the
original, every other member is a duplicate of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum

__all__ = [
    "Action",
    "CurrentDuplicate",
    "DuplicateMember",
    "DuplicatePlan",
    "GenerationPlan",
    "NewGeneration",
    "Observation",
    "OpenGeneration",
    "Outcome",
    "choose_original",
    "end_duplicates_of_closed",
    "plan_duplicates",
    "plan_generations",
]


class Outcome(Enum):
    """What one crawl of a URL says about the URL's current generation."""

    #: The crawl got something (a page, a file, a redirect): compare signatures.
    CONTENT = "content"
    #: 304: the server confirms the content of the last contentful crawl.
    NOT_MODIFIED = "not_modified"
    #: 404 / 410: nothing there any more.
    GONE = "gone"
    #: Anything else (failures, 5xx, 429, robots disallow): says nothing.
    FAILURE = "failure"


class Action(StrEnum):
    """What the summarizer did with a crawl (``crawl_summary.summarizer_action``)."""

    NEW_GENERATION = "new_generation"
    SELF_DUPLICATE = "self_duplicate"
    CLOSED_GENERATION = "closed_generation"
    LATE_GENERATION = "late_generation"
    ATTACHED = "attached"
    UNATTACHED = "unattached"


@dataclass(frozen=True, slots=True)
class OpenGeneration:
    """The open generation of a URL as stored in the summary DB."""

    generation_id: int
    first_seen: int
    last_seen: int
    signature: bytes


@dataclass(frozen=True, slots=True)
class Observation:
    """One crawl of a URL, reduced to what generation decisions need."""

    url_id: int
    time: int
    outcome: Outcome
    #: Content signature; required for :attr:`Outcome.CONTENT`.
    signature: bytes | None = None


@dataclass(slots=True)
class NewGeneration:
    """A generation to create.  ``key`` is negative: a placeholder for its id."""

    key: int
    url_id: int
    #: Index (in the observation list) of the crawl whose content it holds.
    observation: int
    first_seen: int
    last_seen: int
    confirmed_end: int | None
    signature: bytes


@dataclass(slots=True)
class GenerationUpdate:
    """New time values for an existing generation (only changed fields are set)."""

    first_seen: int
    last_seen: int
    confirmed_end: int | None


@dataclass(slots=True)
class GenerationPlan:
    """The decisions for one batch.

    ``decisions[i]`` is ``(action, generation key)`` for ``observations[i]``;
    a key is an existing ``entity_generation_id`` (positive), a
    :class:`NewGeneration` key (negative) or None (unattached).
    """

    decisions: list[tuple[Action, int | None]] = field(default_factory=list)
    new_generations: list[NewGeneration] = field(default_factory=list)
    updates: dict[int, GenerationUpdate] = field(default_factory=dict)

    @property
    def closed_existing(self) -> list[int]:
        """Ids of stored generations this plan closes."""
        return [gid for gid, u in self.updates.items() if u.confirmed_end is not None]


@dataclass(slots=True)
class _State:
    """The open generation of one URL while a batch is being planned."""

    key: int
    first_seen: int
    last_seen: int
    signature: bytes
    new: NewGeneration | None  # None: a stored generation


def _touch(plan: GenerationPlan, state: _State, *, closed_at: int | None = None) -> None:
    """Record the state's times in the plan (new generations are updated in place)."""
    if state.new is not None:
        state.new.first_seen = state.first_seen
        state.new.last_seen = state.last_seen
        state.new.confirmed_end = closed_at
    else:
        plan.updates[state.key] = GenerationUpdate(state.first_seen, state.last_seen, closed_at)


def plan_generations(
    observations: Sequence[Observation], open_generations: Mapping[int, OpenGeneration]
) -> GenerationPlan:
    """Decide, crawl by crawl in order, which generations to create, extend and close.

    ``open_generations`` maps ``url_id`` to the URL's open generation in the
    summary DB (URLs without one are absent).  Crawls of one URL inside the
    batch see each other's effects, so two identical crawls in one batch make
    one generation, not two.
    """
    plan = GenerationPlan()
    states: dict[int, _State | None] = {}
    for index, obs in enumerate(observations):
        if obs.url_id not in states:
            stored = open_generations.get(obs.url_id)
            states[obs.url_id] = (
                None
                if stored is None
                else _State(
                    stored.generation_id,
                    stored.first_seen,
                    stored.last_seen,
                    stored.signature,
                    None,
                )
            )
        state = states[obs.url_id]
        t = obs.time
        if obs.outcome is Outcome.CONTENT:
            if obs.signature is None:
                raise ValueError("a CONTENT observation needs a signature")
            if state is not None and state.signature == obs.signature:
                state.first_seen = min(state.first_seen, t)
                state.last_seen = max(state.last_seen, t)
                _touch(plan, state)
                plan.decisions.append((Action.SELF_DUPLICATE, state.key))
                continue
            key = -(len(plan.new_generations) + 1)
            new = NewGeneration(key, obs.url_id, index, t, t, None, obs.signature)
            plan.new_generations.append(new)
            if state is not None and t < state.last_seen:
                # Late: the open generation was seen after this crawl, so this
                # content already ended, at the latest when the open one was
                # next seen.
                new.confirmed_end = state.first_seen if t < state.first_seen else state.last_seen
                plan.decisions.append((Action.LATE_GENERATION, key))
                continue
            if state is not None:
                _touch(plan, state, closed_at=t)
            states[obs.url_id] = _State(key, t, t, obs.signature, new)
            plan.decisions.append((Action.NEW_GENERATION, key))
        elif obs.outcome is Outcome.NOT_MODIFIED:
            if state is None:
                plan.decisions.append((Action.UNATTACHED, None))
                continue
            state.first_seen = min(state.first_seen, t)
            state.last_seen = max(state.last_seen, t)
            _touch(plan, state)
            plan.decisions.append((Action.SELF_DUPLICATE, state.key))
        elif obs.outcome is Outcome.GONE:
            if state is None or t < state.last_seen:
                # Nothing open, or the open generation was seen after this 404.
                plan.decisions.append((Action.UNATTACHED, None))
                continue
            _touch(plan, state, closed_at=t)
            states[obs.url_id] = None
            plan.decisions.append((Action.CLOSED_GENERATION, state.key))
        else:
            if state is None:
                plan.decisions.append((Action.UNATTACHED, None))
            else:
                plan.decisions.append((Action.ATTACHED, state.key))
    return plan


# --- exact duplicates ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DuplicateMember:
    """An open generation in an exact-duplicate group (same origin, same text pile)."""

    generation_id: int
    str_url: str
    first_seen: int
    marked_duplicate: bool


@dataclass(frozen=True, slots=True)
class CurrentDuplicate:
    """A ``duplicate_summary`` row that still holds (``ended_unix_utc IS NULL``)."""

    duplicate_summary_id: int
    subject_id: int
    original_id: int
    detected: int


@dataclass(slots=True)
class DuplicatePlan:
    """Changes to ``duplicate_summary`` and ``entity_generation.marked_duplicate``."""

    #: ``duplicate_summary_id -> ended_unix_utc``
    end: dict[int, int] = field(default_factory=dict)
    #: ``(subject_id, original_id, detected_unix_utc)`` rows to insert
    start: list[tuple[int, int, int]] = field(default_factory=list)
    #: ``generation_id -> marked_duplicate``, only where it changes
    marks: dict[int, bool] = field(default_factory=dict)

    def merge(self, other: DuplicatePlan) -> None:
        self.end.update(other.end)
        self.start.extend(other.start)
        self.marks.update(other.marks)


def choose_original(members: Iterable[DuplicateMember]) -> DuplicateMember:
    """The shortest URL; ties broken by the smallest string (seed 002, reference §4.5)."""
    return min(members, key=lambda m: (len(m.str_url), m.str_url))


def end_duplicates_of_closed(
    current: Iterable[CurrentDuplicate], closed_at: Mapping[int, int]
) -> DuplicatePlan:
    """End the relations whose subject or original was closed, at the closing time.

    A closed subject keeps ``marked_duplicate`` (the state it closed with);
    only open generations have their mark recomputed by :func:`plan_duplicates`.
    """
    plan = DuplicatePlan()
    for dup in current:
        times = [closed_at[g] for g in (dup.subject_id, dup.original_id) if g in closed_at]
        if times:
            plan.end[dup.duplicate_summary_id] = max(dup.detected, min(times))
    return plan


def plan_duplicates(
    members: Sequence[DuplicateMember], current: Iterable[CurrentDuplicate]
) -> DuplicatePlan:
    """Recompute one group: the original, the duplicate rows and the marks.

    ``current`` holds the still-holding ``duplicate_summary`` rows that involve
    any member.  Rows that still describe the group are kept as they are (their
    ``detected`` time stays); the others end at the first_seen of the group's
    original (the crawl that made a shorter URL the original).
    """
    plan = DuplicatePlan()
    if not members:
        return plan
    original = choose_original(members)
    by_id = {m.generation_id: m for m in members}
    wanted = {m.generation_id for m in members if m.generation_id != original.generation_id}
    kept: set[int] = set()
    for dup in current:
        if dup.subject_id in wanted and dup.original_id == original.generation_id:
            kept.add(dup.subject_id)
        elif dup.subject_id in by_id or dup.original_id in by_id:
            plan.end[dup.duplicate_summary_id] = max(dup.detected, original.first_seen)
    for subject_id in sorted(wanted - kept):
        subject = by_id[subject_id]
        plan.start.append(
            (subject_id, original.generation_id, max(subject.first_seen, original.first_seen))
        )
    for member in members:
        should = member.generation_id in wanted
        if member.marked_duplicate != should:
            plan.marks[member.generation_id] = should
    return plan
