"""Real teaching code: short programs in the style of published beginner PyTorch material.

Each program is one function ``run(torch, data)`` written against the PyTorch API, so the same
source runs with ``import microtorch as torch`` and with real torch. ``data`` is made once, with
numpy and the standard library only (seeded, from course_data/ or synthetic, no downloads), and
handed to both; initial weights come from it too, so both libraries compute the same numbers.
A program returns a tuple of floats (losses, sums) that the two libraries must agree on before
anything is timed (``check``).

``PROGRAMS`` maps a name to a ``Program``; ``make_data(tiny=True)`` builds a small version of the
data for the quick test (tests/test_benchmarks_realcode.py), ``tiny=False`` the benchmark's size
(each program about 0.2-1 s on torch, one thread).
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

import numpy as np

Data = dict[str, Any]


@dataclass(frozen=True)
class Program:
    run: Callable[[Any, Data], tuple[float, ...]]
    make_data: Callable[[bool], Data]
    rtol: float = 1e-4  # how closely microtorch's results must match torch's

    @property
    def name(self) -> str:
        return self.run.__name__

    @property
    def what(self) -> str:  # one line for the table: the docstring
        return (self.run.__doc__ or "").strip()


def _words() -> list[str]:
    """The words of chapter 10's corpus, in order: the 'names list' of the counting programs."""
    text = files("course_data").joinpath("tiny_corpus.txt").read_text(encoding="utf-8")
    return re.findall(r"[a-z]+", text)


def _stoi(words: list[str]) -> dict[str, int]:
    chars = sorted(set("".join(words)))
    return {"." if i == 0 else chars[i - 1]: i for i in range(len(chars) + 1)}


