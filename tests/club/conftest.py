"""The real table's fixtures (tests/web) for the club's tests that play at a table."""

from tests.web.conftest import make_table, table  # noqa: F401
