"""Suite-wide test settings."""

import pytest
from hypothesis import HealthCheck, settings

# Property tests assert behaviour, never speed: a busy CI machine must not turn
# a slow example into a failure. Tests that set their own limits keep them.
settings.register_profile("writing-rules", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.load_profile("writing-rules")


@pytest.fixture(autouse=True)
def _user_cache_in_tmp(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scans cache results in the user's cache folder by default: never the real one during tests."""
    monkeypatch.setenv("WRITING_RULES_CACHE_DIR", str(tmp_path_factory.mktemp("user-cache") / "writing-rules"))
