"""The ask service: its steps compose to `ask`, preparation as chosen, checks before any model loads."""

from __future__ import annotations

import pytest

from egocli.core.config import load_settings
from egocli.core.errors import ModelError, UsageError
from egocli.models.fake import EchoModel, HashEmbedder, ScriptedModel
from egocli.reasoning import asker, prompts
from egocli.reasoning.service import AS_IS, FULL, VECTORS, AskService
from egocli.store import vectors

from .conftest import AT, build_log

KEYS = "Line: [Thu 26 Nov 15:00] visual: Putting the car keys in the red drawer of the hallway cabinet\n" \
       "Answer: In the red drawer of the hallway cabinet."


def test_steps_compose_to_ask(store):
    ids = build_log(store)
    req = asker.AskRequest("where are the car keys?", at_ms=AT, symbolic=False)
    whole = AskService.using(ScriptedModel(KEYS)).ask(store, req)
    service = AskService.using(ScriptedModel(KEYS))
    scope = service.scope(store, req)
    assert service.prepare(store, req, scope).built == 0
    ctx = service.evidence(store, req, scope)
    stepwise = service.answer(ctx, req)
    assert stepwise.text == whole.text == "It seems to be in the red drawer of the hallway cabinet."
    assert [c.event_id for c in stepwise.citations] == [c.event_id for c in whole.citations]
    assert whole.citations[0].event_id == ids["keys"]


def test_the_fixed_system_turn_is_primed_and_not_evaluated_again(store):
    build_log(store)
    model = ScriptedModel(KEYS)
    AskService.using(model).ask(store, asker.AskRequest("where are the car keys?", at_ms=AT, symbolic=False))
    system = prompts.open_messages("")[0]["content"]
    assert model.primed == [system]
    whole = model.prompt_tokens([model.format_chat(model.prompts[0])])
    turn = model.prompt_tokens([f"<|im_start|>system\n{system}<|im_end|>\n"])
    assert model.fresh == [len(whole) - len(turn)] and 0 < len(turn) < len(whole)


@pytest.mark.parametrize("preparation, embedded", [(FULL, True), (VECTORS, True), (AS_IS, False)])
def test_preparation_embeds_the_scope_only_when_asked(store, preparation, embedded):
    build_log(store, days=1)
    service = AskService.using(EchoModel(), HashEmbedder(), preparation=preparation)
    req = asker.AskRequest("where are the car keys?", at_ms=AT, symbolic=False)
    service.prepare(store, req, service.scope(store, req))
    assert (vectors.count(store, HashEmbedder.name) > 0) is embedded


def test_a_bad_question_fails_before_the_model_loads(store):
    build_log(store, days=1)

    def no_model() -> EchoModel:
        raise ModelError("llm: model file not found: /nowhere.gguf")

    service = AskService(no_model)
    with pytest.raises(UsageError, match="empty question"):
        service.ask(store, asker.AskRequest("  "))
    with pytest.raises(ModelError, match="model file not found"):
        service.ask(store, asker.AskRequest("where are the car keys?", at_ms=AT, symbolic=False))


def test_from_settings_loads_the_configured_models_and_warns_without_an_embedder(store, tmp_path):
    build_log(store, days=1)
    warnings: list[str] = []
    settings = load_settings(home=tmp_path, models={"llm": "fake", "embedder": str(tmp_path / "missing.onnx")})
    service = AskService.from_settings(settings, warn=warnings.append)
    assert service.embedder is None and warnings == [f"embedder: model file not found: {tmp_path / 'missing.onnx'}; "
                                                     "retrieval uses words only"]
    answer = service.ask(store, asker.AskRequest("where are the car keys?", ("red drawer", "sofa"), at_ms=AT))
    assert isinstance(service.llm(), EchoModel) and answer.letter == "A"


def test_a_computed_list_is_answered_without_waiting_for_the_model(store):
    build_log(store)
    loads = []

    def load():
        loads.append(1)
        raise ModelError("no model here")
    req = asker.AskRequest("what did I do yesterday?", at_ms=AT)
    answer = AskService(load).ask(store, req)
    assert answer.citations and answer.decided_by == "symbolic" and not loads