def _contexts(words: list[str], block_size: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """makemore's dataset: every 3-character context of every word, and the character after."""
    stoi, xs, ys = _stoi(words), [], []
    for w in words:
        context = [0] * block_size
        for ch in w + ".":
            xs.append(context)
            ys.append(stoi[ch])
            context = context[1:] + [stoi[ch]]
    return np.array(xs), np.array(ys)


def _init(rng: np.random.Generator, *shape: int, scale: float = 1.0) -> np.ndarray:
    return (rng.standard_normal(shape) * scale).astype(np.float32)


# --- 1. counting bigrams with scalar index updates ------------------------------------------
def bigram_counts(torch: Any, data: Data) -> tuple[float, ...]:
    """N[i, j] += 1 over 40k char pairs, then 10k P[i, j] reads"""
    words = data["words"]
    chars = sorted(set("".join(words)))
    stoi = {ch: i + 1 for i, ch in enumerate(chars)}
    stoi["."] = 0
    N = torch.zeros((len(stoi), len(stoi)), dtype=torch.int32)
    for w in words:
        chs = ["."] + list(w) + ["."]
        for ch1, ch2 in zip(chs, chs[1:]):
            N[stoi[ch1], stoi[ch2]] += 1
    P = (N + 1).float()
    P /= P.sum(1, keepdim=True)
    # the model's average negative log likelihood, one pair at a time
    log_likelihood, n = 0.0, 0
    for w in words[: data["scored"]]:
        chs = ["."] + list(w) + ["."]
        for ch1, ch2 in zip(chs, chs[1:]):
            log_likelihood += torch.log(P[stoi[ch1], stoi[ch2]]).item()
            n += 1
    return float(N.sum().item()), -log_likelihood / n


def _bigram_data(tiny: bool) -> Data:
    words = _words()
    words = words[:60] if tiny else words * 10  # 6,650 words, 40,000 updates
    return {"words": words, "scored": len(words) // 4}


# --- 2. a long text encoded into a tensor, then nanoGPT-style batches ----------------------
def encode_text(torch: Any, data: Data) -> tuple[float, ...]:
    """1M chars -> torch.tensor(list), 100 stacked batches"""
    text = data["text"]
    chars = sorted(set(text))
    stoi = {ch: i for i, ch in enumerate(chars)}
    itos = dict(enumerate(chars))
    encoded = torch.tensor([stoi[c] for c in text], dtype=torch.long)
    n = int(0.9 * len(encoded))
    train_data, val_data = encoded[:n], encoded[n:]
    block_size, total = 8, 0
    for offsets in data["offsets"]:
        ix = torch.tensor(offsets)
        x = torch.stack([train_data[i : i + block_size] for i in ix])
        y = torch.stack([train_data[i + 1 : i + block_size + 1] for i in ix])
        total += int(x.sum()) - int(y.sum())
    decoded = "".join(itos[i] for i in val_data[:200].tolist())
    assert text[n : n + 200] == decoded
    return float(encoded.sum()), float(total), float(val_data.float().mean())


def _text_data(tiny: bool) -> Data:
    text = files("course_data").joinpath("tiny_corpus.txt").read_text(encoding="utf-8")
    length = 5_000 if tiny else 1_000_000
    text = (text * (length // len(text) + 1))[:length]
    rng = np.random.default_rng(10)
    offsets = rng.integers(0, int(0.9 * length) - 9, (4 if tiny else 100, 32))
    return {"text": text, "offsets": offsets}


# --- 3-6, 13. fitting a cubic to sin(x): tensors, autograd, nn, optim, a custom Function ---
def poly_tensors(torch: Any, data: Data) -> tuple[float, ...]:
    """Cubic fit, 2000 points, 2000 steps, gradients by hand"""
    x = torch.linspace(-math.pi, math.pi, data["points"])
    y = torch.sin(x)
    a, b, c, d = (torch.tensor(v) for v in data["init"])
    lr = 1e-6
    for _ in range(data["steps"]):
        y_pred = a + b * x + c * x**2 + d * x**3
        loss = (y_pred - y).pow(2).sum().item()
        # backprop by hand: d(loss)/d(y_pred), then the chain rule for each coefficient
        grad_y_pred = 2.0 * (y_pred - y)
        grad_a = grad_y_pred.sum()
        grad_b = (grad_y_pred * x).sum()
        grad_c = (grad_y_pred * x**2).sum()
        grad_d = (grad_y_pred * x**3).sum()
        a -= lr * grad_a
        b -= lr * grad_b
        c -= lr * grad_c
        d -= lr * grad_d
    return loss, a.item(), b.item(), c.item(), d.item()


def poly_autograd(torch: Any, data: Data) -> tuple[float, ...]:
    """The same fit with requires_grad and backward()"""
    x = torch.linspace(-math.pi, math.pi, data["points"])
    y = torch.sin(x)
    a, b, c, d = (torch.tensor(v, requires_grad=True) for v in data["init"])
    lr, losses = 1e-6, []
    for t in range(data["steps"]):
        y_pred = a + b * x + c * x**2 + d * x**3
        loss = (y_pred - y).pow(2).sum()
        if t % 100 == 99:
            losses.append(loss.item())
        loss.backward()
        with torch.no_grad():
            for p in (a, b, c, d):
                p -= lr * p.grad
                p.grad = None
    return (*losses, loss.item(), d.item())


def poly_nn(torch: Any, data: Data) -> tuple[float, ...]:
    """The same fit with nn.Linear(3, 1), MSELoss, manual update"""
    nn = torch.nn
    x = torch.linspace(-math.pi, math.pi, data["points"])
    y = torch.sin(x)
    xx = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3]))  # (points, 3): x, x^2, x^3
    model = nn.Sequential(nn.Linear(3, 1), nn.Flatten(0, 1))
    with torch.no_grad():
        model[0].bias.fill_(data["init"][0])
        model[0].weight.copy_(torch.tensor([data["init"][1:]]))
    loss_fn = nn.MSELoss(reduction="sum")
    lr, losses = 1e-6, []
    for t in range(data["steps"]):
        loss = loss_fn(model(xx), y)
        if t % 100 == 99:
            losses.append(loss.item())
        model.zero_grad()
        loss.backward()
        with torch.no_grad():
            for param in model.parameters():
                param -= lr * param.grad
    return (*losses, loss.item(), model[0].weight[0, 2].item())


def poly_optim(torch: Any, data: Data) -> tuple[float, ...]:
    """The same fit, custom nn.Module, optim.SGD(momentum)"""
    nn = torch.nn

    class Cubic(nn.Module):
        def __init__(self, init: list[float]) -> None:
            super().__init__()
            self.a, self.b, self.c, self.d = (nn.Parameter(torch.tensor(v)) for v in init)

        def forward(self, x: Any) -> Any:
            return self.a + self.b * x + self.c * x**2 + self.d * x**3

    x = torch.linspace(-math.pi, math.pi, data["points"])
    y = torch.sin(x)
    model = Cubic(data["init"])
    criterion = nn.MSELoss(reduction="sum")
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-6, momentum=0.9)
    losses = []
    for t in range(data["steps"]):
        loss = criterion(model(x), y)
        if t % 100 == 99:
            losses.append(loss.item())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return (*losses, loss.item(), model.d.item())


