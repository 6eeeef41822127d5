"""The live assistant behind `egocli serve`: what a session hears, sees, answers and does.

serve      builds the parts below once and hands them to the transport (egocli.stream)
host       the Application the transport serves: new sessions, /api data, warm-up, shutdown
session    one client: audio -> VAD -> ASR -> events or questions, frames -> events, answers
services   shared log writer, models on their role threads, perception and speech
answers    spoken answers: the live window for now, LogAnswers (ask.py) for other times
prefill    the live window's model, filling and background pre-fill; window: the window itself
dialogue   routing of requests that are not plain questions; talk: confirm/clarify state
toolflow, pointflow, reminders, board: the tools, pointing, reminder and chess flows
options, routing, speech, seats: ServeOptions, route(), SentenceSplitter, admission
"""
