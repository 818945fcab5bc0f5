"""``microtorch.nn``: modules, layers, losses, ``functional`` and ``init``, as in PyTorch."""

from typing import TYPE_CHECKING

from microtorch import _coverage, _lazy
from microtorch.nn import functional, init, utils
from microtorch.nn.activation import (
    CELU,
    ELU,
    GELU,
    SELU,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    Mish,
    PReLU,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Softmax,
    Softmin,
    Softplus,
    Softsign,
    Tanh,
    Tanhshrink,
)
from microtorch.nn.container import Container, ModuleDict, ModuleList, Sequential
from microtorch.nn.conv import Conv1d, Conv2d, Conv3d
from microtorch.nn.dropout import (
    AlphaDropout,
    Dropout,
    Dropout1d,
    Dropout2d,
    Dropout3d,
    FeatureAlphaDropout,
)
from microtorch.nn.embedding import Embedding
from microtorch.nn.flatten import Flatten, Unflatten
from microtorch.nn.linear import Identity, Linear
from microtorch.nn.loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from microtorch.nn.module import Module
from microtorch.nn.normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d, GroupNorm, LayerNorm
from microtorch.nn.parameter import (
    Buffer,
    Parameter,
    UninitializedBuffer,
    UninitializedParameter,
)
from microtorch.nn.parameter_containers import ParameterDict, ParameterList
from microtorch.nn.pooling import (
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AdaptiveMaxPool1d,
    AdaptiveMaxPool2d,
    AvgPool1d,
    AvgPool2d,
    MaxPool1d,
    MaxPool2d,
)

__all__ = [
    "PReLU", "Upsample", "UpsamplingNearest2d", "ParameterDict", "ParameterList", "ConstantPad1d",
    "ConstantPad2d", "CosineSimilarity", "KLDivLoss", "PairwiseDistance", "Unflatten", "ZeroPad1d",
    "ZeroPad2d", "CELU", "ELU", "Hardsigmoid", "Hardswish", "Hardtanh", "LogSigmoid", "Mish",
    "ReLU6", "SELU", "SiLU", "Softmin", "Softplus", "Softsign", "Tanhshrink", "AdaptiveAvgPool2d",
    "AvgPool2d", "BCELoss", "BCEWithLogitsLoss", "BatchNorm1d", "BatchNorm2d", "Conv1d", "Conv2d",
    "CrossEntropyLoss", "Dropout", "Dropout2d", "Embedding", "Flatten", "GELU", "HuberLoss",
    "Identity", "L1Loss", "LayerNorm", "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyConv1d",
    "LazyConv2d", "LazyLinear", "LeakyReLU", "Linear", "LogSoftmax", "MSELoss", "MaxPool2d",
    "Module", "ModuleDict", "ModuleList", "NLLLoss", "Parameter", "ReLU", "Sequential", "Sigmoid",
    "SmoothL1Loss", "Softmax", "Tanh", "UninitializedBuffer", "UninitializedParameter",
    "functional", "init", "utils", "RNN", "RNNBase", "LSTM", "GRU", "RNNCell", "RNNCellBase",
    "LSTMCell", "GRUCell", "GroupNorm", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
    "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "CircularPad1d", "CircularPad2d",
    "CircularPad3d",
    # pooling, convolution, normalization and the rest of issue 24's layers
    "AdaptiveAvgPool1d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AvgPool1d", "MaxPool1d",
    "Conv3d", "Dropout1d", "Dropout3d",
    # attention and transformers (issue 24)
    "MultiheadAttention", "Transformer", "TransformerDecoder", "TransformerDecoderLayer",
    "TransformerEncoder", "TransformerEncoderLayer",
    "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "CosineEmbeddingLoss",
    "HingeEmbeddingLoss", "MarginRankingLoss", "MultiLabelMarginLoss", "MultiMarginLoss",
    "SoftMarginLoss", "TripletMarginLoss", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
    "RMSNorm", "Fold", "Unfold", "Bilinear", "EmbeddingBag",
    # --- walkc
    "GLU", "Hardshrink", "Softshrink", "Threshold", "RReLU", "Softmax2d", "Container",
    "AlphaDropout", "FeatureAlphaDropout", "LazyBatchNorm3d", "LazyConv3d", "LazyConvTranspose1d",
    "LazyConvTranspose2d", "LazyConvTranspose3d", "LazyInstanceNorm1d", "LazyInstanceNorm2d",
    "LazyInstanceNorm3d", "GaussianNLLLoss", "MultiLabelSoftMarginLoss", "NLLLoss2d",
    "PoissonNLLLoss", "TripletMarginWithDistanceLoss", "BatchNorm3d", "ConstantPad3d", "ZeroPad3d",
    "ChannelShuffle", "PixelShuffle", "PixelUnshuffle", "UpsamplingBilinear2d",
    "AdaptiveAvgPool3d", "AdaptiveMaxPool3d", "AvgPool3d", "LocalResponseNorm", "LPPool1d",
    "LPPool2d", "LPPool3d", "MaxPool3d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d",
    "CrossMapLRN2d", "Buffer",
    # --- walkh
    "SyncBatchNorm",
    # --- walkj
    "FractionalMaxPool2d", "FractionalMaxPool3d",
    # --- walki
    "CTCLoss", "AdaptiveLogSoftmaxWithLoss", "LinearCrossEntropyLoss", "LinearCrossEntropyOptions",
]  # fmt: skip