def poly_function(torch: Any, data: Data) -> tuple[float, ...]:
    """A fit through a custom autograd.Function"""

    class Cubed(torch.autograd.Function):
        """u -> u^3 - 3u, its derivative 3u^2 - 3 written by hand."""

        @staticmethod
        def forward(ctx: Any, u: Any) -> Any:
            ctx.save_for_backward(u)
            return u**3 - 3 * u

        @staticmethod
        def backward(ctx: Any, grad_output: Any) -> Any:
            (u,) = ctx.saved_tensors
            return grad_output * (3 * u**2 - 3)

    x = torch.linspace(-math.pi, math.pi, data["points"])
    y = torch.sin(x)
    a, b, c, d = (torch.tensor(v, requires_grad=True) for v in data["init_function"])
    lr, losses = 5e-6, []
    for t in range(data["steps"]):
        y_pred = a + b * Cubed.apply(c + d * x)
        loss = (y_pred - y).pow(2).sum()
        if t % 100 == 99:
            losses.append(loss.item())
        loss.backward()
        with torch.no_grad():
            for p in (a, b, c, d):
                p -= lr * p.grad
                p.grad = None
    return (*losses, loss.item(), d.item())


def _poly_data(tiny: bool) -> Data:
    rng = np.random.default_rng(3)
    return {
        "points": 200 if tiny else 2000,
        "steps": 100 if tiny else 2000,
        "init": [float(v) for v in rng.standard_normal(4).astype(np.float32)],
        "init_function": [0.0, -0.3, 0.0, 0.4],
    }


# --- 7. makemore-style character MLP: embeddings, tanh, cross entropy, AdamW at batch 32 ---
def char_mlp(torch: Any, data: Data) -> tuple[float, ...]:
    """Makemore MLP: Embedding, tanh, cross_entropy, AdamW, 1000 steps"""
    F = torch.nn.functional
    X, Y = torch.tensor(data["X"]), torch.tensor(data["Y"])
    C, W1, b1, W2, b2 = (torch.tensor(w) for w in data["weights"])
    parameters = [C, W1, b1, W2, b2]
    for p in parameters:
        p.requires_grad = True
    optimizer = torch.optim.AdamW(parameters, lr=3e-3, weight_decay=0.01)
    batches = torch.tensor(data["batches"])
    for i in range(len(batches)):
        ix = batches[i]
        emb = C[X[ix]]  # (32, 3, 10)
        h = torch.tanh(emb.view(-1, 30) @ W1 + b1)  # (32, 100)
        logits = h @ W2 + b2  # (32, 27)
        loss = F.cross_entropy(logits, Y[ix])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        h = torch.tanh(C[X].view(-1, 30) @ W1 + b1)
        full_loss = F.cross_entropy(h @ W2 + b2, Y)
    return loss.item(), full_loss.item()


def _char_mlp_data(tiny: bool) -> Data:
    X, Y = _contexts(_words())
    rng = np.random.default_rng(4)
    weights = [
        _init(rng, 27, 10),
        _init(rng, 30, 100, scale=0.2),
        _init(rng, 100, scale=0.01),
        _init(rng, 100, 27, scale=0.01),
        np.zeros(27, np.float32),
    ]
    batches = rng.integers(0, len(X), (30 if tiny else 1000, 32))
    return {"X": X, "Y": Y, "weights": weights, "batches": batches}


