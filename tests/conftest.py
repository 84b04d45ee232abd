"""Suite-wide test settings."""

from hypothesis import HealthCheck, settings

# Property tests assert behaviour, never speed: a busy CI machine must not turn
# a slow example into a failure. Tests that set their own limits keep them.
settings.register_profile("writing-rules", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.load_profile("writing-rules")
