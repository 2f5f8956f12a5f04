"""Club members: the accounts people sign in with (e-mail and password), the clubs and
their memberships."""

import datetime as dt
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.core.signals import request_started
from django.db import models
from django.db.models.signals import post_delete, post_save
from django.utils.translation import gettext_lazy as _

from core.tenancy.timezones import validate_time_zone
from core.validators import single_line
from members.names import INITIALS, public_name

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser


class UserQuerySet(models.QuerySet["User"]):
    def members(self, club: "Club | None" = None) -> "UserQuerySet":
        """The club's members: active accounts the club added or accepted (a
        ``Membership`` of ``club``, the current club when not given; in the platform's
        work, every club's; outside every club it raises ``ScopeError``, as a club-scoped
        query does). A registration the leader has not accepted yet is nobody's member:
        it is listed nowhere."""
        from django_scopes import ScopeError

        from core.tenancy.context import current_club, in_all_clubs

        club = club or current_club()
        found = self.filter(is_active=True, registration_pending=False)
        if club is not None:
            return found.filter(memberships__club=club)
        if in_all_clubs():
            return found
        raise ScopeError("the members of which club? No club in the work in hand")


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def get_queryset(self) -> UserQuerySet:
        return UserQuerySet(self.model, using=self._db)

    def members(self, club: "Club | None" = None) -> UserQuerySet:
        return self.get_queryset().members(club)

    def _create(self, email: str, password: str | None, **extra: object) -> "User":
        if not email:
            raise ValueError("An e-mail address is required.")
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email: str, password: str | None = None, **extra: object) -> "User":
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create(email, password, **extra)

    def create_superuser(self, email: str, password: str | None = None, **extra: object) -> "User":
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        return self._create(email, password, **extra)


class Sex(models.TextChoices):
    """As TRF writes it (FIDE C.04 Annex 2, field 005)."""

    MALE = "m", _("male")
    FEMALE = "w", _("female")


class Title(models.TextChoices):
    """FIDE titles as TRF writes them (field 006)."""

    GM = "g", "GM"
    IM = "m", "IM"
    FM = "f", "FM"
    CM = "c", "CM"
    WGM = "wg", "WGM"
    WIM = "wm", "WIM"
    WFM = "wf", "WFM"
    WCM = "wc", "WCM"


class PublicName(models.TextChoices):
    """How a member appears on the public pages (AVG: his choice)."""

    NAME = "name", _("by name")
    INITIALS = INITIALS, _("by initials")


class User(AbstractUser):
    """A member. Signs in with e-mail; the name is what the standings show."""

    username = None  # type: ignore[assignment]
    first_name = None  # type: ignore[assignment]
    last_name = None  # type: ignore[assignment]
    email = models.EmailField(_("e-mail address"), unique=True)
    name = models.CharField(_("name"), max_length=120, validators=[single_line])
    rating = models.PositiveIntegerField(
        _("KNSB rating"), null=True, blank=True, help_text=_("National (KNSB) rating.")
    )
    rating_date = models.DateField(
        _("KNSB rating date"), null=True, blank=True, help_text=_("Date of the KNSB list the rating comes from.")
    )
    knsb_number = models.CharField(_("KNSB relation number"), max_length=12, blank=True)
    fide_id = models.CharField(_("FIDE id"), max_length=12, blank=True)
    # FIDE's own numbers, kept apart from the KNSB rating: a TRF for FIDE carries these.
    fide_rating = models.PositiveIntegerField(
        _("FIDE rating"), null=True, blank=True, help_text=_("Standard FIDE rating.")
    )
    fide_rating_date = models.DateField(
        _("FIDE rating date"), null=True, blank=True, help_text=_("Date of the FIDE list the rating comes from.")
    )
    federation = models.CharField(
        _("federation"), max_length=3, default="NED", help_text=_("FIDE federation code, e.g. NED.")
    )
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    title = models.CharField(_("title"), max_length=3, choices=Title.choices, blank=True)
    birth_date = models.DateField(_("date of birth"), null=True, blank=True)
    # A public registration (when the club allows it) is a request: until the leader
    # accepts it the account is no member (members/accounts/registration.py).
    registration_pending = models.BooleanField(_("registration awaits the leader"), default=False)
    # Phone, e-mail preferences, public name and calendar secret are each club's: they
    # live on the Membership (the properties below read the current club's).

    USERNAME_FIELD = "email"
    REQUIRED_FIELDS = ["name"]

    objects = UserManager()  # type: ignore[assignment,misc]

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rating__isnull=True) | models.Q(rating__lte=3500),
                name="member_rating_plausible",
            ),
            models.CheckConstraint(
                condition=models.Q(fide_rating__isnull=True) | models.Q(fide_rating__lte=3500),
                name="member_fide_rating_plausible",
            ),
        ]

    def __str__(self) -> str:  # shown on public pages: never the e-mail address
        return self.shown_name

    @property
    def shown_name(self) -> str:
        """The name the public pages show (his choice: name or initials)."""
        return public_name(self) or f"#{self.pk}"

    @property
    def is_member(self) -> bool:
        """Signed in as one of the club's members (not a registration still pending)."""
        return self.is_active and not self.registration_pending

    def get_full_name(self) -> str:
        return self.name

    # The club's part of the person, read for the current club (``club_part``).
    @property
    def phone(self) -> str:
        return club_part(self.pk).phone

    @property
    def public_as(self) -> str:
        return club_part(self.pk).public_as

    @property
    def pairing_mail(self) -> bool:
        return club_part(self.pk).pairing_mail

    @property
    def notice_mail(self) -> bool:
        return club_part(self.pk).notice_mail

    def get_short_name(self) -> str:
        return self.name.split(" ")[0] if self.name else self.email

    def rating_of(self, kind: str) -> int | None:
        """His rating of ``kind`` (``RatingKind``: "knsb" or "fide"): different numbers."""
        return self.fide_rating if kind == "fide" else self.rating


