"""The "Neural Networks" part of PyTorch's 60-minute blitz runs unchanged on microtorch.

``SCRIPT`` is the tutorial's code as published (LeNet, a backward from a random gradient, the
MSE loss and its ``grad_fn`` chain, the manual update through ``.data`` and the SGD step),
with the printing kept. The test swaps ``import torch`` for microtorch's and runs it; with
PyTorch installed it runs the original too: what both print is the same once the values
(different random draws) and object addresses are masked.
"""

from __future__ import annotations

import re
import runpy
from pathlib import Path
from types import ModuleType

import pytest

TORCH_IMPORTS = """import torch
import torch.nn as nn
import torch.nn.functional as F
"""
MICROTORCH_IMPORTS = """import microtorch as torch
import microtorch.nn as nn
import microtorch.nn.functional as F
"""

SCRIPT = (
    TORCH_IMPORTS
    + """

class Net(nn.Module):

    def __init__(self):
        super(Net, self).__init__()
        # 1 input image channel, 6 output channels, 5x5 square convolution
        # kernel
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        # an affine operation: y = Wx + b
        self.fc1 = nn.Linear(16 * 5 * 5, 120)  # 5*5 from image dimension
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, input):
        # Convolution layer C1: 1 input image channel, 6 output channels,
        # 5x5 square convolution, it uses RELU activation function, and
        # outputs a Tensor with size (N, 6, 28, 28), where N is the size of the batch
        c1 = F.relu(self.conv1(input))
        # Subsampling layer S2: 2x2 grid, purely functional,
        # this layer does not have any parameter, and outputs a (N, 6, 14, 14) Tensor
        s2 = F.max_pool2d(c1, (2, 2))
        # Convolution layer C3: 6 input channels, 16 output channels,
        # 5x5 square convolution, it uses RELU activation function, and
        # outputs a (N, 16, 10, 10) Tensor
        c3 = F.relu(self.conv2(s2))
        # Subsampling layer S4: 2x2 grid, purely functional,
        # this layer does not have any parameter, and outputs a (N, 16, 5, 5) Tensor
        s4 = F.max_pool2d(c3, 2)
        # Flatten operation: purely functional, outputs a (N, 400) Tensor
        s4 = torch.flatten(s4, 1)
        # Fully connected layer F5: (N, 400) Tensor input,
        # and outputs a (N, 120) Tensor, it uses RELU activation function
        f5 = F.relu(self.fc1(s4))
        # Fully connected layer F6: (N, 120) Tensor input,
        # and outputs a (N, 84) Tensor, it uses RELU activation function
        f6 = F.relu(self.fc2(f5))
        # Gaussian layer OUTPUT: (N, 84) Tensor input, and
        # outputs a (N, 10) Tensor
        output = self.fc3(f6)
        return output


net = Net()
print(net)

params = list(net.parameters())
print(len(params))
print(params[0].size())  # conv1's .weight

input = torch.randn(1, 1, 32, 32)
out = net(input)
print(out)

net.zero_grad()
out.backward(torch.randn(1, 10))

output = net(input)
target = torch.randn(10)  # a dummy target, for example
target = target.view(1, -1)  # make it the same shape as output
criterion = nn.MSELoss()

loss = criterion(output, target)
print(loss)

print(loss.grad_fn)  # MSELoss
print(loss.grad_fn.next_functions[0][0])  # Linear
print(loss.grad_fn.next_functions[0][0].next_functions[0][0])  # ReLU

net.zero_grad()     # zeroes the gradient buffers of all parameters

print('conv1.bias.grad before backward')
print(net.conv1.bias.grad)

loss.backward()

print('conv1.bias.grad after backward')
print(net.conv1.bias.grad)

learning_rate = 0.01
for f in net.parameters():
    f.data.sub_(f.grad.data * learning_rate)

import torch.optim as optim

# create your optimizer
optimizer = optim.SGD(net.parameters(), lr=0.01)

# in your training loop:
optimizer.zero_grad()   # zero the gradient buffers
output = net(input)
loss = criterion(output, target)
loss.backward()
optimizer.step()    # Does the update
"""
)


def _run(imports: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    source = SCRIPT.replace(TORCH_IMPORTS, imports, 1)
    if imports == MICROTORCH_IMPORTS:
        source = source.replace("import torch.optim as optim", "import microtorch.optim as optim")
    path = folder / "blitz.py"
    path.write_text(source)
    monkeypatch.chdir(folder)
    return runpy.run_path(str(path), run_name="__main__")


def _masked(text: str) -> str:
    text = text.replace("microtorch", "torch")
    text = re.sub(r"0x[0-9a-f]+", "0x...", text)
    text = re.sub(r"-?\d+\.\d+(e[-+]\d+)?", "N", text)  # the values differ: other random draws
    text = re.sub(r"\s+", " ", text)  # and so do the widths and line breaks that fit them
    return text.replace("[ ", "[")


def test_the_blitz_runs_on_microtorch(tmp_path: Path, monkeypatch, capsys) -> None:
    result = _run(MICROTORCH_IMPORTS, tmp_path, monkeypatch)
    out = capsys.readouterr().out
    assert "Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))" in out
    assert "10\nmicrotorch.Size([6, 1, 5, 5])" in out
    assert "<MseLossBackward0 object at" in out and "<AddmmBackward0 object at" in out
    assert "conv1.bias.grad before backward\nNone\n" in out
    assert result["net"].conv1.bias.grad.shape == (6,)


def test_the_blitz_prints_what_torch_prints(
    torch_module: ModuleType, tmp_path: Path, monkeypatch, capsys
) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "theirs").mkdir()
    _run(MICROTORCH_IMPORTS, tmp_path / "mine", monkeypatch)
    mine = capsys.readouterr().out
    _run(TORCH_IMPORTS, tmp_path / "theirs", monkeypatch)
    theirs = capsys.readouterr().out
    assert _masked(mine) == _masked(theirs)
