"""The summarizer's pure decisions: generations, self-duplicates, exact duplicates."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from unob.summarizer.generations import (
    Action,
    CurrentDuplicate,
    DuplicateMember,
    Observation,
    OpenGeneration,
    Outcome,
    choose_original,
    end_duplicates_of_closed,
    plan_duplicates,
    plan_generations,
)

A, B = b"A" * 16, b"B" * 16


def content(url_id: int, t: int, sig: bytes) -> Observation:
    return Observation(url_id, t, Outcome.CONTENT, sig)


def test_first_crawl_creates_open_generation() -> None:
    plan = plan_generations([content(1, 100, A)], {})
    assert plan.decisions == [(Action.NEW_GENERATION, -1)]
    (new,) = plan.new_generations
    assert (new.url_id, new.first_seen, new.last_seen, new.confirmed_end) == (1, 100, 100, None)
    assert plan.updates == {}


def test_same_content_is_self_duplicate_extending_last_seen() -> None:
    stored = {1: OpenGeneration(7, 100, 100, A)}
    plan = plan_generations([content(1, 200, A)], stored)
    assert plan.decisions == [(Action.SELF_DUPLICATE, 7)]
    assert plan.new_generations == []
    assert (plan.updates[7].last_seen, plan.updates[7].confirmed_end) == (200, None)


def test_changed_content_closes_old_at_new_first_seen() -> None:
    stored = {1: OpenGeneration(7, 100, 150, A)}
    plan = plan_generations([content(1, 200, B)], stored)
    assert plan.decisions == [(Action.NEW_GENERATION, -1)]
    assert plan.updates[7].confirmed_end == 200
    assert plan.closed_existing == [7]
    assert plan.new_generations[0].first_seen == 200


def test_two_identical_crawls_in_one_batch_make_one_generation() -> None:
    plan = plan_generations([content(1, 100, A), content(1, 160, A)], {})
    assert [d[0] for d in plan.decisions] == [Action.NEW_GENERATION, Action.SELF_DUPLICATE]
    assert len(plan.new_generations) == 1
    assert plan.new_generations[0].last_seen == 160


def test_change_inside_one_batch_closes_the_batch_generation() -> None:
    plan = plan_generations([content(1, 100, A), content(1, 160, B)], {})
    first, second = plan.new_generations
    assert first.confirmed_end == 160 and second.confirmed_end is None


def test_not_modified_extends_and_gone_closes() -> None:
    stored = {1: OpenGeneration(7, 100, 100, A)}
    obs = [Observation(1, 150, Outcome.NOT_MODIFIED), Observation(1, 300, Outcome.GONE)]
    plan = plan_generations(obs, stored)
    assert plan.decisions == [(Action.SELF_DUPLICATE, 7), (Action.CLOSED_GENERATION, 7)]
    assert (plan.updates[7].last_seen, plan.updates[7].confirmed_end) == (150, 300)


def test_failures_attach_and_change_nothing() -> None:
    stored = {1: OpenGeneration(7, 100, 100, A)}
    plan = plan_generations([Observation(1, 150, Outcome.FAILURE)], stored)
    assert plan.decisions == [(Action.ATTACHED, 7)]
    assert plan.updates == {}
    alone = plan_generations([Observation(2, 150, Outcome.FAILURE)], stored)
    assert alone.decisions == [(Action.UNATTACHED, None)]


def test_gone_then_back_makes_a_new_generation() -> None:
    stored = {1: OpenGeneration(7, 100, 100, A)}
    plan = plan_generations([Observation(1, 150, Outcome.GONE), content(1, 200, A)], stored)
    assert plan.decisions == [(Action.CLOSED_GENERATION, 7), (Action.NEW_GENERATION, -1)]


def test_late_crawl_from_another_db_does_not_close() -> None:
    stored = {1: OpenGeneration(7, 100, 300, A)}
    plan = plan_generations([content(1, 50, B), Observation(1, 60, Outcome.GONE)], stored)
    assert plan.decisions[0] == (Action.LATE_GENERATION, -1)
    assert plan.decisions[1] == (Action.UNATTACHED, None)
    late = plan.new_generations[0]
    assert (late.first_seen, late.last_seen, late.confirmed_end) == (50, 50, 100)
    assert plan.updates == {}
    earlier_same = plan_generations([content(1, 50, A)], stored)
    assert earlier_same.updates[7].first_seen == 50


observations = st.lists(
    st.builds(
        Observation,
        url_id=st.integers(1, 3),
        time=st.integers(0, 50),
        outcome=st.sampled_from(list(Outcome)),
        signature=st.sampled_from([A, B]),
    ),
    max_size=30,
)


@given(observations)
def test_invariants(obs: list[Observation]) -> None:
    stored = {1: OpenGeneration(99, 10, 20, A)}
    plan = plan_generations(obs, stored)
    assert len(plan.decisions) == len(obs)
    open_per_url: dict[int, int] = {}
    for new in plan.new_generations:
        assert new.first_seen <= new.last_seen
        if new.confirmed_end is None:
            open_per_url[new.url_id] = open_per_url.get(new.url_id, 0) + 1
        else:
            assert new.confirmed_end >= new.first_seen
    if (99 in plan.updates and plan.updates[99].confirmed_end is None) or 99 not in plan.updates:
        open_per_url[1] = open_per_url.get(1, 0) + 1
    assert all(count <= 1 for count in open_per_url.values())


def member(gid: int, url: str, first: int = 0, marked: bool = False) -> DuplicateMember:
    return DuplicateMember(gid, url, first, marked)


def test_shortest_url_then_smallest_string_is_original() -> None:
    group = [member(1, "http://a/long"), member(2, "http://a/b"), member(3, "http://a/a")]
    assert choose_original(group).generation_id == 3


def test_new_group_marks_all_but_the_original() -> None:
    plan = plan_duplicates([member(1, "http://a/x", 5), member(2, "http://a/xyz", 9)], [])
    assert plan.start == [(2, 1, 9)]
    assert plan.marks == {2: True}
    assert plan.end == {}


def test_existing_relations_are_kept() -> None:
    group = [member(1, "http://a/x"), member(2, "http://a/xyz", marked=True)]
    plan = plan_duplicates(group, [CurrentDuplicate(10, 2, 1, 0)])
    assert (plan.start, plan.end, plan.marks) == ([], {}, {})


def test_shorter_newcomer_takes_over() -> None:
    group = [
        member(1, "http://a/xy", 0),
        member(2, "http://a/xyz", 0, marked=True),
        member(3, "http://a/x", 50),
    ]
    plan = plan_duplicates(group, [CurrentDuplicate(10, 2, 1, 0)])
    assert plan.end == {10: 50}
    assert sorted(plan.start) == [(1, 3, 50), (2, 3, 50)]
    assert plan.marks == {1: True}


def test_closed_original_ends_relation_and_survivor_is_unmarked() -> None:
    ended = end_duplicates_of_closed([CurrentDuplicate(10, 2, 1, 5)], {1: 70})
    assert ended.end == {10: 70}
    plan = plan_duplicates([member(2, "http://a/xyz", marked=True)], [])
    assert plan.marks == {2: False} and plan.start == []
