"""nbgrader's configuration for a microtorch course: copy it to the course directory's root.

docs/instructors.md ("Grade with nbgrader") describes the course directory; the test suite
(tests/course/test_nbgrader.py) grades every chapter with this very file.
"""

c = get_config()  # noqa: F821 (nbgrader defines get_config when it reads this file)
c.CourseDirectory.course_id = "microtorch"
# autograde runs each notebook top to bottom; a chapter takes well under 30 s on two cores.
c.Execute.timeout = 120
