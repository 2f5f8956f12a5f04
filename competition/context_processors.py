from django.utils.functional import SimpleLazyObject

from competition.models import Player
from competition.season import selectors
from core.pagecache import versioned
from members.clubs.addresses import site_name
from members.clubs.context import current_club
from members.clubs.roles import club_role
from members.clubs.selectors import my_clubs


def _my_player_id(request):
    """The signed-in member's player in the current season (his page, his sign-ups), or
    None: a member who does not play (the arbiter) is not offered "Sign up/off". One
    query (the season is memoised per version of the club's data and day); asked only by
    a page that shows the menu signed in."""
    user = request.user
    if _platform_page(request) or not getattr(user, "is_member", False):
        return None

    def season_id():
        season = selectors.current_season()
        return season.pk if season else None

    season = versioned(("current-season-id", selectors.club_today()), season_id)
    if season is None:
        return None
    return Player.objects.filter(season_id=season, member=user).values_list("pk", flat=True).first()


def _platform_page(request) -> bool:
    """A page of no club: the list of clubs, or the sign-in at the platform's root."""
    return hasattr(request, "club") and request.club is None


def club(request):
    """The club of the page (members/clubs/middleware.py): its name above every page, or the
    platform's ("Ranglijst") on a page of no club, which shows no club's menu."""
    platform = _platform_page(request)
    club = None if platform else getattr(request, "club", None) or current_club()
    return {"CLUB_NAME": "Ranglijst" if platform else site_name(club), "CLUB": club,
            "PLATFORM_PAGE": platform,
            "OPEN_REGISTRATION": bool(club is not None and club.open_registration),
            "MY_PLAYER_ID": SimpleLazyObject(lambda: _my_player_id(request)),
            "CLUB_MEMBER": SimpleLazyObject(lambda: _club_member(request, club)),
            "MY_OTHER_CLUBS": SimpleLazyObject(lambda: _my_other_clubs(request, club))}


def _my_other_clubs(request, club) -> list:
    """The footer's "My other clubs": the signed-in person's other clubs that have an
    address here, each a link (a club this installation serves nowhere is not named)."""
    return [(other, url) for other, url in my_clubs(request.user, but=club, host=request.get_host()) if url]


def _club_member(request, club) -> bool:
    """Signed in as a member of this club (not only of another one): his "My details",
    calendar and "Leave" are this club's to show (one memoised query)."""
    user = request.user
    return bool(club is not None and getattr(user, "is_member", False) and club_role(user, club))
