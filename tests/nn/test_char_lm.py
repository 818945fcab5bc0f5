"""A tiny character-level language model trains on course_data/tiny_corpus.txt with a DataLoader and
Adam, to a loss clearly below the uniform baseline log(vocab_size).

Embedding -> flatten the 3-character context -> Linear -> tanh -> Linear -> cross entropy.
"""

from __future__ import annotations

import math
import time
from importlib.resources import files
from types import ModuleType
from typing import Any

import microtorch
from tests.nn.cases import graph

CORPUS = files("course_data").joinpath("tiny_corpus.txt")  # as chapter 10 reads it
CONTEXT = 3


def make_dataset(lib: ModuleType) -> tuple[Any, list[str]]:
    """Every 3-character window of the text and the character that follows it."""
    text = CORPUS.read_text(encoding="utf-8")
    vocab = sorted(set(text))
    ids = [vocab.index(c) for c in text]
    contexts = [ids[i : i + CONTEXT] for i in range(len(ids) - CONTEXT)]
    targets = ids[CONTEXT:]
    data = lib.utils.data.TensorDataset(lib.tensor(contexts), lib.tensor(targets))
    return data, vocab


def char_lm(lib: ModuleType, vocab_size: int, emb: int = 12, hidden: int = 96) -> Any:
    nn = lib.nn

    class CharLM(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = nn.Embedding(vocab_size, emb)
            self.hidden = nn.Linear(CONTEXT * emb, hidden)
            self.out = nn.Linear(hidden, vocab_size)

        def forward(self, idx: Any) -> Any:  # idx: (B, 3)
            e = self.embed(idx)  # (B, 3, emb)
            h = lib.tanh(self.hidden(e.view(e.shape[0], -1)))  # (B, hidden)
            return self.out(h)  # (B, vocab) logits

    return CharLM()


def train(lib: ModuleType, epochs: int = 8) -> dict[str, float]:
    """Train and return the figures: vocab size, baseline, first and final full-data loss."""
    lib.manual_seed(0)
    data, vocab = make_dataset(lib)
    model = char_lm(lib, len(vocab))
    loader = lib.utils.data.DataLoader(data, batch_size=64, shuffle=True)
    optimizer = lib.optim.Adam(model.parameters(), lr=1e-2)
    criterion = lib.nn.CrossEntropyLoss()
    x_all, y_all = data.tensors
    with lib.no_grad():
        first = criterion(model(x_all), y_all).item()
    start = time.perf_counter()
    for _ in range(epochs):
        for xb, yb in loader:
            optimizer.zero_grad()
            loss = criterion(model(xb), yb)
            loss.backward()
            optimizer.step()
    seconds = time.perf_counter() - start
    with lib.no_grad():
        final = criterion(model(x_all), y_all).item()
    return {
        "vocab_size": len(vocab),
        "examples": len(data),
        "baseline": math.log(len(vocab)),
        "first": first,
        "final": final,
        "seconds": seconds,
        "steps": epochs * len(loader),
    }


def test_char_lm_learns_well_below_the_uniform_baseline() -> None:
    figures = train(microtorch)
    assert figures["vocab_size"] == 28
    assert abs(figures["first"] - figures["baseline"]) < 0.5  # starts near uniform guessing
    assert figures["final"] < figures["baseline"] - 1.2  # log(28) = 3.33: well below it
    assert figures["seconds"] < 20


def test_char_lm_graph_is_pytorchs(torch_module: ModuleType) -> None:
    names = []
    for lib in (microtorch, torch_module):
        data, vocab = make_dataset(lib)
        xb, yb = data[0:8]
        names.append(graph(lib.nn.functional.cross_entropy(char_lm(lib, len(vocab))(xb), yb)))
    assert names[0] == names[1]
    assert [n.strip() for n in names[0][:3]] == [
        "NllLossBackward0",
        "LogSoftmaxBackward0",
        "AddmmBackward0",
    ]
    assert "EmbeddingBackward0" in [n.strip() for n in names[0]]
