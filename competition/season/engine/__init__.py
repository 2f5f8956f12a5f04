"""The season's own rules, pure Python: the calendar, sign-up and the season file."""
