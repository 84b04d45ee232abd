"""``scan``'s linter options: configuration, suppression reports, baseline, ``--diff``, cache.

The behaviour lives in ``writing_rules.lint``; this module turns the options
into calls and the outcomes into messages and exit statuses.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
from collections.abc import Iterable, Sequence
from typing import TextIO

from ..lint import (
    CACHE_DIR_ENV,
    LEVELS,
    ConfigError,
    ConfigResolver,
    FileSettings,
)
from ._scan import STDIN, FileScan, ScanOptions, collect_paths, wire_data
from ._status import UsageError

# The baseline and --diff (git through subprocess) load only when their options are given:
# a one-page scan in a pre-commit hook needs neither.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .._catalog import Catalog
    from ..lint import Baseline, ChangedLines, LintConfig
    from ..packs import Pack

__all__ = ["PACK_HELP", "LintRun", "add_lint_arguments", "add_pack_arguments", "prepare_lint", "working_folder_packs"]

PACK_HELP = (
    "also use this rule pack: a folder (relative to the working folder) or an installed pack's name "
    "(repeatable; added to the configuration's packs)"
)


def add_pack_arguments(parser: argparse.ArgumentParser) -> None:
    """``--pack``, ``--config`` and ``--no-config`` for a command that lists or uses rules (``rules``)."""
    parser.add_argument("--pack", action="append", metavar="PACK", help=PACK_HELP)
    parser.add_argument(
        "--config", metavar="FILE", help="use this configuration's packs (default: the working folder's configuration)"
    )
    parser.add_argument("--no-config", action="store_true", help="ignore .writing-rules.toml and pyproject.toml")


def working_folder_packs(args: argparse.Namespace) -> tuple[Pack, ...]:
    """The packs in force in the working folder: its configuration's (``--config``, ``--no-config``), then
    ``--pack``'s."""
    if args.config is not None and args.no_config:
        raise UsageError("give --config FILE or --no-config, not both")
    config = ConfigResolver(args.config, disabled=args.no_config).config_for(".")  # ConfigError: exit 2
    packs = config.settings.packs if config is not None else ()
    return command_line_packs(args.pack, packs) if args.pack else packs


def command_line_packs(references: Sequence[str], configured: Iterable[Pack] | None = None) -> tuple[Pack, ...]:
    """``--pack``'s packs, loaded from the working folder (after ``configured``, checked with them when
    given); a pack that cannot be loaded or clashes is a ``UsageError`` (exit 2) naming ``--pack``."""
    from ..lint import combine_packs, load_pack_references
    from ..packs import PackError

    try:
        loaded = load_pack_references(references, os.getcwd())
        return loaded if configured is None else combine_packs(configured, loaded)
    except PackError as error:
        raise UsageError(f"--pack: {error}") from None


def add_lint_arguments(scan: argparse.ArgumentParser) -> None:
    """The linter's options on the ``scan`` parser."""
    group = scan.add_argument_group("configuration, suppression, baseline, changed lines, cache")
    group.add_argument("--config", metavar="FILE", help="use this configuration file for every file")
    group.add_argument("--no-config", action="store_true", help="ignore .writing-rules.toml and pyproject.toml")
    group.add_argument("--pack", action="append", metavar="PACK", help=PACK_HELP)
    group.add_argument(
        "--min-level",
        choices=LEVELS,
        help="report only signals at this level or above (error > warning > suggestion; default: warning)",
    )
    group.add_argument(
        "--stdin-filename",
        metavar="NAME",
        help="name standard input (-) so configuration and markup are chosen as for that file",
    )
    group.add_argument(
        "--report-unused-suppressions",
        action="store_true",
        help="report writing-rules directives that silenced nothing (they count as findings)",
    )
    group.add_argument("--baseline", metavar="FILE", help="report only signals not recorded in this baseline")
    group.add_argument("--write-baseline", metavar="FILE", help="record every current signal in FILE and exit 0")
    group.add_argument("--diff", metavar="REF", help="report only signals on lines changed since the git revision REF")
    group.add_argument(
        "--cache-dir",
        metavar="DIR",
        help=f"where to keep cached results (default: ${CACHE_DIR_ENV}, else the user's cache folder, "
        "such as ~/.cache/writing-rules; never inside the checkout unless you say so)",
    )
    group.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")


