"""The public functions around the formulas: ``torch.add``, ``x.sum(dim=1)``, ``x[i] = v``.

The formulas are in ``microtorch/ops`` (one ``Function`` per op, forward and backward side by
side). This package is what stands between a call and its formula: Python numbers and other
dtypes made into tensors of the op's dtype (``operands.py``), PyTorch's keyword names and
``out=`` (``keywords.py``, ``out_argument.py``), in-place dispatch (``inplace.py``), and the
argument checks that raise PyTorch's errors (``_checks.py``).
"""
