# ruff: noqa: E501 (one row a name, as the tool writes it)
"""The names tests/test_keyword_parity.py finds failing, with the first failing call: written
by tools/update_keyword_parity_todo.py (run it again after a fix). Each is a bug to fix."""

NOT_YET: dict[str, str] = {}