class LintRun:
    """One scan's linter state: how to find settings, and what to filter afterwards."""

    # A plain class, not a dataclass: nothing compares or copies it, and building a dataclass
    # costs about 0.3 ms of every start.
    def __init__(
        self,
        resolver: ConfigResolver,
        args: argparse.Namespace,
        cache_dir: str | None,
        packs: tuple[Pack, ...] = (),
    ) -> None:
        self.resolver = resolver
        self.args = args
        self.cache_dir = cache_dir
        self.packs = packs  # --pack's, added to each configuration's
        self._with_packs: dict[int, tuple[LintConfig | None, tuple[Pack, ...]]] = {}
        # Each set of packs files were scanned with (the reports name their rules), by ids and digests.
        self._pack_sets: dict[tuple[tuple[str, str], ...], tuple[Pack, ...]] = {}
        self.baseline: Baseline | None = None
        self.changed: ChangedLines | None = None
        self.skipped: list[str] = []
        self.notes: list[str] = []  # what the user may not expect: a far configuration, a folder wholly excluded
        self._configs_seen: set[str] = set()
        self.gone: list[str] = []  # named, but deleted since the --diff revision
        self.unchanged = 0  # files --diff found unchanged, so not scanned

    def settings_for(self, path: str) -> FileSettings:
        """The file's configuration, then the command line on top."""
        config = self.resolver.config_for(path)
        settings = config.settings_for(path) if config is not None else FileSettings()
        if self.packs:
            settings = settings._replace(packs=self._packs_with(config, settings.packs))
        key = tuple((pack.id, pack.identity) for pack in settings.packs)
        if key not in self._pack_sets:
            self._check_rules_named(settings, config)
            self._pack_sets[key] = settings.packs
        args = self.args
        return settings.overlay(
            language=args.language,
            profile=args.profile,
            rules=args.rule,
            min_level=args.min_level,
            markup=getattr(args, "markup", None),
        )

    def _check_rules_named(self, settings: FileSettings, config: LintConfig | None) -> None:
        """``--rule`` ids must be rules of every file's catalogue (a pack's rule where that pack is in force)."""
        if not self.args.rule:
            return
        from .._catalog import rule_source

        known = rule_source(settings.catalog).RULES
        unknown = [rule_id for rule_id in self.args.rule if rule_id not in known]
        if unknown:
            where = f"the configuration {config.path}" if config is not None and config.path else "no configuration"
            raise UsageError(
                f"--rule {unknown[0]}: no such rule for the files under {where} (a pack's rule needs its pack "
                "in the configuration's packs or --pack)"
            )

    def catalogs(self) -> list[Catalog]:
        """The catalogue of each set of packs a file was scanned with (for the reports' rule texts)."""
        sets = [packs for packs in self._pack_sets.values() if packs]
        if not sets:
            return []  # a run without packs never imports them
        from ..packs import catalog_for

        return [catalog_for(packs) for packs in sets]

    def folder_catalog(self, folder: str = ".") -> Catalog | None:
        """The catalogue in force for files in ``folder``: its configuration's packs and ``--pack``'s."""
        config = self.resolver.config_for(folder)
        packs = config.settings.packs if config is not None else ()
        if self.packs:
            packs = self._packs_with(config, packs)
        if not packs:
            return None
        from ..packs import catalog_for

        return catalog_for(packs)

    def _packs_with(self, config: LintConfig | None, configured: tuple[Pack, ...]) -> tuple[Pack, ...]:
        """The configuration's packs and ``--pack``'s, checked together once per configuration."""
        known = self._with_packs.get(id(config))
        if known is not None and known[0] is config:
            return known[1]
        from ..lint import combine_packs
        from ..packs import PackError

        try:
            combined = combine_packs(configured, self.packs)
        except PackError as error:
            where = f" (with the packs of {config.path})" if config is not None and config.path else ""
            raise UsageError(f"--pack: {error}{where}") from None
        self._with_packs[id(config)] = (config, combined)
        return combined

    def options_for(self, path: str) -> ScanOptions:
        """How ``scan`` lints ``path``: its settings, the cache, fingerprints for a baseline."""
        name = self.args.stdin_filename if path == STDIN else None
        return ScanOptions(
            settings=self.settings_for(name or path),
            cache_dir=self.cache_dir,
            fingerprints=self.baseline is not None or self.args.write_baseline is not None,
            stdin_name=name,
            max_file_size=self.args.max_file_size,
            include_code=self.args.include_code,
        )

    def collect(
        self, arguments: Sequence[str], globs: Sequence[str] | None, default_globs: Sequence[str]
    ) -> tuple[list[str], list[FileScan]]:
        """The files to scan: what the command line names, narrowed (never widened) by ``include`` / ``exclude``."""
        found: list[str] = []
        failed: list[FileScan] = []
        for argument in arguments:
            if argument == STDIN:
                name = self.args.stdin_filename
                config = self.resolver.config_for(name) if name else None
                if config is None or config.selects(name or ""):
                    found.append(STDIN)
                else:
                    self.skipped.append(name or STDIN)
                continue
            explicit = not os.path.isdir(argument)
            config_here = self.resolver.config_for(argument) if os.path.exists(argument) else None
            # A configuration's include decides which files of a folder are scanned (unless --glob does).
            walk_globs = globs or (
                ("*",) if config_here is not None and config_here.include is not None else default_globs
            )
            paths, missing = collect_paths([argument], walk_globs)
            for problem in missing:
                if self.changed is not None and self.changed.was_deleted(problem.path):
                    # Named by CI from the list of changed files: a deletion is no error.
                    self.gone.append(problem.path)
                else:
                    failed.append(problem)
            kept = len(found)
            excluded_by = None
            for path in paths:
                config = self.resolver.config_for(path)
                self._note_config(config)
                if config is None:
                    wanted = True
                elif explicit or globs:
                    wanted = config.selects(path)
                elif config.include is None:
                    wanted = config.selects(path) and any(
                        fnmatch.fnmatch(os.path.basename(path), glob) for glob in default_globs
                    )
                else:
                    wanted = config.selects(path)
                if wanted:
                    found.append(path)
                elif explicit:
                    self.skipped.append(path)
                elif config is not None:
                    excluded_by = config
            if not explicit and len(found) == kept and excluded_by is not None:
                # Not silence: a configuration that excludes a whole folder is easy to miss.
                self.notes.append(
                    f"{argument}: every file in it is excluded by the configuration {excluded_by.path}; nothing scanned"
                )
        return list(dict.fromkeys(found)), failed

    def changed_only(self, paths: list[str]) -> list[str]:
        """With ``--diff``, the files that changed since the revision (and standard input): an
        unchanged file has no changed line to report, so it is not read past its blob id.

        A path ``--diff`` cannot place (outside the repository) is kept: ``finish`` reports it.
        """
        if self.changed is None:
            return paths
        from ..lint import DiffError

        kept = []
        for path in paths:
            try:
                if path != STDIN and self.changed.lines_for(path) == frozenset():
                    self.unchanged += 1
                    continue
            except DiffError:
                pass
            kept.append(path)
        if self.unchanged:
            count = self.unchanged
            self.notes.append(f"{count} file{'s' * (count != 1)} unchanged since {self.args.diff}; not scanned")
        return kept

    def _note_config(self, config: LintConfig | None) -> None:
        """Say which configuration applies when it lies above the working folder (once per file)."""
        if config is None or config.path is None or config.path in self._configs_seen:
            return
        self._configs_seen.add(config.path)
        working = os.getcwd()
        if (
            self.args.config is None
            and working != config.root
            and working.startswith(config.root.rstrip(os.sep) + os.sep)
        ):
            self.notes.append(f"using the configuration {config.path} (above the working folder)")

    def finish(self, results: list[FileScan], stderr: TextIO) -> tuple[list[FileScan], bool, bool]:
        """Apply the baseline and ``--diff``, write a baseline when asked.

        Returns the results to report, whether directive mistakes were found
        (exit 2) and whether unused suppressions were reported (a finding).
        """
        args = self.args
        for note in self.notes:
            stderr.write(f"writing-rules: {note}\n")
        if not (args.quiet or args.write_baseline is not None):  # --quiet: no per-file lines
            for path in self.skipped:
                stderr.write(f"{path}: skipped (excluded by the configuration)\n")
        for path in self.gone:
            stderr.write(f"{path}: deleted since {args.diff}; not scanned\n")
        if args.write_baseline is not None:
            from ..lint import BaselineError, write_baseline

            files = [
                (result.path, result.lint.kept, result.lint.fingerprints or ())
                for result in results
                if result.lint is not None
            ]
            try:
                count = write_baseline(args.write_baseline, files)
            except BaselineError as error:
                raise UsageError(str(error)) from None
            stderr.write(f"wrote {count} signal{'s' * (count != 1)} to baseline {args.write_baseline}\n")
        finished = []
        directive_errors = unused_found = False
        for result in results:
            linted = result.lint
            if linted is None or result.data is None:
                finished.append(result)
                continue
            for problem in linted.problems:
                directive_errors = True
                stderr.write(f"{result.path}:{problem.line}:{problem.column}: error: {problem.message}\n")
            lines = None
            if self.changed is not None:
                from ..lint import DiffError

                try:
                    # The lines changed in the text that was scanned (standard input's, or the file's as
                    # the scan read it): ``changed_only`` read the file before, and it may have changed
                    # since, so those lines need not be the scanned text's.
                    if result.text is not None:
                        lines = self.changed.lines_for_text(result.path, result.text)
                    else:
                        lines = self.changed.lines_for(result.path)
                except DiffError as error:
                    raise UsageError(str(error)) from None
            # The engine's last steps: baseline, changed lines, --max-signals (writing_rules.lint).
            linted = linted.narrowed(baseline=self.baseline, changed_lines=lines, max_signals=args.max_signals)
            notes = []
            if linted.in_baseline:
                notes.append(f"{linted.in_baseline} in baseline")
            if linted.on_unchanged_lines:
                notes.append(f"{linted.on_unchanged_lines} on unchanged lines")
            if linted.suppressed:
                notes.append(f"{linted.suppressed} suppressed")
            unused = list(linted.unused) if args.report_unused_suppressions else []
            for line, column, message in unused:
                unused_found = True
                stderr.write(f"{result.path}:{line}:{column}: unused suppression: {message}\n")
            data = wire_data(linted)
            if args.report_unused_suppressions:
                # In the report too: they fail the run, so CI's report must show them.
                data["unusedSuppressions"] = [
                    {"line": line, "column": column, "message": message} for line, column, message in unused
                ]
            finished.append(result._replace(data=data, lint=linted, note=", ".join(notes)))
        return finished, directive_errors, unused_found