# --- 8. batch-norm calibration: full-batch statistics over a big activation ---------------
def batchnorm_calib(torch: Any, data: Data) -> tuple[float, ...]:
    """C[X], 182k x 200 matmul, mean/std over dim 0, eval"""
    F = torch.nn.functional
    Xtr, Ytr = torch.tensor(data["X"]), torch.tensor(data["Y"])
    C, W1, b1, W2, b2, bngain, bnbias = (torch.tensor(w) for w in data["weights"])
    with torch.no_grad():
        emb = C[Xtr]  # (N, 3, 10)
        embcat = emb.view(emb.shape[0], -1)  # (N, 30)
        hpreact = embcat @ W1 + b1  # (N, 200)
        bnmean = hpreact.mean(0, keepdim=True)
        bnstd = hpreact.std(0, keepdim=True)
        # the training split's loss with the calibrated statistics
        h = torch.tanh(bngain * (hpreact - bnmean) / bnstd + bnbias)
        logits = h @ W2 + b2
        loss = F.cross_entropy(logits, Ytr)
    return loss.item(), bnmean.sum().item(), bnstd.sum().item()


def _batchnorm_data(tiny: bool) -> Data:
    X, Y = _contexts(_words())
    rows = 500 if tiny else 182_000
    rng = np.random.default_rng(5)
    pick = rng.integers(0, len(X), rows)
    weights = [
        _init(rng, 27, 10),
        _init(rng, 30, 200, scale=0.3),
        _init(rng, 200, scale=0.01),
        _init(rng, 200, 27, scale=0.01),
        np.zeros(27, np.float32),
        np.ones((1, 200), np.float32),
        np.zeros((1, 200), np.float32),
    ]
    return {"X": X[pick], "Y": Y[pick], "weights": weights}


# --- 9. a small CNN on 28x28 images from a DataLoader ---------------------------------------
def small_cnn(torch: Any, data: Data) -> tuple[float, ...]:
    """2 Conv2d + AvgPool2d, 640 28x28 images, batch 64, 2 epochs"""
    nn, F = torch.nn, torch.nn.functional

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, padding=2)  # 28x28 -> 28x28
            self.conv2 = nn.Conv2d(6, 16, 5)  # 14x14 -> 10x10
            self.pool = nn.AvgPool2d(2)
            self.fc1 = nn.Linear(16 * 5 * 5, 64)
            self.fc2 = nn.Linear(64, 10)

        def forward(self, x: Any) -> Any:
            x = self.pool(F.relu(self.conv1(x)))  # (B, 6, 14, 14)
            x = self.pool(F.relu(self.conv2(x)))  # (B, 16, 5, 5)
            x = torch.flatten(x, 1)
            return self.fc2(F.relu(self.fc1(x)))

    model = Net()
    with torch.no_grad():
        for p, w in zip(model.parameters(), data["weights"]):
            p.copy_(torch.tensor(w))
    dataset = torch.utils.data.TensorDataset(
        torch.tensor(data["images"]), torch.tensor(data["labels"])
    )
    loader = torch.utils.data.DataLoader(dataset, batch_size=64, shuffle=False)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for _epoch in range(data["epochs"]):
        running = 0.0
        for images, labels in loader:
            optimizer.zero_grad()
            loss = criterion(model(images), labels)
            loss.backward()
            optimizer.step()
            running += loss.item()
    correct = 0
    with torch.no_grad():
        for images, labels in loader:
            correct += (model(images).argmax(1) == labels).sum().item()
    return running, float(correct)


