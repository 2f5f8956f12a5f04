"""The season's roster, the leader's member pages: the season's players in starting order,
adding, importing, inviting, changing and removing members, and the roles page (URL
namespace ``members``, at ``leader/members/``). A room of its own above the season it
serves and the ratings (a member list's names are matched as the rating lists' are,
``competition.ratings.engine.lists.name_keys``), so it is not inside
``competition/season/``, which sits below the ratings."""
