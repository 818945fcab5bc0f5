"""docs/api_walk.md records the walk of PyTorch 2.13's namespaces (tests/api_walk.py): every
walked name is a row of docs/api_coverage.md or is listed once there, under a category that
keeps it out of microtorch or under "Still to do"; and what it lists is true of both libraries."""

from __future__ import annotations

import re
from collections import Counter
from types import ModuleType

import microtorch
from tests.api_walk import TO_DO, WALK, table_names, walk_lists, walked_names


def _listed() -> list[str]:
    return [name for names in walk_lists().values() for name in names]


def _present(root: object, dotted: str) -> bool:
    obj = root
    for part in dotted.split(".")[1:]:
        try:
            obj = getattr(obj, part)
        except AttributeError:  # NotCoveredError is one too
            return False
    return not isinstance(obj, ModuleType)  # microtorch.autograd.variable is a module of its own


def test_every_walked_name_has_a_row_or_a_place_in_the_walk(torch_module: ModuleType) -> None:
    walked, rows, listed = walked_names(torch_module), table_names(), set(_listed())
    unplaced = sorted(walked - rows - listed)
    assert not unplaced, f"{len(unplaced)} names of PyTorch's namespaces in neither doc: {unplaced}"


def test_the_walk_lists_each_name_once_and_only_names_pytorch_has(torch_module: ModuleType):
    listed = _listed()
    twice = sorted(name for name, n in Counter(listed).items() if n > 1)
    assert not twice, f"listed more than once in {WALK.name}: {twice}"
    stale = sorted(set(listed) - walked_names(torch_module))
    assert not stale, f"{WALK.name} lists names PyTorch 2.13's walk does not have: {stale}"
    both = sorted(set(listed) & table_names())
    assert not both, f"listed in {WALK.name} and given a row in api_coverage.md: {both}"


def test_no_name_the_walk_lists_exists_in_microtorch(torch_module: ModuleType) -> None:
    """A name implemented while still listed (to do, or in a category) fails: give it its row."""
    present = [name for name in _listed() if _present(microtorch, name)]
    assert not present, f"implemented, so move from {WALK.name} to api_coverage.md: {present}"
    assert all(_present(torch_module, name) for name in _listed())


def test_the_walks_counts_are_true(torch_module: ModuleType) -> None:
    text = WALK.read_text()
    found = re.search(
        r"Walked: (\d+) names; (\d+) have a row .*?, (\d+) are still to do, and "
        r"(\d+) belong",
        text,
        flags=re.S,
    )
    assert found, "the counts sentence of docs/api_walk.md"
    walked = walked_names(torch_module)
    lists = walk_lists()
    to_do = len(lists[TO_DO])
    expected = (len(walked), len(walked & table_names()), to_do, len(_listed()) - to_do)
    assert tuple(map(int, found.groups())) == expected


def test_each_category_says_why() -> None:
    lists = walk_lists()
    assert TO_DO in lists and len(lists) >= 10
    for heading, names in lists.items():
        section = WALK.read_text().split(f"### {heading}\n", 1)[1].split("```names", 1)[0]
        assert len(section.split()) >= 5, f"{heading}: say why these names stay out"
        assert names or heading == TO_DO, heading  # (to do: empty once issue 24 is done)
