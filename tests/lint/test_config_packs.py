"""The configuration's ``packs`` and ``scan --pack`` (docs/packs.md, "Loading a pack").

Packs load once, when the configuration is resolved; every problem is one line
naming the configuration file and line, the pack and the fix, and exit 2, with
nothing half-loaded.
"""

from __future__ import annotations

import os
import pickle
import shutil
from pathlib import Path

import pytest

from writing_rules.lint import ConfigError, ConfigResolver, FileSettings, load_config
from writing_rules.packs import MODULE_NAME

from .conftest import write

ROOT = Path(__file__).resolve().parents[2]
ACME = ROOT / "examples" / "packs" / "acme"
PAGE = "Please log in first, etc.\n\nThis is a powerful tool.\n"


def copy_acme(folder: Path, name: str = "styles/acme") -> Path:
    target = folder / name
    shutil.copytree(ACME, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def test_a_configured_pack_is_loaded_into_the_settings(repo: Path) -> None:
    copy_acme(repo)
    write(repo, ".writing-rules.toml", 'packs = ["./styles/acme"]\ndisable = ["acme/no-etc"]\n')
    config = load_config(".writing-rules.toml")
    assert [pack.id for pack in config.settings.packs] == ["acme"]
    assert config.settings.disable == ("acme/no-etc",)  # a pack's rule id is a valid rule id
    # Overrides inherit the packs and may name their rules.
    write(
        repo,
        ".writing-rules.toml",
        'packs = ["styles/acme"]\n\n[[overrides]]\npaths = ["legal/**"]\nrules = ["acme/terms"]\n',
    )
    config = load_config(".writing-rules.toml")
    legal = config.settings_for("legal/page.md")
    assert legal.rules == ("acme/terms",) and [pack.id for pack in legal.packs] == ["acme"]


def test_a_pack_folder_is_relative_to_the_configuration_file(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy_acme(repo, "docs/styles/acme")
    write(repo, "docs/.writing-rules.toml", 'packs = ["./styles/acme"]\n')
    (repo / "elsewhere").mkdir()
    monkeypatch.chdir(repo / "elsewhere")
    config = ConfigResolver().config_for("../docs/page.md")
    assert config is not None and [pack.id for pack in config.settings.packs] == ["acme"]


def test_packs_load_once_per_configuration_not_per_file(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import writing_rules.packs as packs

    copy_acme(repo)
    write(repo, ".writing-rules.toml", 'packs = ["./styles/acme"]\n')
    calls = []
    original = packs.load_pack
    monkeypatch.setattr(packs, "load_pack", lambda *a, **k: calls.append(a) or original(*a, **k))
    resolver = ConfigResolver()
    for name in ("a.md", "b.md", "docs/c.md", "docs/deep/d.md"):
        config = resolver.config_for(name)
        assert config is not None and config.settings_for(name).packs[0].id == "acme"
    assert len(calls) == 1


def test_settings_with_packs_travel_to_workers_as_references(repo: Path) -> None:
    copy_acme(repo)
    write(repo, ".writing-rules.toml", 'packs = ["./styles/acme"]\n')
    settings = load_config(".writing-rules.toml").settings
    payload = pickle.dumps(settings)
    assert len(payload) < 2_000  # the reference and the digest, not the pack's tables
    again = pickle.loads(payload)
    assert again == settings and again.packs[0] is settings.packs[0]  # loaded once per process
    assert pickle.loads(pickle.dumps(FileSettings())) == FileSettings()


def test_the_cache_key_changes_with_a_packs_digest(repo: Path) -> None:
    copy_acme(repo)
    write(repo, ".writing-rules.toml", 'packs = ["./styles/acme"]\n')
    settings = load_config(".writing-rules.toml").settings
    assert settings.key() != settings._replace(packs=()).key()
    rebuilt = settings._replace(packs=(settings.packs[0]._replace(digest="0" * 64),))
    assert rebuilt.key() != settings.key()
    assert FileSettings().key() == FileSettings(packs=()).key()


def test_scan_with_a_pack_on_the_command_line(repo: Path, scan) -> None:
    copy_acme(repo)
    write(repo, "page.md", PAGE)
    outcome = scan("page.md", "--pack", "styles/acme", "--format", "json")
    assert outcome.code == 1
    missing = scan("page.md", "--pack", "./styles/none")
    assert missing.code == 2
    assert missing.err.startswith("writing-rules scan: error: --pack: pack ./styles/none: no such pack folder")
    # The same pack in the configuration and on the command line counts once.
    write(repo, ".writing-rules.toml", 'packs = ["./styles/acme"]\n')
    assert scan("page.md", "--pack", "styles/acme").code == 1


def _error(repo: Path, scan, config: str) -> str:
    write(repo, ".writing-rules.toml", config)
    write(repo, "page.md", PAGE)
    outcome = scan("page.md")
    assert outcome.code == 2 and outcome.out == ""
    lines = outcome.err.splitlines()
    assert len(lines) == 1, outcome.err
    return lines[0].removeprefix("writing-rules scan: error: ")


def test_a_missing_pack_folder(repo: Path, scan) -> None:
    message = _error(repo, scan, 'language = "en"\npacks = [\n  "./styles/none",\n]\n')
    assert message.startswith(".writing-rules.toml:3: pack ./styles/none: no such pack folder")


def test_a_pack_that_is_not_built(repo: Path, scan) -> None:
    (copy_acme(repo) / MODULE_NAME).unlink()
    message = _error(repo, scan, 'packs = ["./styles/acme"]\n')
    assert message == (
        ".writing-rules.toml:1: pack ./styles/acme: the pack is not built (_pack_data.py is missing): "
        "run `writing-rules pack build ./styles/acme`"
    )


def test_a_stale_pack_names_the_command_from_the_working_folder(repo: Path, scan) -> None:
    acme = copy_acme(repo, "docs/styles/acme")
    terms = acme / "terms.yaml"
    terms.write_text(terms.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    later = (acme / MODULE_NAME).stat().st_mtime + 10
    os.utime(terms, (later, later))
    write(repo, "docs/.writing-rules.toml", 'packs = ["./styles/acme"]\n')
    write(repo, "docs/page.md", PAGE)
    outcome = scan("docs/page.md")
    assert outcome.code == 2
    assert outcome.err == (
        "writing-rules scan: error: docs/.writing-rules.toml:1: pack docs/styles/acme: _pack_data.py is older "
        "than the pack's sources: run `writing-rules pack build docs/styles/acme`\n"
    )


def test_a_digest_mismatch(repo: Path, scan) -> None:
    acme = copy_acme(repo)
    module = acme / MODULE_NAME
    module.write_text(module.read_text(encoding="utf-8").replace('"digest": "', '"digest": "0', 1), encoding="utf-8")
    later = max(path.stat().st_mtime for path in acme.rglob("*")) + 10
    os.utime(module, (later, later))
    message = _error(repo, scan, 'packs = ["./styles/acme"]\n')
    assert message.startswith(".writing-rules.toml:1: pack ./styles/acme: the digest in _pack_data.py does not match")
    assert message.endswith("run `writing-rules pack build ./styles/acme`")


def test_the_same_pack_twice(repo: Path, scan) -> None:
    copy_acme(repo)
    copy_acme(repo, "other/acme")
    message = _error(repo, scan, 'packs = ["./styles/acme", "./other/acme"]\n')
    assert message == (
        ".writing-rules.toml:1: pack ./other/acme: pack id 'acme' is loaded twice (also from ./styles/acme)"
    )


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (
            'packs = "./styles/acme"\n',
            ".writing-rules.toml:1: packs must be an array of packs: folders relative to "
            'this file or installed pack names, e.g. packs = ["./styles/acme"]',
        ),
        ("packs = [1]\n", ".writing-rules.toml:1: packs must be an array"),
        ('packs = [""]\n', ".writing-rules.toml:1: packs must be an array"),
        ("[packs]\nacme = 1\n", ".writing-rules.toml:1: packs must be an array"),
        (
            '[[overrides]]\npaths = ["*.md"]\npacks = ["./styles/acme"]\n',
            ".writing-rules.toml:3: packs applies to the whole configuration, not to some files: move it to "
            "the top level",
        ),
        (
            'disable = ["acme/no-etc"]\n',
            ".writing-rules.toml:1: unknown rule id 'acme/no-etc' in disable (a pack's rule: name its pack in "
            "packs = [...] at the top level first)",
        ),
        (
            'packs = ["./styles/acme"]\ndisable = ["acme/no-etcetera"]\n',
            ".writing-rules.toml:2: unknown rule id 'acme/no-etcetera' in disable (did you mean 'acme/no-etc'?)",
        ),
    ],
    ids=["string", "number", "empty", "table", "in-overrides", "pack-rule-without-pack", "misspelt-pack-rule"],
)
def test_packs_of_the_wrong_shape(repo: Path, scan, config: str, expected: str) -> None:
    copy_acme(repo)
    assert _error(repo, scan, config).startswith(expected)


def test_a_pack_error_is_a_config_error_for_library_callers(repo: Path) -> None:
    write(repo, "team.toml", 'packs = ["./nowhere"]\n')
    with pytest.raises(ConfigError) as caught:
        load_config("team.toml")
    assert (caught.value.path, caught.value.line) == ("team.toml", 1)
    assert isinstance(caught.value, ValueError)


@pytest.fixture(scope="module")
def vale_packs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two packs imported from one Vale style under two pack ids: both have the rule Tiny.Basic."""
    pytest.importorskip("jinja2", reason="building a pack needs the authoring dependencies")
    from generator._packs import build_pack
    from generator._vale import import_vale_style

    folder = tmp_path_factory.mktemp("vale")
    style = folder / "Tiny"
    style.mkdir()
    (style / "Basic.yml").write_text(
        'extends: existence\nmessage: "Avoid %s."\nlevel: warning\ntokens:\n  - basically\n', encoding="utf-8"
    )
    for name in ("tiny", "tiny-copy"):
        import_vale_style(style, folder / name)
        manifest = folder / name / "pack.yaml"
        manifest.write_text(manifest.read_text(encoding="utf-8").replace("id: tiny", f"id: {name}"), encoding="utf-8")
        build_pack(folder / name, timed=False)
    return folder


def test_a_rule_id_of_two_packs(repo: Path, scan, vale_packs: Path) -> None:
    for name in ("tiny", "tiny-copy"):
        shutil.copytree(vale_packs / name, repo / "styles" / name)
    message = _error(repo, scan, 'packs = ["./styles/tiny", "./styles/tiny-copy"]\n')
    assert message == (
        ".writing-rules.toml:1: pack ./styles/tiny-copy: rule id 'Tiny.Basic' is also a rule of pack "
        "./styles/tiny; rename one of them"
    )
    # The same clash between the configuration's pack and --pack's.
    write(repo, ".writing-rules.toml", 'packs = ["./styles/tiny"]\n')
    outcome = scan("page.md", "--pack", "styles/tiny-copy")
    assert outcome.code == 2
    assert outcome.err == (
        "writing-rules scan: error: --pack: pack styles/tiny-copy: rule id 'Tiny.Basic' is also a rule of pack "
        "./styles/tiny; rename one of them (with the packs of .writing-rules.toml)\n"
    )


def test_a_rule_id_of_a_built_in_rule(repo: Path) -> None:
    from writing_rules.lint import combine_packs
    from writing_rules.packs import PackError

    copy_acme(repo)
    write(repo, ".writing-rules.toml", 'packs = ["./styles/acme"]\n')
    acme = load_config(".writing-rules.toml").settings.packs[0]
    clash = acme._replace(id="clash", rules={"word-choice": acme.rules["acme/terms"]})
    with pytest.raises(PackError, match="rule id 'word-choice' is a built-in rule's; rename the rule in the pack"):
        combine_packs((acme,), (clash,))


def test_packs_in_a_pyproject_table(repo: Path, scan) -> None:
    copy_acme(repo)
    write(repo, "pyproject.toml", '[project]\nname = "docs"\n\n[tool.writing-rules]\npacks = ["./styles/acme"]\n')
    write(repo, "page.md", PAGE)
    assert "acme/terms" in scan("page.md").out
    write(repo, "pyproject.toml", '[project]\nname = "docs"\n\n[tool.writing-rules]\npacks = ["./styles/gone"]\n')
    outcome = scan("page.md")
    assert outcome.code == 2
    assert outcome.err.startswith(
        "writing-rules scan: error: pyproject.toml:5: pack ./styles/gone: no such pack folder"
    )


def test_a_pack_rule_named_like_a_built_in_rule_stops_the_scan_at_its_line(
    repo: Path, scan, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A real pack cannot get there (the loader keeps a pack's ids in its namespace); a pack that
    # did would shadow a built-in rule, so the configuration refuses it like any other clash.
    import writing_rules.packs as packs

    copy_acme(repo)
    original = packs.load_pack

    def shadowing(*arguments: object, **options: object) -> object:
        pack = original(*arguments, **options)  # type: ignore[arg-type]
        return pack._replace(rules={"word-choice": pack.rules["acme/terms"]})

    monkeypatch.setattr(packs, "load_pack", shadowing)
    message = _error(repo, scan, 'language = "en"\npacks = ["./styles/acme"]\n')
    assert message == (
        ".writing-rules.toml:2: pack ./styles/acme: rule id 'word-choice' is a built-in rule's; "
        "rename the rule in the pack"
    )
