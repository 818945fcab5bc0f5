"""The course's lab serves each chapter with the language_info its kernel is about to report.

JupyterLab copies the kernel's ``language_info`` (Python's version included) into the open
notebook as soon as the kernel starts, and marks the notebook modified if that differs from
what the file holds. The chapters store no Python version (re-executing them on another Python
must not change the files: tools/execute_notebooks.py), so every chapter showed as modified
right after opening. Here the server completes a Python notebook's stored ``language_info``
with what ipykernel running on this Python reports (the course's kernel is this Python's
ipykernel), so the kernel's reply changes nothing. The files on disk are left as they are.
"""

from typing import Any

from ipykernel.ipkernel import IPythonKernel
from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (defined by traitlets' loader)


class ContentsWithKernelLanguageInfo(AsyncLargeFileManager):  # type: ignore[misc]
    """Jupyter's default contents manager, filling in the kernel's language_info."""

    async def get(self, path: str, content: bool = True, **kwargs: Any) -> Any:
        model = await super().get(path, content=content, **kwargs)
        if model["type"] == "notebook" and model.get("content"):
            metadata = model["content"]["metadata"]
            stored = metadata.get("language_info", {})
            reported = IPythonKernel.language_info
            if stored.get("name") == "python" and all(
                reported.get(key) == value for key, value in stored.items() if key != "version"
            ):
                metadata["language_info"] = {**stored, **reported}
        return model


c.ServerApp.contents_manager_class = ContentsWithKernelLanguageInfo
