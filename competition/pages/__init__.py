"""The pages that compose several features (home, standings, the player page)."""
