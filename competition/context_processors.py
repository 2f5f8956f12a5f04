from django.conf import settings
from django.utils.functional import SimpleLazyObject

from . import selectors
from .pagecache import versioned


def _my_player_id(request):
    """The signed-in member's player in the current season (his page, his sign-ups), or
    None: a member who does not play (the arbiter) is not offered "Sign up/off". Memoised
    per version of the club's data; asked only by a page that shows the menu signed in."""
    user = request.user
    if not getattr(user, "is_member", False):
        return None

    def compute():
        season = selectors.current_season()
        player = selectors.player_for(user, season) if season else None
        return player.pk if player else None

    return versioned(("menu-player", user.pk, selectors.club_today()), compute)


def club(request):
    return {"CLUB_NAME": settings.CLUB_NAME,
            "OPEN_REGISTRATION": getattr(settings, "OPEN_REGISTRATION", False),
            "MY_PLAYER_ID": SimpleLazyObject(lambda: _my_player_id(request))}
