"""walkc (issue 24): PoissonNLLLoss, GaussianNLLLoss, MultiLabelSoftMarginLoss,
TripletMarginWithDistanceLoss, NLLLoss2d, pdist, affine_grid and the deprecated upsample
names against PyTorch 2.13: graphs, float64 values and gradients, reprs, warnings, errors."""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck
from tests.nn.layer_parity import assert_same_error, compare_call

_RNG = np.random.default_rng(240)
X = _RNG.standard_normal((4, 6))
COUNTS = _RNG.poisson(2.0, (4, 6)).astype(np.float64)  # 0s, 1s and larger counts
LABELS = (_RNG.random((4, 6)) > 0.5).astype(np.float64)
VAR = _RNG.random((4, 6)) + 0.1


def _F(lib: ModuleType) -> Any:  # noqa: N802
    return lib.nn.functional


def _c(t: ModuleType, a: np.ndarray) -> Any:
    return t.tensor(a)


CALLS = {
    "poisson": lambda t, x: _F(t).poisson_nll_loss(x, _c(t, COUNTS)),
    "poisson_sum_full": lambda t, x: _F(t).poisson_nll_loss(x, _c(t, COUNTS), full=True,
                                                           reduction="sum"),
    "poisson_not_log": lambda t, x: _F(t).poisson_nll_loss(x.abs(), _c(t, COUNTS), log_input=False,
                                                          reduction="none"),
    "poisson_module": lambda t, x: t.nn.PoissonNLLLoss(log_input=False, full=True)(
        x * x + 0.5, _c(t, COUNTS)),
    "gaussian": lambda t, x: _F(t).gaussian_nll_loss(x, _c(t, COUNTS), _c(t, VAR)),
    "gaussian_full_none": lambda t, x: _F(t).gaussian_nll_loss(
        x, _c(t, COUNTS), _c(t, VAR), full=True, reduction="none"),
    "gaussian_var_grad": lambda t, x: _F(t).gaussian_nll_loss(
        _c(t, COUNTS), _c(t, VAR), x * x, reduction="sum"),  # (var clamped at eps, x near 0)
    "gaussian_short_var": lambda t, x: _F(t).gaussian_nll_loss(x, _c(t, COUNTS), _c(t, VAR[:, 0])),
    "gaussian_shared_var": lambda t, x: _F(t).gaussian_nll_loss(
        x, _c(t, COUNTS), _c(t, VAR[:1]), reduction="sum"),
    "gaussian_float_var": lambda t, x: _F(t).gaussian_nll_loss(x, _c(t, COUNTS), 0.7),
    "gaussian_module": lambda t, x: t.nn.GaussianNLLLoss(full=True, eps=0.2)(
        x, _c(t, COUNTS), _c(t, VAR)),
    "multilabel": lambda t, x: _F(t).multilabel_soft_margin_loss(x, _c(t, LABELS)),
    "multilabel_weight_none": lambda t, x: _F(t).multilabel_soft_margin_loss(
        x, _c(t, LABELS), weight=_c(t, VAR[0]), reduction="none"),
    "multilabel_module_sum": lambda t, x: t.nn.MultiLabelSoftMarginLoss(
        _c(t, VAR[0]), reduction="sum")(x, _c(t, LABELS)),
    "multilabel_1d": lambda t, x: _F(t).multilabel_soft_margin_loss(x[0], _c(t, LABELS[0])),
    "triplet_distance": lambda t, x: _F(t).triplet_margin_with_distance_loss(
        x, x.flip(0), x * 0.5),
    "triplet_distance_swap": lambda t, x: _F(t).triplet_margin_with_distance_loss(
        x, x * 0.9 + 0.1, x.flip(0), swap=True, margin=2.0, reduction="sum"),
    "triplet_distance_fn": lambda t, x: _F(t).triplet_margin_with_distance_loss(
        x, x.flip(0), x * 0.5, distance_function=lambda a, b: (a - b).abs().sum(-1),
        reduction="none"),
    "triplet_distance_module": lambda t, x: t.nn.TripletMarginWithDistanceLoss(
        distance_function=t.nn.PairwiseDistance(p=1), margin=0.5)(x, x.flip(1), x.flip(0)),
    "nll_loss2d": lambda t, x: t.nn.NLLLoss2d()(
        _F(t).log_softmax(x.reshape(1, 2, 3, 4), 1), t.tensor([[[0, 1, 1, 0]] * 3])),
    "pdist": lambda t, x: _F(t).pdist(x),
    "pdist_p1": lambda t, x: _F(t).pdist(x, 1),
    "pdist_p3": lambda t, x: _F(t).pdist(x, 3.5),
    "pdist_inf": lambda t, x: _F(t).pdist(x, float("inf")),
    "pdist_p0": lambda t, x: _F(t).pdist(x, 0) * 1,
    "pdist_repeated_rows": lambda t, x: _F(t).pdist(t.cat([x, x[:1]]), 2),  # (a 0 distance)
    "affine_grid": lambda t, x: _F(t).affine_grid(x[:, :6].reshape(2, 2, 6)[..., :3],
                                                  (2, 1, 3, 5), align_corners=False),
    "affine_grid_corners": lambda t, x: _F(t).affine_grid(x.reshape(2, 2, 6)[..., :3],
                                                          (2, 3, 4, 2), align_corners=True),
    "affine_grid_3d": lambda t, x: _F(t).affine_grid(x.reshape(2, 3, 4), (2, 1, 2, 3, 4),
                                                     align_corners=False),
    "affine_grid_unit": lambda t, x: _F(t).affine_grid(x.reshape(4, 2, 3), (4, 1, 1, 3),
                                                       align_corners=False),
    "upsample": lambda t, x: _F(t).upsample(x.reshape(1, 2, 3, 4), scale_factor=2),
    "upsample_bilinear_mode": lambda t, x: _F(t).upsample(x.reshape(1, 2, 3, 4), size=(5, 7),
                                                          mode="bilinear", align_corners=False),
    "upsample_nearest": lambda t, x: _F(t).upsample_nearest(x.reshape(1, 2, 3, 4), size=(6, 5)),
    "upsample_bilinear": lambda t, x: _F(t).upsample_bilinear(x.reshape(1, 2, 3, 4),
                                                              scale_factor=2),
    "upsampling_bilinear2d": lambda t, x: t.nn.UpsamplingBilinear2d(scale_factor=2)(
        x.reshape(2, 1, 3, 4)),
    "upsampling_bilinear2d_size": lambda t, x: t.nn.UpsamplingBilinear2d((4, 7))(
        x.reshape(1, 2, 3, 4)),
}  # fmt: skip


