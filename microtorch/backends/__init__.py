"""``microtorch.backends``: the answers PyTorch's CPU-only build gives about its backends.

Course code asks ``torch.backends.mps.is_available()`` to pick a device and sets
``torch.backends.cudnn.deterministic = True`` for reproducibility; here there is no GPU, so
the first answers ``False`` and the settings are kept but change nothing.
"""

from microtorch.backends import cuda, cudnn, mps

__all__ = ["cuda", "cudnn", "mps"]
