"""The club's own website: embeds made for an ``<iframe>`` there (standings, the next
evening's pairing, the last results), the sites allowed to frame them, the Atom feed of
published pairings and results, and the leader's page with the snippets."""
