"""nbgrader's configuration for everyone on a class server: installed as
/etc/jupyter/nbgrader_config.py by tools/class_setup.py (docs/instructors.md, "A real class on
one server"). The instructor's course directory keeps its own docs/nbgrader_config.py as well.
"""

c = get_config()  # noqa: F821 (nbgrader defines get_config when it reads this file)
c.CourseDirectory.course_id = "microtorch"
# The exchange, as nbgrader documents it for a multi-user server: one folder every account can
# write to (mode 1777: the sticky bit keeps anyone from deleting what others put there).
# nbgrader makes the course's inbound and feedback folders inside it unlistable by students, so
# no student can find another's submission or feedback there.
c.Exchange.root = "/srv/nbgrader/exchange"
