"""Small PyTorch APIs beginners use: torch.cuda on a CPU machine, allclose/equal/isclose,
and PyTorch's three wordings of the integer requires_grad error."""

from __future__ import annotations

from types import ModuleType

import pytest

import microtorch as torch


def test_cuda_answers_as_on_a_cpu_only_machine() -> None:
    assert torch.cuda.is_available() is False
    assert torch.cuda.device_count() == 0
    device = "cuda" if torch.cuda.is_available() else "cpu"
    assert torch.ones(2, device=device).device.type == "cpu"


def test_allclose_equal_isclose() -> None:
    a = torch.tensor([1.0, 2.0])
    assert torch.allclose(a, a + 1e-9) and not torch.allclose(a, a + 1e-3)
    assert torch.equal(a, torch.tensor([1.0, 2.0])) and not torch.equal(a, torch.ones(3))
    assert torch.isclose(a, torch.tensor([1.0, 2.5])).tolist() == [True, False]
    assert a.allclose(a) and a.equal(a)


@pytest.mark.parametrize(
    "make",
    [
        lambda t: t.tensor([1, 2]).requires_grad_(),
        lambda t: t.tensor([1, 2], requires_grad=True),
        lambda t: setattr(t.tensor([1, 2]), "requires_grad", True),
        lambda t: t.zeros(2, dtype=t.long, requires_grad=True),
    ],
    ids=["method", "factory", "attribute", "zeros"],
)
def test_integer_requires_grad_error_has_pytorchs_words(make, torch_module: ModuleType) -> None:
    with pytest.raises(RuntimeError) as theirs:
        make(torch_module)
    with pytest.raises(RuntimeError) as ours:
        make(torch)
    assert str(ours.value).startswith(str(theirs.value))
