"""The notice board's overviews of the Keizer and ladder competition: the cross table and
the results by evening of a half, the pairing sheet of an evening, and the postponed games
still to play. Reads in ``selectors``, the tables built by ``competition.scoring.crosstable``
(pure), pages in ``views``."""
