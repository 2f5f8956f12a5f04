"""What the pairing job has sent: one row per player and version of his game, so that a
retried or doubled job never e-mails twice, and a republished pairing e-mails only the
players whose game changed."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class PairingNotice(models.Model):
    evening = models.ForeignKey(
        "competition.Evening", on_delete=models.CASCADE, related_name="notices"
    )
    player = models.ForeignKey(
        "competition.Player", on_delete=models.CASCADE, related_name="notices"
    )
    signature = models.CharField(max_length=200, help_text=_("colours, opponent, tempo"))
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("pairing e-mail")
        verbose_name_plural = _("pairing e-mails")
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "player", "signature"], name="notice_once_per_version"
            )
        ]

    def __str__(self) -> str:
        return f"{self.evening_id}/{self.player_id}: {self.signature}"
