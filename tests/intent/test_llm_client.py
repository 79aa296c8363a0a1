"""`core.llm.LLMClient` against the fake Anthropic Messages API."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.config import LLMConfig, load_settings
from core.llm import LLMClient, extract_json_object
from core.llm_calls import LLMCallCount, count_llm_calls
from tests.fakes.anthropic_server import FakeAnthropic, FakeReply
from tests.intent.conftest import FAKE_KEY

MakeLLM = Callable[..., LLMClient]


def _is_answer(data: object) -> object:
    if not isinstance(data, dict) or data.get("answer") not in ("yes", "no"):
        raise ValueError("not an answer")
    return data


def test_no_api_key_means_no_client() -> None:
    assert LLMClient.from_settings(load_settings().llm) is None
    assert LLMClient.from_settings(LLMConfig(api_key="  ")) is None


def test_json_reply_is_parsed_and_validated(
    fake_anthropic: FakeAnthropic, make_llm: MakeLLM
) -> None:
    fake_anthropic.push(FakeReply.text('Sure! ```json\n{"answer": "yes", "n": 1}\n``` done'))
    llm = make_llm()
    reply = llm.complete_json(system="Say yes.", user="Is it on?", validate=_is_answer, purpose="t")
    assert reply.ok and reply.status == "ok"
    assert reply.data == {"answer": "yes", "n": 1}
    request = fake_anthropic.requests[0]
    assert request.path == "/v1/messages"
    sent = request.headers.get("x-api-key", "") + request.headers.get("authorization", "")
    assert FAKE_KEY in sent
    assert FAKE_KEY not in request.raw
    assert "exactly one JSON object" in request.system
    assert request.body["model"] == load_settings().llm.model
    assert llm.calls == 1


@pytest.mark.parametrize(
    "text",
    ["I'm not sure, sorry.", '{"answer": "maybe"}', '{"answer": "yes"', "[1, 2, 3]", ""],
)
def test_garbage_is_invalid_not_an_exception(
    fake_anthropic: FakeAnthropic, make_llm: MakeLLM, text: str
) -> None:
    fake_anthropic.push(FakeReply.text(text))
    reply = make_llm().complete_json(system="s", user="u", validate=_is_answer)
    assert not reply.ok
    assert reply.status == "invalid"
    assert reply.data is None


#: HTTP 200 bodies that are no Messages response, as gateways, proxies and broken servers send.
NOT_A_MESSAGE = {
    "html": ("<html><body><h1>502 Bad Gateway</h1></body></html>", "text/html"),
    "html-labelled-json": ("<html><body>Sign in to the proxy</body></html>", "application/json"),
    "truncated": (
        '{"id": "msg_1", "type": "message", "content": [{"type": "te',
        "application/json",
    ),
    "wrong-shape": ('{"result": {"text": "incident"}}', "application/json"),
    "a-list": ('[{"type": "text", "text": "incident"}]', "application/json"),
    "error-body": (
        '{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}',
        "application/json",
    ),
    "content-a-string": ('{"type": "message", "content": "incident"}', "application/json"),
    "text-not-a-string": (
        '{"type": "message", "content": [{"type": "text", "text": 5}]}',
        "application/json",
    ),
    "empty": ("", "application/json"),
}


@pytest.mark.parametrize("shape", NOT_A_MESSAGE, ids=list(NOT_A_MESSAGE))
@pytest.mark.parametrize("kind", ["json", "text"])
def test_a_200_that_is_no_messages_response_is_an_error_status(
    fake_anthropic: FakeAnthropic, make_llm: MakeLLM, shape: str, kind: str
) -> None:
    body, content_type = NOT_A_MESSAGE[shape]
    fake_anthropic.default = FakeReply.raw(body, content_type)
    llm = make_llm()
    if kind == "json":
        reply = llm.complete_json(system="s", user="u", validate=_is_answer, purpose="t")
    else:
        reply = llm.complete_text(system="s", user="u", purpose="t")
    assert not reply.ok and reply.status.startswith("error: "), reply
    assert reply.data is None and reply.text == ""
    assert llm.stats().failures == 1


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
#: Message-like envelopes with any values in their fields, and any JSON at all.
_BODIES = st.one_of(
    st.fixed_dictionaries(
        {"type": st.just("message"), "content": _JSON_VALUES},
        optional={"usage": _JSON_VALUES, "role": _JSON_VALUES, "stop_reason": _JSON_VALUES},
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("message"),
            "content": st.lists(
                st.fixed_dictionaries(
                    {"type": st.sampled_from(["text", "tool_use", "x"])},
                    optional={"text": _JSON_VALUES},
                ),
                max_size=3,
            ),
        },
    ),
    _JSON_VALUES,
).map(json.dumps)


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(body=_BODIES | st.text(max_size=40))
def test_no_body_of_a_200_makes_the_client_raise(
    fake_anthropic: FakeAnthropic, make_llm: MakeLLM, body: str
) -> None:
    fake_anthropic.default = FakeReply.raw(body)
    llm = make_llm(timeout_s=2.0)
    reply = llm.complete_json(system="s", user="u", validate=_is_answer, purpose="t")
    assert reply.ok == (reply.status == "ok")
    assert reply.ok == isinstance(reply.data, dict)
    assert llm.complete_text(system="s", user="u", purpose="t").status  # answered, no raise


def test_validator_may_return_cleaned_data(
    fake_anthropic: FakeAnthropic, make_llm: MakeLLM
) -> None:
    fake_anthropic.push(FakeReply.json({"answer": "YES "}))
    reply = make_llm().complete_json(
        system="s", user="u", validate=lambda d: {"answer": d["answer"].strip().lower()}
    )
    assert reply.data == {"answer": "yes"}


@pytest.mark.parametrize(
    ("code", "status"),
    [(500, "error: InternalServerError"), (429, "error: RateLimitError"), (401, None)],
)
def test_http_errors_become_a_status(
    fake_anthropic: FakeAnthropic, make_llm: MakeLLM, code: int, status: str | None
) -> None:
    fake_anthropic.default = FakeReply.status(code)
    llm = make_llm()
    reply = llm.complete_text(system="s", user="u", purpose="t")
    assert not reply.ok
    assert reply.status == (status or "error: AuthenticationError")
    # One logical call; the SDK retries retryable statuses once (max_retries=1).
    assert llm.calls == 1
    assert len(fake_anthropic.requests) == (2 if code in (500, 429) else 1)


def test_recovers_after_one_retryable_failure(
    fake_anthropic: FakeAnthropic, make_llm: MakeLLM
) -> None:
    fake_anthropic.push(FakeReply.status(529), FakeReply.text("fine"))
    reply = make_llm().complete_text(system="s", user="u")
    assert reply.ok and reply.text == "fine"


def test_slow_reply_times_out(fake_anthropic: FakeAnthropic, make_llm: MakeLLM) -> None:
    fake_anthropic.default = FakeReply.slow(5.0, then=FakeReply.json({"answer": "yes"}))
    llm = make_llm(timeout_s=0.3)
    reply = llm.complete_json(system="s", user="u", validate=_is_answer)
    assert not reply.ok
    assert reply.status == "timeout"
    assert reply.latency_ms < 4000  # gave up long before the reply (0.3 s, one retry)


def test_connection_refused_is_an_error_status() -> None:
    with FakeAnthropic() as fake:
        url = fake.url
    config = LLMConfig(api_key=FAKE_KEY, base_url=url, timeout_s=1, model="claude-haiku-4-5")
    llm = LLMClient.from_settings(config)
    assert llm is not None
    reply = llm.complete_text(system="s", user="u")
    assert reply.status == "error: APIConnectionError"


def test_personal_data_is_redacted_before_sending(
    fake_anthropic: FakeAnthropic, make_llm: MakeLLM
) -> None:
    make_llm().complete_text(
        system="s",
        user="I am jane.doe@corp.example, phone 13812345678, my password: Hunter2!, "
        "ticket 2025060300011279027",
    )
    raw = fake_anthropic.requests[0].raw
    for secret in ("jane.doe@corp.example", "13812345678", "Hunter2!"):
        assert secret not in raw
    assert "[EMAIL]" in raw and "[PHONE]" in raw and "[SECRET]" in raw
    assert "2025060300011279027" in raw


def test_the_key_is_never_logged(
    fake_anthropic: FakeAnthropic, make_llm: MakeLLM, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    fake_anthropic.default = FakeReply.status(500)
    llm = make_llm()
    llm.complete_text(system="s", user="u", purpose="t")
    assert "t failed: error: InternalServerError" in caplog.text
    assert FAKE_KEY not in caplog.text
    assert FAKE_KEY not in repr(llm.__dict__)


def test_call_counter_is_thread_safe(fake_anthropic: FakeAnthropic, make_llm: MakeLLM) -> None:
    llm = make_llm()

    def work() -> None:
        for _ in range(5):
            llm.complete_text(system="s", user="u")

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert llm.calls == 20
    assert len(fake_anthropic.requests) == 20


def test_a_call_count_holds_only_the_calls_made_in_its_block(
    fake_anthropic: FakeAnthropic, make_llm: MakeLLM
) -> None:
    llm = make_llm()
    llm.complete_text(system="s", user="before any count")
    counts: dict[str, int] = {}

    def work(name: str, n: int, both_counting: threading.Barrier) -> None:
        with count_llm_calls() as count:
            both_counting.wait(timeout=10)
            for _ in range(n):
                llm.complete_text(system="s", user=name)
            both_counting.wait(timeout=10)
            counts[name] = count.value

    barrier = threading.Barrier(2)
    threads = [threading.Thread(target=work, args=(f"t{n}", n, barrier)) for n in (2, 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counts == {"t2": 2, "t3": 3}
    assert llm.calls == 6

    with count_llm_calls() as outer:
        llm.complete_text(system="s", user="outer")
        with count_llm_calls() as inner:
            llm.complete_text(system="s", user="inner")
        # Work handed to another thread joins the count explicitly (threads start empty).
        helper = threading.Thread(target=_call_into, args=(llm, outer))
        helper.start()
        helper.join()
    assert (outer.value, inner.value) == (3, 1)


def _call_into(llm: LLMClient, count: LLMCallCount) -> None:
    llm.complete_text(system="s", user="not counted: no count open on this thread")
    with count_llm_calls(into=count):
        llm.complete_text(system="s", user="counted")


def test_extract_json_object_skips_noise() -> None:
    assert extract_json_object('x {bad} then {"a": {"b": 1}} and {"c": 2}') == {"a": {"b": 1}}
    assert extract_json_object("no json") is None
    assert extract_json_object(json.dumps([{"a": 1}])) == {"a": 1}


def test_the_timeout_is_one_deadline_for_the_whole_call(
    fake_anthropic: FakeAnthropic, make_llm: MakeLLM
) -> None:
    # A stalling server: before, the SDK's retry gave the second attempt a full timeout again
    # (8 s became ~16 s); now the retry only happens while the call's deadline has time left.
    fake_anthropic.default = FakeReply.slow(30.0)
    llm = make_llm(timeout_s=2.0)
    reply = llm.complete_text(system="s", user="u", purpose="t")
    assert reply.status == "timeout"
    assert len(fake_anthropic.requests) == 1  # no second attempt past the deadline
    assert reply.latency_ms < 1.5 * 2000


def test_a_retry_fits_in_what_is_left_of_the_deadline(
    fake_anthropic: FakeAnthropic, make_llm: MakeLLM
) -> None:
    fake_anthropic.push(FakeReply.status(500), FakeReply.slow(30.0))
    reply = make_llm(timeout_s=2.0).complete_text(system="s", user="u")
    assert reply.status == "timeout"
    assert len(fake_anthropic.requests) == 2
    assert reply.latency_ms < 1.5 * 2000
