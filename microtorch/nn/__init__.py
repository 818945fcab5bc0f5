"""``microtorch.nn``: modules, layers, losses, ``functional`` and ``init``, as in PyTorch."""

from typing import TYPE_CHECKING

from microtorch import _coverage
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
from microtorch.nn.activation_more import GLU, Hardshrink, RReLU, Softmax2d, Softshrink, Threshold
from microtorch.nn.attention import MultiheadAttention
from microtorch.nn.bilinear import Bilinear
from microtorch.nn.container import Container, ModuleDict, ModuleList, Sequential
from microtorch.nn.conv import Conv1d, Conv2d, Conv3d
from microtorch.nn.conv_transpose import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from microtorch.nn.cross_map_lrn import CrossMapLRN2d
from microtorch.nn.dropout import (
    AlphaDropout,
    Dropout,
    Dropout1d,
    Dropout2d,
    Dropout3d,
    FeatureAlphaDropout,
)
from microtorch.nn.embedding import Embedding
from microtorch.nn.embedding_bag import EmbeddingBag
from microtorch.nn.flatten import Flatten, Unflatten
from microtorch.nn.fold import Fold, Unfold
from microtorch.nn.lazy import (
    LazyBatchNorm1d,
    LazyBatchNorm2d,
    LazyConv1d,
    LazyConv2d,
    LazyLinear,
)
from microtorch.nn.lazy_more import (
    LazyBatchNorm3d,
    LazyConv3d,
    LazyConvTranspose1d,
    LazyConvTranspose2d,
    LazyConvTranspose3d,
    LazyInstanceNorm1d,
    LazyInstanceNorm2d,
    LazyInstanceNorm3d,
)
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
from microtorch.nn.loss_more import (
    GaussianNLLLoss,
    MultiLabelSoftMarginLoss,
    NLLLoss2d,
    PoissonNLLLoss,
    TripletMarginWithDistanceLoss,
)
from microtorch.nn.margin_loss import (
    CosineEmbeddingLoss,
    HingeEmbeddingLoss,
    MarginRankingLoss,
    MultiLabelMarginLoss,
    MultiMarginLoss,
    SoftMarginLoss,
    TripletMarginLoss,
)
from microtorch.nn.module import Module
from microtorch.nn.normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d, GroupNorm, LayerNorm
from microtorch.nn.normalization_more import (
    InstanceNorm1d,
    InstanceNorm2d,
    InstanceNorm3d,
    RMSNorm,
)
from microtorch.nn.padding import (
    CircularPad1d,
    CircularPad2d,
    CircularPad3d,
    ConstantPad1d,
    ConstantPad2d,
    ConstantPad3d,
    CosineSimilarity,
    PairwiseDistance,
    ReflectionPad1d,
    ReflectionPad2d,
    ReflectionPad3d,
    ReplicationPad1d,
    ReplicationPad2d,
    ReplicationPad3d,
    ZeroPad1d,
    ZeroPad2d,
    ZeroPad3d,
)
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
from microtorch.nn.pooling_more import (
    AdaptiveAvgPool3d,
    AdaptiveMaxPool3d,
    AvgPool3d,
    LocalResponseNorm,
    LPPool1d,
    LPPool2d,
    LPPool3d,
    MaxPool3d,
    MaxUnpool1d,
    MaxUnpool2d,
    MaxUnpool3d,
)
from microtorch.nn.rnn import GRU, LSTM, RNN, RNNBase
from microtorch.nn.rnn_cells import GRUCell, LSTMCell, RNNCell, RNNCellBase
from microtorch.nn.shuffle import ChannelShuffle, PixelShuffle, PixelUnshuffle
from microtorch.nn.sync_batchnorm import SyncBatchNorm  # (walkh)
from microtorch.nn.transformer import Transformer, TransformerDecoder, TransformerEncoder
from microtorch.nn.transformer_layers import TransformerDecoderLayer, TransformerEncoderLayer
from microtorch.nn.upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d

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
]  # fmt: skip


# PyTorch names microtorch does not cover raise an error that says what to use instead.
if not TYPE_CHECKING:  # (to mypy, a module __getattr__ would make every name exist)
    __getattr__ = _coverage.module_getattr("torch.nn", __name__)
