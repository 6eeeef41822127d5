"""Due reminders announced to live sessions, in text and speech, once per server."""

from __future__ import annotations

import logging

from egocli.assistant.routing import Conversation
from egocli.assistant.services import LiveServices
from egocli.assistant.talk import Talk
from egocli.core.errors import EgoError
from egocli.core.timeutil import format_local, now_ms
from egocli.tools import reminders
from egocli.tools.reminders import Reminder

log = logging.getLogger(__name__)


class Announcer:
    """Tells sessions about reminders that fall due."""

    def __init__(self, services: LiveServices, talk: Talk) -> None:
        self.services, self.talk = services, talk
        self.announced: set[int] = set()
        """Reminders this server has announced already."""

    async def announce_due(self, session: Conversation) -> None:
        """Announce reminders that are due and not yet announced by this server."""
        try:
            due = await self.services.run("writer", self._due)
        except EgoError as ex:
            log.warning("due reminders not checked: %s", ex)
            return
        for reminder in due:
            if reminder.id in self.announced:
                continue
            self.announced.add(reminder.id)
            where = f" in {reminder.place}" if reminder.place else ""
            said = f"Reminder: {reminder.text}{where}."
            await session.send({"type": "reminder", "id": reminder.id, "text": reminder.text,
                                "place": reminder.place, "due": format_local(reminder.due_ms),
                                "due_ms": reminder.due_ms, "say": said})
            await self.talk.say(session, said)

    def _due(self) -> list[Reminder]:
        """Open reminders due now (writer thread)."""
        return reminders.due(self.services.store(), now_ms(), window_ms=0)
