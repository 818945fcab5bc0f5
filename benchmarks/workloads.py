"""The benchmark workloads. Each yields rows ``(label, unit, microtorch, numpy, torch, mygrad)``.

Every workload builds its data and initial weights once with numpy and hands copies to each
implementation, then checks that the implementations agree on the result before timing.
``libs`` maps "microtorch" and "torch" to the torch-like modules (None when absent) and
"mygrad" to MyGrad, another numpy-backed autograd with an API of its own: W1, W2, W3 and W5
have a MyGrad version written for it (W4's 100,000-op forward takes MyGrad about 20 s a run).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

Row = tuple[str, str, float, float | None, float | None, float | None]
Timer = Callable[..., Any]  # run.interleaved / run.measure, passed in by run.py
TORCH_LIKE = ("microtorch", "torch")  # the libraries that run the torch-style code below


def _torch_like(libs: dict[str, Any]) -> dict[str, Any]:
    return {name: libs[name] for name in TORCH_LIKE if libs.get(name) is not None}


def _check(name: str, values: dict[str, float], rtol: float = 1e-3) -> None:
    ref = values["numpy"]
    for impl, v in values.items():
        if not np.isclose(v, ref, rtol=rtol, atol=1e-6):
            raise AssertionError(f"{name}: {impl} computed {v}, numpy {ref}: not comparable")


# --- W1: per-op overhead on 1-element tensors -------------------------------------------
def _chain(lib: Any, x: Any, c: Any) -> Any:
    y = x
    for _ in range(33):  # 99 ops: mul, add, tanh
        y = (y * c + c).tanh()
    return y


def _chain_numpy(x: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ys, y = [], x
    for _ in range(33):
        a = y * c
        t = np.tanh(a + c)
        ys.append((y, t))
        y = t
    g = np.ones_like(y)
    for _, t in reversed(ys):
        g = g * (1 - t * t) * c
    return y, g


def _chain_mygrad(mg: Any, x0: np.ndarray, c0: np.ndarray, backward: bool = False) -> Any:
    x, c = mg.tensor(x0), mg.tensor(c0, constant=True)
    y = x
    for _ in range(33):
        y = mg.tanh(y * c + c)
    if backward:
        y.backward()
    return x, y


def w1(libs: dict[str, Any], repeats: int, interleaved: Timer, measure: Timer) -> Iterator[Row]:
    x0, c0 = np.array([0.5], np.float32), np.array([0.9], np.float32)
    impls_f, impls_b = {}, {}
    for name, lib in _torch_like(libs).items():

        def fwd(lib=lib):
            x = lib.tensor(x0, requires_grad=True)
            return _chain(lib, x, lib.tensor(c0))

        def fwd_bwd(lib=lib):
            x = lib.tensor(x0, requires_grad=True)
            _chain(lib, x, lib.tensor(c0)).backward()
            return x.grad

        impls_f[name], impls_b[name] = fwd, fwd_bwd
    impls_f["numpy"] = lambda: _chain_numpy(x0, c0)
    mg = libs.get("mygrad")
    if mg is not None:
        impls_f["mygrad"] = lambda: _chain_mygrad(mg, x0, c0)[1]
        impls_b["mygrad"] = lambda: _chain_mygrad(mg, x0, c0, backward=True)[0].grad
    _check(
        "W1",
        {
            k: float(np.asarray(v.detach() if hasattr(v, "detach") else v).ravel()[0])
            for k, v in ((k, f()) for k, f in impls_f.items())
        },
    )
    f = interleaved(impls_f, repeats * 20)
    fb = interleaved({k: v for k, v in impls_b.items()}, repeats * 20)
    us = 1e6 / 99

    def backward(name: str) -> float | None:
        return (fb[name] - f[name]) * 1e6 / 100 if name in f else None

    yield (
        "tiny-op forward, per op",
        "us",
        f["microtorch"] * us,
        None,
        f.get("torch") and f["torch"] * us,
        f.get("mygrad") and f["mygrad"] * us,
    )
    yield (
        "tiny-op backward, per node",
        "us",
        backward("microtorch"),
        None,
        backward("torch"),
        backward("mygrad"),
    )


# --- W2: the seed's 5-8-1 sigmoid network, MSE, SGD lr=1.0, 2,000 steps --------------------
def _seed_data() -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((200, 5)).astype(np.float32)
    y = (x.sum(axis=1, keepdims=True) > 0).astype(np.float32)
    w1 = rng.uniform(-0.45, 0.45, (5, 8)).astype(np.float32)
    b1 = rng.uniform(-0.45, 0.45, (8,)).astype(np.float32)
    w2 = rng.uniform(-0.35, 0.35, (8, 1)).astype(np.float32)
    b2 = rng.uniform(-0.35, 0.35, (1,)).astype(np.float32)
    return x, y, w1, b1, w2, b2


def _train_lib(lib: Any, data: tuple[np.ndarray, ...], steps: int) -> float:
    x, y, *weights = (lib.tensor(a) for a in data)
    params = [w.requires_grad_() for w in weights]
    w1, b1, w2, b2 = params
    loss = None
    for _ in range(steps):
        for p in params:
            p.grad = None
        h = (x @ w1 + b1).sigmoid()
        pred = (h @ w2 + b2).sigmoid()
        loss = ((pred - y) ** 2).mean()
        loss.backward()
        with lib.no_grad():
            for p in params:
                p -= 1.0 * p.grad
    return float(loss.item())


def _train_numpy(data: tuple[np.ndarray, ...], steps: int) -> float:
    x, y, w1, b1, w2, b2 = (a.copy() for a in data)
    loss = 0.0
    for _ in range(steps):
        h = 1 / (1 + np.exp(-(x @ w1 + b1)))
        p = 1 / (1 + np.exp(-(h @ w2 + b2)))
        loss = float(((p - y) ** 2).mean())
        gp = 2 * (p - y) / p.size
        gz2 = gp * p * (1 - p)
        gw2, gb2 = h.T @ gz2, gz2.sum(0)
        gz1 = (gz2 @ w2.T) * h * (1 - h)
        gw1, gb1 = x.T @ gz1, gz1.sum(0)
        for w, g in ((w1, gw1), (b1, gb1), (w2, gw2), (b2, gb2)):
            w -= g
    return loss


def _train_mygrad(mg: Any, data: tuple[np.ndarray, ...], steps: int) -> float:
    from mygrad.nnet.activations import sigmoid

    x, y = data[0], data[1]
    params = [mg.tensor(a.copy()) for a in data[2:]]
    w1, b1, w2, b2 = params
    loss = None
    for _ in range(steps):
        h = sigmoid(x @ w1 + b1)
        pred = sigmoid(h @ w2 + b2)
        loss = mg.mean((pred - y) ** 2)
        loss.backward()  # MyGrad sets each grad afresh: nothing to zero
        for p in params:
            p.data -= 1.0 * p.grad
    return float(loss.item())


def w2(libs: dict[str, Any], repeats: int, interleaved: Timer, measure: Timer) -> Iterator[Row]:
    data = _seed_data()
    impls = {
        n: (lambda lib=lib: _train_lib(lib, data, 2000)) for n, lib in _torch_like(libs).items()
    }
    impls["numpy"] = lambda: _train_numpy(data, 2000)
    if libs.get("mygrad") is not None:
        impls["mygrad"] = lambda: _train_mygrad(libs["mygrad"], data, 2000)
    _check("W2", {k: f() for k, f in impls.items()})
    t = interleaved(impls, max(repeats // 2, 1))  # 7 runs of 2,000 steps: a steadier median
    yield (
        "5-8-1 net, 2,000 SGD steps",
        "s",
        t["microtorch"],
        t["numpy"],
        t.get("torch"),
        t.get("mygrad"),
    )


# --- W3: 784-256-10 ReLU MLP, cross entropy, batch 64, one SGD step -------------------------
def _mlp_data() -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((64, 784)).astype(np.float32)
    labels = rng.integers(0, 10, 64)
    w1 = (rng.standard_normal((784, 256)) * 0.05).astype(np.float32)
    b1 = np.zeros(256, np.float32)
    w2 = (rng.standard_normal((256, 10)) * 0.05).astype(np.float32)
    b2 = np.zeros(10, np.float32)
    return x, labels, w1, b1, w2, b2


def _mlp_step_lib(lib: Any, state: dict[str, Any]) -> float:
    x, onehot, params = state["x"], state["onehot"], state["params"]
    w1, b1, w2, b2 = params
    for p in params:
        p.grad = None
    logits = (x @ w1 + b1).relu() @ w2 + b2
    loss = -(logits.log_softmax(dim=1) * onehot).sum() / x.shape[0]
    loss.backward()
    with lib.no_grad():
        for p in params:
            p -= 0.1 * p.grad
    return float(loss.item())


def _mlp_step_numpy(state: dict[str, Any]) -> float:
    x, onehot = state["x"], state["onehot"]
    w1, b1, w2, b2 = state["params"]
    z1 = x @ w1 + b1
    h = np.maximum(z1, 0)
    logits = h @ w2 + b2
    shifted = logits - logits.max(axis=1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = float(-(logp * onehot).sum() / x.shape[0])
    g = (np.exp(logp) - onehot) / x.shape[0]
    gw2, gb2 = h.T @ g, g.sum(0)
    gh = (g @ w2.T) * (z1 > 0)
    gw1, gb1 = x.T @ gh, gh.sum(0)
    for w, gr in ((w1, gw1), (b1, gb1), (w2, gw2), (b2, gb2)):
        w -= 0.1 * gr
    return loss


def _mlp_step_mygrad(mg: Any, state: dict[str, Any]) -> float:
    from mygrad.nnet.activations import logsoftmax, relu

    x, onehot = state["x"], state["onehot"]
    w1, b1, w2, b2 = params = state["params"]
    logits = relu(x @ w1 + b1) @ w2 + b2
    loss = -(logsoftmax(logits, axis=1) * onehot).sum() / x.shape[0]
    loss.backward()
    for p in params:
        p.data -= 0.1 * p.grad
    return float(loss.item())


def w3(libs: dict[str, Any], repeats: int, interleaved: Timer, measure: Timer) -> Iterator[Row]:
    x, labels, *weights = _mlp_data()
    onehot = np.eye(10, dtype=np.float32)[labels]
    states = {"numpy": {"x": x, "onehot": onehot, "params": [w.copy() for w in weights]}}
    for n, lib in _torch_like(libs).items():
        params = [lib.tensor(w).requires_grad_() for w in weights]
        states[n] = {"x": lib.tensor(x), "onehot": lib.tensor(onehot), "params": params}
    impls = {
        n: (lambda lib=lib, n=n: _mlp_step_lib(lib, states[n]))
        for n, lib in _torch_like(libs).items()
    }
    impls["numpy"] = lambda: _mlp_step_numpy(states["numpy"])
    mg = libs.get("mygrad")
    if mg is not None:
        states["mygrad"] = {"x": x, "onehot": onehot, "params": [mg.tensor(w) for w in weights]}
        impls["mygrad"] = lambda: _mlp_step_mygrad(mg, states["mygrad"])
    _check("W3", {k: f() for k, f in impls.items()})
    t = interleaved(impls, repeats * 4)
    yield (
        "784-256-10 MLP step, batch 64",
        "ms",
        t["microtorch"] * 1e3,
        t["numpy"] * 1e3,
        t.get("torch") and t["torch"] * 1e3,
        t.get("mygrad") and t["mygrad"] * 1e3,
    )


# --- W4: a 100,000-op scalar chain ------------------------------------------------------------
def w4(libs: dict[str, Any], repeats: int, interleaved: Timer, measure: Timer) -> Iterator[Row]:
    n = 100_000

    def run(lib: Any) -> float:
        x = lib.tensor([1.0], requires_grad=True)
        y = x
        for _ in range(n):
            y = y * 1.000001
        y.backward()
        return float(x.grad.item())

    def run_numpy() -> float:
        y, ys = np.array([1.0], np.float32), []
        for _ in range(n):
            ys.append(y)
            y = y * np.float32(1.000001)
        g = np.ones(1, np.float32)
        for _ in reversed(ys):
            g = g * np.float32(1.000001)
        return float(g[0])

    impls = {k: (lambda lib=lib: run(lib)) for k, lib in _torch_like(libs).items()}
    impls["numpy"] = run_numpy
    _check("W4", {k: f() for k, f in impls.items()}, rtol=1e-2)
    t = interleaved(impls, max(repeats // 3, 1))
    yield ("100,000-op chain, fwd+bwd", "s", t["microtorch"], t["numpy"], t.get("torch"), None)


ALL = {"W1": w1, "W2": w2, "W3": w3, "W4": w4}


# --- W5: the tiny character language model step (Adam) --------------------------------------
def _lm_data() -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(2)
    ctx = rng.integers(0, 27, (32, 3))
    target = rng.integers(0, 27, 32)
    emb = rng.standard_normal((27, 16)).astype(np.float32)
    w1 = (rng.standard_normal((64, 48)) * 0.1).astype(np.float32)
    b1 = np.zeros(64, np.float32)
    w2 = (rng.standard_normal((27, 64)) * 0.1).astype(np.float32)
    b2 = np.zeros(27, np.float32)
    return ctx, target, emb, w1, b1, w2, b2


def _lm_model(lib: Any, weights: list[np.ndarray]) -> tuple[Any, Any]:
    nn = lib.nn
    model = nn.Sequential(
        nn.Embedding(27, 16), nn.Flatten(), nn.Linear(48, 64), nn.Tanh(), nn.Linear(64, 27)
    )
    with lib.no_grad():
        for p, w in zip(model.parameters(), weights):
            p.copy_(lib.tensor(w))
    return model, lib.optim.Adam(model.parameters(), lr=1e-2)


def _lm_step_lib(lib: Any, state: dict[str, Any]) -> float:
    model, opt = state["model"], state["opt"]
    opt.zero_grad()
    loss = lib.nn.functional.cross_entropy(model(state["ctx"]), state["target"])
    loss.backward()
    opt.step()
    return float(loss.item())


class _NumpyAdam:
    def __init__(self, params: list[np.ndarray], lr: float = 1e-2) -> None:
        self.params, self.lr, self.t = params, lr, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, grads: list[np.ndarray]) -> None:
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            denom = np.sqrt(v) / np.sqrt(1 - b2**self.t) + eps
            p -= self.lr / (1 - b1**self.t) * m / denom


def _lm_step_numpy(state: dict[str, Any]) -> float:
    ctx, target = state["ctx"], state["target"]
    emb, w1, b1, w2, b2 = state["params"]
    x = emb[ctx].reshape(len(ctx), -1)  # (B, 48)
    h = np.tanh(x @ w1.T + b1)  # (B, 64)
    logits = h @ w2.T + b2
    shifted = logits - logits.max(axis=1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    n = len(target)
    loss = float(-logp[np.arange(n), target].mean())
    g = np.exp(logp)
    g[np.arange(n), target] -= 1
    g /= n
    gw2, gb2 = g.T @ h, g.sum(0)
    gz = (g @ w2) * (1 - h * h)
    gw1, gb1 = gz.T @ x, gz.sum(0)
    gx = (gz @ w1).reshape(n, 3, 16)
    gemb = np.zeros_like(emb)
    np.add.at(gemb, ctx, gx)
    state["opt"].step([gemb, gw1, gb1, gw2, gb2])
    return loss


def _lm_step_mygrad(mg: Any, state: dict[str, Any]) -> float:
    from mygrad.nnet.activations import tanh
    from mygrad.nnet.losses import softmax_crossentropy

    ctx, target = state["ctx"], state["target"]
    emb, w1, b1, w2, b2 = params = state["params"]
    x = emb[ctx].reshape(len(ctx), -1)  # (B, 48)
    logits = tanh(x @ w1.T + b1) @ w2.T + b2
    loss = softmax_crossentropy(logits, target)
    loss.backward()
    state["opt"].step([p.grad for p in params])  # Adam on the arrays, as MyGrad users write it
    return float(loss.item())


def w5(libs: dict[str, Any], repeats: int, interleaved: Timer, measure: Timer) -> Iterator[Row]:
    ctx, target, *weights = _lm_data()
    states: dict[str, dict[str, Any]] = {}
    for n, lib in _torch_like(libs).items():
        model, opt = _lm_model(lib, weights)
        states[n] = {
            "model": model,
            "opt": opt,
            "ctx": lib.tensor(ctx),
            "target": lib.tensor(target),
        }
    params = [w.copy() for w in weights]
    states["numpy"] = {"ctx": ctx, "target": target, "params": params, "opt": _NumpyAdam(params)}
    impls = {
        n: (lambda lib=lib, n=n: _lm_step_lib(lib, states[n]))
        for n, lib in _torch_like(libs).items()
    }
    impls["numpy"] = lambda: _lm_step_numpy(states["numpy"])
    mg = libs.get("mygrad")
    if mg is not None:
        mg_params = [mg.tensor(w.copy()) for w in weights]
        states["mygrad"] = {
            "ctx": ctx,
            "target": target,
            "params": mg_params,
            "opt": _NumpyAdam([p.data for p in mg_params]),
        }
        impls["mygrad"] = lambda: _lm_step_mygrad(mg, states["mygrad"])
    _check("W5", {k: f() for k, f in impls.items()})
    t = interleaved(impls, repeats * 20)
    yield (
        "char LM step (Adam), batch 32",
        "us",
        t["microtorch"] * 1e6,
        t["numpy"] * 1e6,
        t.get("torch") and t["torch"] * 1e6,
        t.get("mygrad") and t["mygrad"] * 1e6,
    )


ALL["W5"] = w5
