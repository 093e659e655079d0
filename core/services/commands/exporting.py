"""The Export dialog's export: files written (an Anki package, a Markdown folder, a CSV, the
library's JSON), the library only read. A command all the same, as every change the reader asks
for is (issue 31): one way to run it, named by `what` in a worker, its failure reported once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from core.domain.export import ExportFilter, ExportResult
from core.services.commands import Command

if TYPE_CHECKING:
    from core.services.bootstrap import Services
    from core.services.export.runner import Progress


@dataclass(frozen=True, slots=True)
class Export(Command["ExportResult | str"]):
    """`filter`'s confirmed units exported as `fmt` to `target` (`progress(done, total)` from the
    worker's thread); none to export: nothing written, and why."""

    fmt: str
    target: Path
    filter: ExportFilter
    progress: Progress | None = None
    what: ClassVar[str] = "export"
    long: ClassVar[bool] = True

    def handle(self, services: Services) -> ExportResult | str:
        from core.services.export.runner import export_if_any

        return export_if_any(services, self.fmt, self.target, self.filter, progress=self.progress)
