"""The course's data files, installed with microtorch as package data.

A chapter reads one with ``importlib.resources``, so it finds the file wherever the notebook
sits (the repository, a copy of ``notebooks/exercises/``, a JupyterHub home) and whichever
library it runs on (microtorch or PyTorch)::

    from importlib.resources import files
    text = files("course_data").joinpath("tiny_corpus.txt").read_text(encoding="utf-8")
"""

__all__: list[str] = []