# Rarely used layers, imported on first use (``nn.LSTM``, ``nn.TransformerEncoderLayer``:
# microtorch/_lazy.py); a name not in the table raises an error that says what to use instead.
ON_FIRST_USE = {
    **_lazy.names(
        "microtorch.nn.activation_more", "GLU Hardshrink RReLU Softmax2d Softshrink Threshold"
    ),
    **_lazy.names("microtorch.nn.adaptive", "AdaptiveLogSoftmaxWithLoss"),  # (walki)
    **_lazy.names("microtorch.nn.attention", "MultiheadAttention"),
    **_lazy.names("microtorch.nn.linear_cross_entropy", "LinearCrossEntropyLoss"),  # (walki)
    **_lazy.names(
        "microtorch.nn.linear_cross_entropy_options", "LinearCrossEntropyOptions"
    ),  # (walki)
    **_lazy.names("microtorch.nn.bilinear", "Bilinear"),
    **_lazy.names("microtorch.nn.sync_batchnorm", "SyncBatchNorm"),  # (walkh)
    **_lazy.names(
        "microtorch.nn.conv_transpose", "ConvTranspose1d ConvTranspose2d ConvTranspose3d"
    ),
    **_lazy.names("microtorch.nn.cross_map_lrn", "CrossMapLRN2d"),
    **_lazy.names("microtorch.nn.embedding_bag", "EmbeddingBag"),
    **_lazy.names("microtorch.nn.fold", "Fold Unfold"),
    **_lazy.names("microtorch.nn.fractional_pool", "FractionalMaxPool2d FractionalMaxPool3d"),
    **_lazy.names(
        "microtorch.nn.lazy", "LazyBatchNorm1d LazyBatchNorm2d LazyConv1d LazyConv2d LazyLinear"
    ),
    **_lazy.names(
        "microtorch.nn.lazy_more",
        "LazyBatchNorm3d LazyConv3d LazyConvTranspose1d LazyConvTranspose2d "
        "LazyConvTranspose3d LazyInstanceNorm1d LazyInstanceNorm2d LazyInstanceNorm3d",
    ),
    **_lazy.names(
        "microtorch.nn.loss_more",
        "CTCLoss GaussianNLLLoss MultiLabelSoftMarginLoss NLLLoss2d PoissonNLLLoss "
        "TripletMarginWithDistanceLoss",
    ),
    **_lazy.names(
        "microtorch.nn.margin_loss",
        "CosineEmbeddingLoss HingeEmbeddingLoss MarginRankingLoss MultiLabelMarginLoss "
        "MultiMarginLoss SoftMarginLoss TripletMarginLoss",
    ),
    **_lazy.names(
        "microtorch.nn.normalization_more", "InstanceNorm1d InstanceNorm2d InstanceNorm3d RMSNorm"
    ),
    **_lazy.names(
        "microtorch.nn.padding",
        "CircularPad1d CircularPad2d CircularPad3d ConstantPad1d ConstantPad2d "
        "ConstantPad3d CosineSimilarity PairwiseDistance ReflectionPad1d ReflectionPad2d "
        "ReflectionPad3d ReplicationPad1d ReplicationPad2d ReplicationPad3d ZeroPad1d "
        "ZeroPad2d ZeroPad3d",
    ),
    **_lazy.names(
        "microtorch.nn.pooling_more",
        "AdaptiveAvgPool3d AdaptiveMaxPool3d AvgPool3d LPPool1d LPPool2d LPPool3d "
        "LocalResponseNorm MaxPool3d MaxUnpool1d MaxUnpool2d MaxUnpool3d",
    ),
    **_lazy.names("microtorch.nn.rnn", "GRU LSTM RNN RNNBase"),
    **_lazy.names("microtorch.nn.rnn_cells", "GRUCell LSTMCell RNNCell RNNCellBase"),
    **_lazy.names("microtorch.nn.shuffle", "ChannelShuffle PixelShuffle PixelUnshuffle"),
    **_lazy.names("microtorch.nn.transformer", "Transformer TransformerDecoder TransformerEncoder"),
    **_lazy.names(
        "microtorch.nn.transformer_layers", "TransformerDecoderLayer TransformerEncoderLayer"
    ),
    **_lazy.names("microtorch.nn.upsampling", "Upsample UpsamplingBilinear2d UpsamplingNearest2d"),
}
if not TYPE_CHECKING:  # (to mypy, a module __getattr__ would make every name exist)
    __getattr__ = _lazy.module_getattr(
        globals(), ON_FIRST_USE, _coverage.module_getattr("torch.nn", __name__)
    )
    __dir__ = _lazy.module_dir(globals(), ON_FIRST_USE)
