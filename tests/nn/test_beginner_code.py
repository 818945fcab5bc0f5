"""A typical beginner's PyTorch training script runs on microtorch with only its imports changed.

``SCRIPT`` is written exactly as for PyTorch: a model class, a loss, an optimizer with a
scheduler, a ``DataLoader`` loop with train/eval modes, ``no_grad`` evaluation, and saving and
reloading the weights. The test swaps the import lines for microtorch's and runs it; with
PyTorch installed it runs the original too, and both must train the same way.
"""

from __future__ import annotations

import runpy
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

TORCH_IMPORTS = """import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
"""

MICROTORCH_IMPORTS = """import microtorch as torch
import microtorch.nn as nn
import microtorch.nn.functional as F
from microtorch.utils.data import DataLoader, TensorDataset
"""

SCRIPT = (
    TORCH_IMPORTS
    + """
torch.manual_seed(42)

# Toy data: the label says whether the two coordinates have the same sign.
X = torch.randn(600, 2)
y = ((X[:, 0] * X[:, 1]) > 0).long()

dataset = TensorDataset(X, y)
train_set, val_set = torch.utils.data.random_split(dataset, [0.8, 0.2])
train_loader = DataLoader(train_set, batch_size=32, shuffle=True)
val_loader = DataLoader(val_set, batch_size=64)


class MLP(nn.Module):
    def __init__(self, in_dim, hidden, n_classes):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.body = nn.Sequential(
            nn.Linear(hidden, hidden),
            nn.ReLU(),
            nn.Dropout(0.1),
        )
        self.head = nn.Linear(hidden, n_classes)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = self.body(x)
        return self.head(x)


device = torch.device("cpu")
model = MLP(2, 32, 2).to(device)
print(model)
print("parameters:", sum(p.numel() for p in model.parameters()))

criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10, gamma=0.5)

history = []
for epoch in range(20):
    model.train()
    running_loss = 0.0
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        optimizer.zero_grad()
        logits = model(xb)
        loss = criterion(logits, yb)
        loss.backward()
        optimizer.step()
        running_loss += loss.item() * xb.size(0)
    scheduler.step()

    model.eval()
    correct = 0
    with torch.no_grad():
        for xb, yb in val_loader:
            preds = model(xb).argmax(dim=1)
            correct += (preds == yb).sum().item()
    train_loss = running_loss / len(train_set)
    val_acc = correct / len(val_set)
    history.append((train_loss, val_acc))
    print(f"epoch {epoch:2d}  loss {train_loss:.4f}  val acc {val_acc:.3f}")

torch.save(model.state_dict(), "mlp.pt")
reloaded = MLP(2, 32, 2)
reloaded.load_state_dict(torch.load("mlp.pt"))
reloaded.eval()
with torch.no_grad():
    same = (reloaded(X[:10]) == model(X[:10])).all().item()
print("reloaded model agrees:", same)
"""
)


def run(imports: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Run SCRIPT with the given import lines, inside ``folder``; return its globals."""
    source = SCRIPT.replace(TORCH_IMPORTS, imports, 1)
    path = folder / "train.py"
    path.write_text(source)
    monkeypatch.chdir(folder)
    return runpy.run_path(str(path), run_name="__main__")


def _check(result: dict[str, Any]) -> list[tuple[float, float]]:
    history = result["history"]
    losses = [loss for loss, _ in history]
    assert len(history) == 20
    assert losses[-1] < 0.5 * losses[0]  # training works
    assert history[-1][1] > 0.9  # and generalises to the held-out fifth
    assert result["same"] is True
    return history


def test_beginner_script_runs_on_microtorch(tmp_path: Path, monkeypatch, capsys) -> None:
    assert SCRIPT.count("microtorch") == 0
    history = _check(run(MICROTORCH_IMPORTS, tmp_path, monkeypatch))
    out = capsys.readouterr().out
    assert out.startswith("MLP(\n  (fc1): Linear(in_features=2, out_features=32, bias=True)")
    assert "parameters: 1218" in out and out.count("epoch") == 20
    assert history[0][0] > history[5][0] > history[-1][0]


def test_beginner_script_trains_the_same_way_on_torch(
    torch_module: ModuleType, tmp_path: Path, monkeypatch, capsys
) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "theirs").mkdir()
    mine = _check(run(MICROTORCH_IMPORTS, tmp_path / "mine", monkeypatch))
    mine_out = capsys.readouterr().out
    theirs = _check(run(TORCH_IMPORTS, tmp_path / "theirs", monkeypatch))
    theirs_out = capsys.readouterr().out
    assert len(mine) == len(theirs)
    # Different random draws (each library has its own generator), the same kind of run:
    assert abs(mine[-1][0] - theirs[-1][0]) < 0.15 and abs(mine[-1][1] - theirs[-1][1]) < 0.08
    assert mine_out.split("epoch")[0] == theirs_out.split("epoch")[0]  # model print, count
