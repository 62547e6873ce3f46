"""The web tests' fixtures (a started app around the real service) for the hostile-web tests."""

from tests.web.conftest import make_table, table  # noqa: F401
