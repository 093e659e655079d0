"""This machine and this user: where files live, the settings, the clock, the single-instance lock."""
