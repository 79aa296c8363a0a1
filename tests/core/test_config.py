"""Configuration: file, environment overrides, validation messages, secrets never printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli import main
from core.config import ConfigError, load_settings


def test_defaults_live_under_brain_home(isolated_env: Path) -> None:
    settings = load_settings()
    assert settings.home == isolated_env
    assert settings.routing.fast_threshold == 0.8
    assert settings.routing.verify_threshold == 0.4
    weights = (
        settings.routing.weight_keyword,
        settings.routing.weight_semantic,
        settings.routing.weight_knowledge,
        settings.routing.weight_session,
        settings.routing.weight_memory,
    )
    assert weights == (0.30, 0.30, 0.20, 0.10, 0.10)
    assert settings.path("qdrant") == isolated_env / "qdrant"
    assert settings.training.tune_encoder is False  # opt-in: minutes per fit, see README


def test_file_in_home_is_read_and_env_wins(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    isolated_env.mkdir(parents=True)
    (isolated_env / "brain.toml").write_text(
        '[slack]\noncall_channel = "C-FROM-FILE"\nbrain_channels = ["C1"]\n'
        "[llm]\ntimeout_s = 3.5\n",
        encoding="utf-8",
    )
    assert load_settings().slack.oncall_channel == "C-FROM-FILE"
    assert load_settings().llm.timeout_s == 3.5
    monkeypatch.setenv("BRAIN_ONCALL_CHANNEL", "C-FROM-ENV")
    monkeypatch.setenv("BRAIN_CHANNELS", "C7, C8")
    settings = load_settings()
    assert settings.slack.oncall_channel == "C-FROM-ENV"
    assert settings.slack.brain_channels == ["C7", "C8"]


def test_brain_config_points_to_another_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "elsewhere.toml"
    config.write_text("[routing]\nmax_parallel = 5\n", encoding="utf-8")
    monkeypatch.setenv("BRAIN_CONFIG", str(config))
    assert load_settings().routing.max_parallel == 5


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("[routing]\nfast_threshold = 1.7\n", "routing.fast_threshold"),
        ("[routing]\nweight_keyword = 0.9\n", "must sum to 1.0"),
        ("[routing.weights]\nchannel = 0.1\n", "must sum to 1.0"),
        ("[routing]\nweight_memory = 0.1\n[routing.weights]\nmemory = 0.1\n", "set twice"),
        ("[routing.weights]\nBad-Name = 0.0\n", "lower_snake"),
        ("[routing]\nfast_threshold = 0.3\n", "verify_threshold must not exceed"),
        ("[knowledge]\nembedder = 'bert'\n", "embedder must be"),
        ("[nonsense]\nx = 1\n", "nonsense"),
        ("this is = = not toml", "cannot read configuration"),
    ],
)
def test_invalid_configuration_says_what_to_fix(
    isolated_env: Path, content: str, expected: str
) -> None:
    isolated_env.mkdir(parents=True)
    (isolated_env / "brain.toml").write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=expected.replace(".", r"\.")):
        load_settings()


def test_missing_brain_config_file_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BRAIN_CONFIG", "/nonexistent/brain.toml")
    with pytest.raises(ConfigError, match="not a readable file"):
        load_settings()


def test_cli_reports_config_errors_without_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BRAIN_CONFIG", "/nonexistent/brain.toml")
    code = main(["controllers"])
    err = capsys.readouterr().err
    assert code == 2
    assert "BRAIN_CONFIG" in err
    assert "Traceback" not in err


def test_secrets_are_never_rendered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-very-secret")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-very-secret")
    settings = load_settings()
    rendered = repr(settings) + str(settings) + settings.model_dump_json()
    assert "very-secret" not in rendered
    assert settings.slack.bot_token is not None
    assert settings.slack.bot_token.get_secret_value() == "xoxb-very-secret"


def test_encoder_tuning_is_switched_by_file_or_environment(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    isolated_env.mkdir(parents=True)
    (isolated_env / "brain.toml").write_text("[training]\ntune_encoder = true\n", encoding="utf-8")
    assert load_settings().training.tune_encoder is True
    monkeypatch.setenv("BRAIN_TUNE_ENCODER", "0")
    assert load_settings().training.tune_encoder is False


def test_signal_weights_by_name_from_the_file_and_the_environment(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    isolated_env.mkdir(parents=True)
    (isolated_env / "brain.toml").write_text(
        "[routing]\nweight_keyword = 0.25\n[routing.weights]\nchannel = 0.05\n", encoding="utf-8"
    )
    weights = load_settings().routing.signal_weights()
    assert weights == {
        "keyword": 0.25,
        "semantic": 0.30,
        "knowledge": 0.20,
        "session": 0.10,
        "memory": 0.10,
        "channel": 0.05,
    }
    # The environment's table replaces the file's; a built-in may be weighted there too.
    monkeypatch.setenv("BRAIN_SIGNAL_WEIGHTS", "channel=0.0, memory=0.15")
    weights = load_settings().routing.signal_weights()
    assert (weights["keyword"], weights["memory"], weights["channel"]) == (0.25, 0.15, 0.0)
