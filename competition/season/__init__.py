"""The Keizer or ladder season: its rules (engine/), writes, reads, pages and jobs."""