# Who acts in a service: a signed-in member or the anonymous visitor (``None``: the system,
# with ``system=True``). ``core.permissions.require`` checks him by what he can do.
if TYPE_CHECKING:
    Actor: TypeAlias = "User | AnonymousUser"
else:
    Actor = object


def person(actor: Actor | None) -> User | None:
    """The signed-in user behind an action, for the audit trail and ``changed_by``."""
    if actor is not None and actor.is_authenticated:
        return actor  # type: ignore[return-value]
    return None


class Club(models.Model):
    """A chess club on this installation: its own address, people, rules and e-mail.

    Platform-wide (docs/architecture.md, "Many clubs"): everything a club owns hangs off
    it, directly (``club`` column) or through its season."""

    name = models.CharField(_("name"), max_length=120, validators=[single_line])
    slug = models.SlugField(
        _("address"), max_length=40, unique=True,
        help_text=_("The club's pages are at /<address>/ (lower case, digits and hyphens)."),
    )
    time_zone = models.CharField(
        _("time zone"), max_length=40, default="Europe/Amsterdam", validators=[validate_time_zone],
        help_text=_("An IANA time zone, such as Europe/Amsterdam."),
    )
    site_name = models.CharField(
        _("site name"), max_length=120, blank=True, validators=[single_line],
        help_text=_("Shown above every page and in e-mails; empty: the club's name."),
    )
    sender_name = models.CharField(
        _("e-mail sender name"), max_length=120, blank=True, validators=[single_line]
    )
    reply_to = models.EmailField(_("reply-to address"), blank=True)
    default_system = models.CharField(_("default rules"), max_length=20, default="pion")
    deadline_weekday = models.PositiveSmallIntegerField(
        _("sign-up deadline day"), default=3, help_text=_("0 = Monday … 6 = Sunday.")
    )
    deadline_time = models.TimeField(_("sign-up deadline time"), default=dt.time(18, 0))
    start_time = models.TimeField(_("first round starts"), default=dt.time(20, 15))
    venue = models.CharField(_("venue"), max_length=200, blank=True, validators=[single_line])
    language = models.CharField(_("language"), max_length=8, default="nl")
    # The club's own choice (members/accounts/registration.py): anyone may ask to join at its address.
    open_registration = models.BooleanField(
        _("open registration"), default=False,
        help_text=_("Anyone may ask for an account on the sign-up page; the competition "
                    "leader accepts or refuses each registration."),
    )

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def shown_name(self) -> str:
        return self.site_name or self.name