def prepare_lint(args: argparse.Namespace) -> LintRun:
    """Read the configuration, baseline and diff the options name; ``UsageError`` when one is unusable."""
    if args.stdin_filename is not None and STDIN not in args.paths:
        raise UsageError("--stdin-filename names standard input: give - as a PATH too")
    if args.diff is not None and STDIN in args.paths and args.stdin_filename is None:
        raise UsageError("--diff with standard input needs --stdin-filename NAME: the file it stands for")
    if args.baseline is not None and args.write_baseline is not None:
        raise UsageError("give --baseline or --write-baseline, not both")
    if args.config is not None and args.no_config:
        raise UsageError("give --config FILE or --no-config, not both")
    try:
        resolver = ConfigResolver(args.config, disabled=args.no_config)
    except ConfigError as error:
        raise UsageError(str(error)) from None
    cache_dir = None
    if not args.no_cache:
        from ..lint import user_cache_dir

        # Outside the checkout: a cache a repository could commit would decide what a fresh clone reports.
        cache_dir = args.cache_dir or user_cache_dir() or None
    packs: tuple[Pack, ...] = ()
    if args.pack:
        packs = command_line_packs(args.pack)  # once, before any file
    run = LintRun(resolver, args, cache_dir, packs)
    if args.baseline is not None:
        from ..lint import Baseline, BaselineError

        try:
            run.baseline = Baseline.load(args.baseline)
        except BaselineError as error:
            raise UsageError(str(error)) from None
    if args.diff is not None:
        from ..lint import DiffError, changed_lines

        try:
            run.changed = changed_lines(args.diff)
        except DiffError as error:
            raise UsageError(str(error)) from None
    return run