def _cnn_data(tiny: bool) -> Data:
    rng = np.random.default_rng(6)
    n = 64 if tiny else 640
    labels = rng.integers(0, 10, n)
    images = rng.standard_normal((n, 1, 28, 28)).astype(np.float32) * 0.3
    for k in range(10):  # each class lights up its own 5x5 patch: something to learn
        r, c = 3 + (k // 5) * 12, 2 + (k % 5) * 5
        images[labels == k, 0, r : r + 5, c : c + 5] += 1.0
    shapes = [(6, 1, 5, 5), (6,), (16, 6, 5, 5), (16,), (64, 400), (64,), (10, 64), (10,)]
    fan_in = [25, 25, 150, 150, 400, 400, 64, 64]
    weights = [_init(rng, *s, scale=1 / math.sqrt(f)) for s, f in zip(shapes, fan_in)]
    return {"images": images, "labels": labels, "weights": weights, "epochs": 1 if tiny else 2}


# --- 10. a DataLoader feeding a linear model ------------------------------------------------
def dataloader_linear(torch: Any, data: Data) -> tuple[float, ...]:
    """TensorDataset + DataLoader(64) + Linear, 10 epochs"""
    nn = torch.nn
    X, y = torch.tensor(data["X"]), torch.tensor(data["y"])
    loader = torch.utils.data.DataLoader(
        torch.utils.data.TensorDataset(X, y), batch_size=64, shuffle=False
    )
    model = nn.Linear(X.shape[1], 1)
    with torch.no_grad():
        model.weight.zero_()
        model.bias.zero_()
    loss_fn = nn.MSELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    epoch_losses = []
    for _epoch in range(data["epochs"]):
        total = 0.0
        for xb, yb in loader:
            pred = model(xb)
            loss = loss_fn(pred, yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(xb)
        epoch_losses.append(total / len(X))
    return (*epoch_losses, model.bias.item())


def _linear_data(tiny: bool) -> Data:
    rng = np.random.default_rng(7)
    n = 256 if tiny else 4096
    X = rng.standard_normal((n, 8)).astype(np.float32)
    y = (X @ rng.standard_normal((8, 1)) + 0.5 + 0.1 * rng.standard_normal((n, 1))).astype(
        np.float32
    )
    return {"X": X, "y": y, "epochs": 2 if tiny else 10}


# --- 11. a model whose depth changes every step ---------------------------------------------
def dynamic_depth(torch: Any, data: Data) -> tuple[float, ...]:
    """A layer reused 0-3 times per step, 1000 SGD steps"""
    nn = torch.nn

    class DynamicNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inp = nn.Linear(4, 32)
            self.middle = nn.Linear(32, 32)
            self.out = nn.Linear(32, 1)

        def forward(self, x: Any, depth: int) -> Any:
            h = torch.relu(self.inp(x))
            for _ in range(depth):  # the same layer, reused a different number of times
                h = torch.relu(self.middle(h))
            return self.out(h)

    model = DynamicNet()
    with torch.no_grad():
        for p, w in zip(model.parameters(), data["weights"]):
            p.copy_(torch.tensor(w))
    x, y = torch.tensor(data["x"]), torch.tensor(data["y"])
    criterion = nn.MSELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=3e-3, momentum=0.9)
    losses = []
    for t, depth in enumerate(data["depths"]):
        loss = criterion(model(x, depth), y)
        if t % 100 == 99:
            losses.append(loss.item())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return tuple(losses)


def _dynamic_data(tiny: bool) -> Data:
    rng = np.random.default_rng(8)
    x = rng.standard_normal((128, 4)).astype(np.float32)
    y = np.sin(x.sum(1, keepdims=True)).astype(np.float32)
    shapes = [(32, 4), (32,), (32, 32), (32,), (1, 32), (1,)]
    weights = [_init(rng, *s, scale=0.3) for s in shapes]
    chooser = random.Random(8)
    depths = [chooser.randint(0, 3) for _ in range(100 if tiny else 1000)]
    return {"x": x, "y": y, "weights": weights, "depths": depths}


# --- 12. backprop by hand through a batch-norm MLP, checked against autograd ---------------
def manual_backward(torch: Any, data: Data) -> tuple[float, ...]:
    """Batch-norm MLP backprop by hand (checked), 400 steps"""
    F = torch.nn.functional
    Xb, Yb = torch.tensor(data["X"]), torch.tensor(data["Y"])
    C, W1, b1, W2, b2, bngain, bnbias = (torch.tensor(w) for w in data["weights"])
    parameters = [C, W1, b1, W2, b2, bngain, bnbias]
    n = Xb.shape[1]

    def forward(xb: Any, yb: Any) -> tuple[Any, list[Any]]:
        emb = C[xb]  # (n, 3, 10)
        embcat = emb.view(n, -1)  # (n, 30)
        hprebn = embcat @ W1 + b1  # (n, 64)
        bnmeani = hprebn.sum(0, keepdim=True) / n
        bndiff = hprebn - bnmeani
        bnvar = (bndiff**2).sum(0, keepdim=True) / (n - 1)
        bnvar_inv = (bnvar + 1e-5) ** -0.5
        bnraw = bndiff * bnvar_inv
        h = torch.tanh(bngain * bnraw + bnbias)
        logits = h @ W2 + b2  # (n, 27)
        loss = F.cross_entropy(logits, yb)
        return loss, [emb, embcat, bnvar_inv, bnraw, h, logits]

    def backward(xb: Any, yb: Any, saved: list[Any]) -> list[Any]:
        emb, embcat, bnvar_inv, bnraw, h, logits = saved
        dlogits = F.softmax(logits, 1)
        dlogits[range(n), yb] -= 1
        dlogits /= n
        dh = dlogits @ W2.T
        dW2, db2 = h.T @ dlogits, dlogits.sum(0)
        dhpreact = (1.0 - h**2) * dh
        dbngain = (bnraw * dhpreact).sum(0, keepdim=True)
        dbnbias = dhpreact.sum(0, keepdim=True)
        dbnraw = bngain * dhpreact
        dbnraw_sum, dbnraw_dot = dbnraw.sum(0), (dbnraw * bnraw).sum(0)
        dhprebn = bnvar_inv / n * (n * dbnraw - dbnraw_sum - n / (n - 1) * bnraw * dbnraw_dot)
        dembcat = dhprebn @ W1.T
        dW1, db1 = embcat.T @ dhprebn, dhprebn.sum(0)
        demb = dembcat.view(emb.shape)
        dC = torch.zeros_like(C)
        for k in range(xb.shape[0]):
            for j in range(xb.shape[1]):
                dC[xb[k, j]] += demb[k, j]
        return [dC, dW1, db1, dW2, db2, dbngain, dbnbias]

    # first, the hand-written gradients against autograd's on one batch
    for p in parameters:
        p.requires_grad = True
    loss, saved = forward(Xb[0], Yb[0])
    loss.backward()
    with torch.no_grad():
        grads = backward(Xb[0], Yb[0], saved)
        worst = max((g - p.grad).abs().max().item() for g, p in zip(grads, parameters))
    if worst > 1e-4:
        raise AssertionError(f"manual gradients differ from autograd's by {worst}")
    for p in parameters:
        p.requires_grad = False
        p.grad = None
    # then train with the hand-written gradients alone
    losses = []
    with torch.no_grad():
        for i in range(1, len(Xb)):
            loss, saved = forward(Xb[i], Yb[i])
            for p, grad in zip(parameters, backward(Xb[i], Yb[i], saved)):
                p -= 0.1 * grad
            if i % 50 == 0:
                losses.append(loss.item())
    return (*losses, loss.item())


def _manual_data(tiny: bool) -> Data:
    X, Y = _contexts(_words())
    rng = np.random.default_rng(9)
    pick = rng.integers(0, len(X), (10 if tiny else 400, 32))
    weights = [
        _init(rng, 27, 10),
        _init(rng, 30, 64, scale=0.3),
        _init(rng, 64, scale=0.1),
        _init(rng, 64, 27, scale=0.1),
        _init(rng, 27, scale=0.1),
        1.0 + _init(rng, 1, 64, scale=0.1),
        _init(rng, 1, 64, scale=0.1),
    ]
    return {"X": X[pick], "Y": Y[pick], "weights": weights}


PROGRAMS = {
    p.name: p
    for p in [
        Program(bigram_counts, _bigram_data),
        Program(encode_text, _text_data),
        Program(poly_tensors, _poly_data),
        Program(poly_autograd, _poly_data),
        Program(poly_nn, _poly_data),
        Program(poly_optim, _poly_data),
        Program(poly_function, _poly_data),
        Program(char_mlp, _char_mlp_data, rtol=1e-3),
        Program(batchnorm_calib, _batchnorm_data, rtol=1e-3),
        Program(small_cnn, _cnn_data, rtol=1e-3),
        Program(dataloader_linear, _linear_data),
        Program(dynamic_depth, _dynamic_data, rtol=1e-3),
        Program(manual_backward, _manual_data, rtol=1e-3),
    ]
}


def check(name: str, results: dict[str, tuple[float, ...]], rtol: float) -> None:
    """Raise unless every library's results match the first one's (a broken program is no
    benchmark)."""
    (ref_name, ref), *others = results.items()
    for lib, values in others:
        if len(values) != len(ref) or not np.allclose(values, ref, rtol=rtol, atol=1e-5):
            raise AssertionError(f"{name}: {lib} computed {values}, {ref_name} {ref}")
