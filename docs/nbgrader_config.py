"""nbgrader's configuration for a microtorch course: copy it to the course directory's root.

docs/instructors.md ("Grade with nbgrader") describes the course directory; the test suite
(tests/course/test_nbgrader.py) grades every chapter with this very file.
"""

c = get_config()  # noqa: F821 (nbgrader defines get_config when it reads this file)
c.CourseDirectory.course_id = "microtorch"
# autograde runs each notebook top to bottom; a chapter takes well under 30 s on two cores.
c.Execute.timeout = 120

# A file without nbgrader's cell metadata (a student's notebook made by copying cells into a new
# one, or an exercise version from before it carried the metadata) has no graded cells, and
# autograde would give it 0 without a word. Refuse it instead: autograde then names the file,
# says how to collect work, and exits with an error.
from nbgrader.converters.autograde import Autograde  # noqa: E402
from nbgrader.preprocessors import NbGraderPreprocessor  # noqa: E402


class RefuseFilesWithoutGradedCells(NbGraderPreprocessor):
    """Stops autograde on a submission with no graded (nbgrader) cell."""

    def preprocess(self, nb, resources):  # noqa: ANN001, ANN201 (nbconvert's signature)
        if not any(c.metadata.get("nbgrader", {}).get("grade") for c in nb.cells):
            student = resources.get("nbgrader", {}).get("student", "a student")
            raise ValueError(
                f"{student}'s {resources.get('unique_key', 'notebook')} has no graded cells (no "
                "nbgrader metadata), so every exercise would score 0. Collect the file they worked "
                "in: nbgrader's release, or the exercise version `make lab` opens "
                "(notebooks/exercises/NN_topic.ipynb), saved as "
                "submitted/<student>/<chapter>/<chapter>.ipynb; not a copy of its cells."
            )
        return nb, resources


c.Autograde.sanitize_preprocessors = [
    RefuseFilesWithoutGradedCells,
    *Autograde.class_traits()["sanitize_preprocessors"].default(),
]
