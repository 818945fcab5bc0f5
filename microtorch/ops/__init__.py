"""The differentiable operations, one ``Function`` per op, grouped by kind."""