class ClubDomain(models.Model):
    """A host name of the club's own (``intern.mijnclub.nl``): served without the prefix."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="domains",
                             verbose_name=_("club"))
    host = models.CharField(_("host name"), max_length=253, unique=True)

    class Meta:
        verbose_name = _("club host name")
        verbose_name_plural = _("club host names")

    def __str__(self) -> str:
        return self.host


class Membership(models.Model):
    """A member's role in one club, and the club's part of him (docs/architecture.md, "The
    person and the membership"): his phone number (shown to the club's signed-in members),
    his e-mail preferences, how the club's public pages show him, and the secret of his
    personal calendar feed of the club. One account may belong to several clubs; what he
    sets at one does not apply at the other."""

    user = models.ForeignKey("members.User", on_delete=models.CASCADE, related_name="memberships",
                             verbose_name=_("member"))
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships",
                             verbose_name=_("club"))
    role = models.CharField(_("role"), max_length=20, default="player")
    joined = models.DateTimeField(_("joined"), auto_now_add=True)
    phone = models.CharField(
        _("phone"), max_length=20, blank=True,
        help_text=_("Shown only to the club's signed-in members, to arrange a postponed game."),
    )
    public_as = models.CharField(
        _("on public pages"), max_length=10, choices=PublicName.choices, default=PublicName.NAME,
    )
    pairing_mail = models.BooleanField(_("e-mail me the pairing"), default=True)
    notice_mail = models.BooleanField(
        _("e-mail me notices"), default=True,
        help_text=_("Changes to my pairing, decisions on my requests."),
    )
    # The secret of his personal calendar feed of this club; a new one revokes the old address.
    calendar_token = models.CharField(_("calendar secret"), max_length=43, blank=True, db_index=True,
                                      editable=False)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="membership_once_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club}"


class JoinKind(models.TextChoices):
    """Who asked: the person (a public registration the leader decides) or the club (an
    invitation of an existing account the person accepts)."""

    REGISTRATION = "registration", _("registration")
    INVITATION = "invitation", _("invitation")


class JoinRequest(models.Model):
    """A person asked to join one club, or was asked to (members/accounts/joining.py): no member
    of it until the other side says yes. One open request per person and club."""

    user = models.ForeignKey("members.User", on_delete=models.CASCADE, related_name="join_requests",
                             verbose_name=_("member"))
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_requests",
                             verbose_name=_("club"))
    kind = models.CharField(_("kind"), max_length=20, choices=JoinKind.choices)
    # An invitation: the season he joins on accepting, as which kind of player, and the
    # name the leader typed (the leader sees that one until the person accepts).
    season = models.ForeignKey("competition.Season", on_delete=models.CASCADE, null=True, blank=True,
                               related_name="+", verbose_name=_("season"))
    player_kind = models.CharField(_("kind of player"), max_length=10, blank=True)
    name = models.CharField(_("name"), max_length=120, blank=True)
    # A corrected invitation (competition.roster.services.member_update): the player row the leader
    # made for the address he first typed, which the person takes over on accepting (his
    # starting position and any results stay with it).
    player = models.ForeignKey("competition.Player", on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="+", verbose_name=_("player"))
    created = models.DateTimeField(_("asked"), auto_now_add=True)

    class Meta:
        verbose_name = _("request to join")
        verbose_name_plural = _("requests to join")
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="join_request_once_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} @ {self.club}"


# --- The club's part of a person, read for the current club ------------------------------

@dataclass(frozen=True)
class ClubPart:
    """What one club keeps of a person (his ``Membership``'s own fields)."""

    phone: str = ""
    public_as: str = PublicName.NAME
    pairing_mail: bool = True
    notice_mail: bool = True


NO_PART = ClubPart()  # no club in hand: nothing of any club's
# Not (or no longer) this club's member: his results stay under his initials. A member who
# left took his choice with his membership (members.accounts.profile.membership_end); the public
# pages never fall back to his full name for it.
FORMER_PART = ClubPart(public_as=PublicName.INITIALS)
_parts = threading.local()


def club_part(user_id: int | None, club: Any = None, *, load: bool = False) -> ClubPart:
    """``user_id``'s part in ``club`` (the club in scope when not given). Every member of
    the club is read in one query, memoised for the request (or task) in this thread, so a
    page of 60 names costs one query whatever its size. ``load``: read the club's parts now
    even for no one (a page that shows names only sometimes keeps its query count)."""
    from core.tenancy.context import current_club_id  # the club in hand (core/tenancy/context.py)

    club = club if club is not None else current_club_id()
    if club is None or (user_id is None and not load):
        return NO_PART
    club_id = club if isinstance(club, int) else club.pk
    memo: dict[int, dict[int, ClubPart]] = _parts.__dict__.setdefault("memo", {})
    if club_id not in memo:
        memo[club_id] = {
            user: ClubPart(phone, public_as, pairing, notice)
            for user, phone, public_as, pairing, notice in Membership.objects.filter(club_id=club_id)
            .values_list("user_id", "phone", "public_as", "pairing_mail", "notice_mail")
        }
    return memo[club_id].get(user_id, FORMER_PART) if user_id is not None else NO_PART


def forget_club_parts(*args: object, **kwargs: object) -> None:
    """A new request or task, or a membership written: read the parts anew."""
    _parts.__dict__.pop("memo", None)


request_started.connect(forget_club_parts, dispatch_uid="members.forget_club_parts")
post_save.connect(forget_club_parts, sender=Membership, dispatch_uid="members.club_part_saved")
post_delete.connect(forget_club_parts, sender=Membership, dispatch_uid="members.club_part_deleted")
