"""``microtorch.utils``: ``data`` (datasets and the ``DataLoader``)."""

from microtorch.utils import data

__all__ = ["data"]
