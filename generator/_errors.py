"""Problems found in the rule sources, reported as ``path:line:col: message``."""

from __future__ import annotations

__all__ = ["RuleSourceError", "SourceProblems"]


class RuleSourceError(ValueError):
    """One problem in a rule source, with the place a rule author must look."""

    def __init__(self, path: str, line: int, col: int, message: str) -> None:
        super().__init__(f"{path}:{line}:{col}: {message}")
        self.path = path
        self.line = line
        self.col = col
        self.message = message

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.col, self.message)


class SourceProblems(ValueError):
    """Every problem found in one run; the generator fails with all of them at once."""

    def __init__(self, problems: list[RuleSourceError]) -> None:
        self.problems = sorted(problems, key=RuleSourceError.sort_key)
        super().__init__("\n".join(str(problem) for problem in self.problems))
