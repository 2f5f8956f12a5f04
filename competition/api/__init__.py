"""The read API: the public data of the club as JSON, each version a module of its own
(``v1``), all behind the same HTTP shell (``http.py``: caching, ETag, CORS, rate limit).
The selectors the pages use are its only source."""
