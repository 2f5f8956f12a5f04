"""The person's account: sign-up and sign-in (allauth's adapter and forms, the password
reset), his own details, his e-mail address change, the invitation to set his password,
joining a club and leaving one, his data (AVG), a club's public registration. Above the
club layer and the models, below the season: it imports no season, no feature above it
(his own pages, which show his games, are ``competition/pages/me/``)."""
