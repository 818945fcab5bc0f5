"""nn.ParameterList and nn.ParameterDict against PyTorch 2.13: registration names and order,
reprs (nested too), state_dict, list and dict operations, and training through them."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

import microtorch


def _life(lib: ModuleType) -> list[Any]:
    nn = lib.nn
    pl = nn.ParameterList([nn.Parameter(lib.ones(3)), lib.zeros(2, 2)])
    pl.append(lib.ones(1, dtype=lib.float64))
    pl += [lib.full((2,), 3.0)]
    seen: list[Any] = [repr(pl), [n for n, _ in pl.named_parameters()], len(pl)]
    seen += [type(pl[1]).__name__, pl[-1].tolist(), repr(pl[1:3]), [p.shape for p in pl]]
    pl[0] = lib.full((2,), 7.0)
    seen += [pl[0].tolist(), type(pl[0]).__name__, list(pl.state_dict())]
    pd = nn.ParameterDict({"b": nn.Parameter(lib.ones(3)), "a": lib.zeros(2)})
    pd["c"] = nn.Parameter(lib.ones(1))
    pd.update([("z", lib.ones(2)), ("d", lib.zeros(1))])
    seen += [repr(pd), list(pd.keys()), [n for n, _ in pd.named_parameters()], len(pd)]
    seen += ["a" in pd, pd.pop("a").tolist(), list(pd), [v.shape for v in pd.values()]]
    del pd["z"]
    seen += [[k for k, _ in pd.items()], pd.get("nope", 5), repr(nn.ParameterList())]

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.ws = nn.ParameterList([nn.Parameter(lib.ones(2)) for _ in range(2)])
            self.bs = nn.ParameterDict({"x": nn.Parameter(lib.zeros(2))})

        def forward(self, x: Any) -> Any:
            return (x * self.ws[0] * self.ws[1] + self.bs["x"]).sum()

    net = Net()
    opt = lib.optim.SGD(net.parameters(), lr=0.5)
    net(lib.tensor([1.0, 2.0])).backward()
    opt.step()
    seen += [repr(net), list(net.state_dict()), [p.tolist() for p in net.parameters()]]
    return [str(s).replace("microtorch.", "torch.") for s in seen]


def test_parameter_containers_match_torch(torch_module: ModuleType) -> None:
    assert _life(microtorch) == _life(torch_module)


def test_load_state_dict_through_a_parameter_list() -> None:
    a = microtorch.nn.ParameterList([microtorch.nn.Parameter(microtorch.zeros(2))])
    b = microtorch.nn.ParameterList([microtorch.nn.Parameter(microtorch.ones(2))])
    a.load_state_dict(b.state_dict())
    np.testing.assert_array_equal(a[0].detach().numpy(), [1.0, 1.0])