@pytest.mark.parametrize("name", list(CALLS))
def test_matches_torch(torch_module: ModuleType, name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the deprecated names' warnings: tested below)
        compare_call(torch_module, CALLS[name], X, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(
    "call",
    [
        lambda t, x: t.nn.PoissonNLLLoss(), lambda t, x: t.nn.GaussianNLLLoss(),
        lambda t, x: t.nn.MultiLabelSoftMarginLoss(),
        lambda t, x: t.nn.TripletMarginWithDistanceLoss(),
        lambda t, x: t.nn.TripletMarginWithDistanceLoss(distance_function=t.nn.CosineSimilarity()),
        lambda t, x: t.nn.MultiLabelSoftMarginLoss(t.ones(3)),
        lambda t, x: t.nn.UpsamplingBilinear2d(scale_factor=2),
        lambda t, x: t.nn.UpsamplingBilinear2d(size=3),
    ],
)  # fmt: skip
def test_reprs_state_and_parameters(torch_module: ModuleType, call: Any) -> None:
    mine, theirs = call(microtorch, None), call(torch_module, None)
    assert repr(mine) == repr(theirs)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    assert len(list(mine.parameters())) == len(list(theirs.parameters())) == 0


def _warnings_of(call: Any) -> list[tuple[str, str]]:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        call()
    return [(type(w.message).__name__, str(w.message)) for w in seen]


@pytest.mark.parametrize(
    "call",
    [
        lambda t: t.nn.NLLLoss2d(), lambda t: t.nn.PoissonNLLLoss(reduce=False),
        lambda t: _F(t).upsample(t.ones(1, 1, 2, 2), scale_factor=2),
        lambda t: _F(t).upsample_nearest(t.ones(1, 1, 2, 2), scale_factor=2),
        lambda t: _F(t).upsample_bilinear(t.ones(1, 1, 2, 2), scale_factor=2),
        lambda t: _F(t).affine_grid(t.zeros(1, 2, 3), (1, 1, 2, 2)),
        lambda t: _F(t).affine_grid(t.zeros(1, 2, 3), (1, 1, 1, 2), align_corners=True),
        lambda t: t.nn.UpsamplingBilinear2d(scale_factor=2)(t.ones(1, 1, 2, 2)),
    ],
)  # fmt: skip
def test_warnings_match_torch(torch_module: ModuleType, call: Any) -> None:
    assert _warnings_of(lambda: call(microtorch)) == _warnings_of(lambda: call(torch_module))


def test_upsample_warning_points_at_the_callers_line() -> None:
    with pytest.warns(UserWarning, match="upsample_nearest` is deprecated") as seen:
        _F(microtorch).upsample_nearest(microtorch.ones(1, 1, 2, 2), scale_factor=2)
    assert seen[0].filename == __file__


def _t(t: ModuleType, *shape: int) -> Any:
    return t.ones(*shape)


ERRORS = {
    "poisson_reduction": lambda t: _F(t).poisson_nll_loss(_t(t, 3), _t(t, 3), reduction="max"),
    "poisson_list": lambda t: _F(t).poisson_nll_loss([1.0], _t(t, 1)),
    "poisson_shapes": lambda t: _F(t).poisson_nll_loss(_t(t, 3), _t(t, 2)),
    "gaussian_negative": lambda t: _F(t).gaussian_nll_loss(_t(t, 3), _t(t, 3), -_t(t, 3)),
    "gaussian_negative_float": lambda t: _F(t).gaussian_nll_loss(_t(t, 3), _t(t, 3), -1.0),
    "gaussian_var_size": lambda t: _F(t).gaussian_nll_loss(_t(t, 2, 3), _t(t, 2, 3), _t(t, 4)),
    "gaussian_var_two_dims": lambda t: _F(t).gaussian_nll_loss(_t(t, 2, 3), _t(t, 2, 3),
                                                               _t(t, 1, 1)),
    "gaussian_reduction": lambda t: _F(t).gaussian_nll_loss(_t(t, 3), _t(t, 3), _t(t, 3),
                                                            reduction="max"),
    "multilabel_reduction": lambda t: _F(t).multilabel_soft_margin_loss(_t(t, 2, 3), _t(t, 2, 3),
                                                                        reduction="max"),
    "multilabel_shapes": lambda t: _F(t).multilabel_soft_margin_loss(_t(t, 3), _t(t, 2)),
    "triplet_reduction": lambda t: _F(t).triplet_margin_with_distance_loss(
        _t(t, 3), _t(t, 3), _t(t, 3), reduction="max"),
    "triplet_margin": lambda t: _F(t).triplet_margin_with_distance_loss(
        _t(t, 3), _t(t, 3), _t(t, 3), margin=0),
    "triplet_dims": lambda t: _F(t).triplet_margin_with_distance_loss(
        _t(t, 2, 3), _t(t, 2, 3), _t(t, 3)),
    "triplet_module_margin": lambda t: t.nn.TripletMarginWithDistanceLoss(margin=-1.0),
    "pdist_1d": lambda t: _F(t).pdist(_t(t, 3)),
    "pdist_int": lambda t: _F(t).pdist(t.ones(3, 2, dtype=t.int64)),
    "pdist_negative_p": lambda t: _F(t).pdist(_t(t, 3, 2), -1),
    "pdist_list": lambda t: _F(t).pdist([[1.0]]),
    "affine_grid_int": lambda t: _F(t).affine_grid(t.zeros(1, 2, 3, dtype=t.int64), (1, 1, 2, 2),
                                                   align_corners=False),
    "affine_grid_shape": lambda t: _F(t).affine_grid(_t(t, 1, 3, 3), (1, 1, 2, 2),
                                                     align_corners=False),
    "affine_grid_3d_shape": lambda t: _F(t).affine_grid(_t(t, 1, 2, 3), (1, 1, 2, 2, 2),
                                                        align_corners=False),
    "affine_grid_size": lambda t: _F(t).affine_grid(_t(t, 1, 2, 3), (1, 1, 2),
                                                    align_corners=False),
    "affine_grid_empty": lambda t: _F(t).affine_grid(_t(t, 1, 2, 3), (1, 1, 0, 2),
                                                     align_corners=False),
}  # fmt: skip


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(torch_module: ModuleType, name: str) -> None:
    assert_same_error(torch_module, ERRORS[name])


@pytest.mark.parametrize("p", [1.0, 2.0, 3.5, float("inf")])
def test_pdist_gradcheck(p: float) -> None:
    x = microtorch.tensor(_RNG.standard_normal((5, 3)), requires_grad=True)
    assert gradcheck(lambda v: _F(microtorch).pdist(v, p), (x,))


def test_affine_grid_gradcheck_and_one_row_pdist(torch_module: ModuleType) -> None:
    theta = microtorch.tensor(_RNG.standard_normal((2, 2, 3)), requires_grad=True)
    assert gradcheck(lambda v: _F(microtorch).affine_grid(v, (2, 1, 3, 4), False), (theta,))
    assert _F(microtorch).pdist(microtorch.ones(1, 3)).shape == (0,)
    assert tuple(_F(torch_module).pdist(torch_module.ones(1, 3)).shape) == (0,)
