"""Pure rating-list code: parsers, matching, TRF export, performance rating (no Django)."""
