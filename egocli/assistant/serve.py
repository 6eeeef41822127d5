"""`egocli serve` put together: the services, the live window, the answerer and the assistant are
built here and passed down; the transport (egocli.stream.server) serves them as an Application."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from egocli.assistant.answers import LiveAnswerer
from egocli.assistant.ask import AskPipeline, LogAnswers
from egocli.assistant.dialogue import Assistant
from egocli.assistant.livehost import LiveHost
from egocli.assistant.serve_options import ServeOptions
from egocli.assistant.prefill import LiveWindow
from egocli.core.clock import Clock, SystemClock
from egocli.assistant.seats import Seats
from egocli.assistant.services import LiveServices
from egocli.assistant.session import Crew
from egocli.assistant.summary_job import BackgroundSummaries, stopped
from egocli.core.config import Settings
from egocli.stream import server
from egocli.stream.timeline_routes import add_routes
from egocli.usecases.timeline import Timeline, ask_answerer


def build(settings: Settings, options: ServeOptions, clock: Clock | None = None,
          log_answers: LogAnswers | None = None, services: LiveServices | None = None) -> LiveHost:
    """The live assistant for a server: every part built once and handed to the parts that use it."""
    services = services or LiveServices(settings)
    window = LiveWindow(services, options.live_budget)
    asker = log_answers or AskPipeline(services.llm, services.embedder, options.answer_budget)
    clock = clock or SystemClock()
    crew = Crew(options, services, LiveAnswerer(services, window, asker), Assistant(services, clock),
                Seats(options.max_sessions), clock)
    return LiveHost(crew, window)


async def serve(settings: Settings, options: ServeOptions, stop: asyncio.Event,
                ready: Callable[[str], None] | None = None) -> None:
    """Run the server until `stop` is set, then close every session and finish writing the log."""
    options.check()
    services = LiveServices(settings)
    job = BackgroundSummaries(services, options.summaries_every_s) if options.summaries else None
    pages = timeline_pages(settings, services, job)
    pages.store()  # the log is created (or migrated) before the server listens, not raced by two readers
    running = asyncio.ensure_future(job.run()) if job is not None else None
    try:
        await server.serve(build(settings, options, services=services), options.server, stop, ready,
                           mount=lambda app: add_routes(app, pages))
    finally:
        await stopped(running)


def timeline_pages(settings: Settings, services: LiveServices, job: BackgroundSummaries | None = None) -> Timeline:
    """The timeline page's view of the served log: same passphrase, same models (the registry loads once);
    the background summaries give way to its questions."""
    from egocli.privacy import crypto
    from egocli.store import Store

    def open_store() -> Store:
        return Store.open(settings.db, key=services.key)

    answer = ask_answerer(settings)
    return Timeline(open_store, settings.media_dir, crypto.media_key, job.asking(answer) if job else answer)


def run(settings: Settings, options: ServeOptions, ready: Callable[[str], None] | None = None) -> None:
    """Blocking entry point: serve until SIGINT or SIGTERM."""
    server.run_until_signal(lambda stop: serve(settings, options, stop, ready))
