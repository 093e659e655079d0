"""What each key does, in a sentence: the command palette's help line and the Help screen's.

Keyed by the binding's id (every binding of ours has one; a test checks that each has a sentence
here, so the palette and Help cannot drift from BINDINGS). Textual's own bindings (focus next,
copy selected text, a table's cursor keys) have no id and are not offered in the palette.
"""

from __future__ import annotations

ABOUT: dict[str, str] = {
    "app.search": "Search every article, paragraph and memory unit",
    "app.help": "Show every key, by screen",
    "app.quit": "Quit MemoryRush (everything is already saved)",
    "app.palette": "Every action of this screen, and any article by its title",
    "screen.back": "Go back to the previous screen",
    "help.close": "Close the key list",
    "home.review": "Start today's review session",
    "home.triage": "Confirm or reject the proposed memory units",
    "home.import": "Import articles from files or folders",
    "home.library": "Every article in the library",
    "home.stats": "Charts of reviews, forecast, retention and curation",
    "home.settings": "Retention, daily limits, extractor and theme",
    "import.run": "Import the file or folder in the path field",
    "import.cancel": "Stop the import after the current file",
    "import.tree": "Move between the path field and the folder tree",
    "import.parent": "Show the folder above this one in the tree",
    "import.hidden": "Show or hide hidden files and folders (.git, .venv, ...)",
    "library.open": "Open the selected article beside its memory units",
    "library.triage": "Triage the proposals of the selected article",
    "library.import": "Import articles from files or folders",
    "library.export": "Export the selected article or the whole library (Anki, Markdown, CSV, JSON)",
    "library.backup": "Copy the library to the backup folder now",
    "article.next_unit": "Select the next memory unit and show its evidence",
    "article.prev_unit": "Select the previous memory unit and show its evidence",
    "article.next_span": "Jump to the next evidence quote",
    "article.prev_span": "Jump to the previous evidence quote",
    "article.filter_status": "Show units of one status (proposed, confirmed, ...) in turn",
    "article.filter_type": "Show units of one type (concept, claim, ...) in turn",
    "article.triage": "Triage this article's proposals",
    "article.focus": "Move between the article text and the unit list",
    "para.up": "Previous paragraph",
    "para.down": "Next paragraph",
    "para.pageup": "A page up",
    "para.pagedown": "A page down",
    "para.home": "First paragraph",
    "para.end": "Last paragraph",
    "para.word_left": "The cursor to the previous word",
    "para.word_right": "The cursor to the next word",
    "para.select": "Start a selection at the cursor word (again: end it)",
    "para.grow_word": "Grow the selection by a word",
    "para.shrink_word": "Shrink the selection by a word",
    "para.grow_sentence": "Grow the selection to whole sentences, then by a sentence",
    "para.shrink_sentence": "Shrink the selection by a sentence",
    "para.grow_paragraph": "Grow the selection to whole paragraphs, then by a paragraph",
    "para.shrink_paragraph": "Shrink the selection by its last paragraph",
    "para.cloze": "Make a cloze of yours: the selection is the blank, its sentence the card",
    "para.unit": "Make a unit of yours from the selected text (a form with the card writer's questions)",
    "para.clear": "End the selection",
    "article.ideas": "Show the article's summary and core ideas with their quotes, and back to its units",
    "article.idea_unit": "Make a unit of yours of the highlighted core idea",
    "article.undo": "Undo the last step in this article (a card you made goes to the trash)",
    "triage.accept": "Accept this unit: its questions become review cards",
    "triage.reject": "Reject this unit (u undoes it)",
    "triage.edit": "Edit this unit's content, type, tags and questions",
    "triage.skip": "Leave this unit for later",
    "triage.undo": "Undo the last accept, reject or edit",
    "triage.accept_all": "Accept every valid proposal of this article",
    "triage.low": "Every proposal least confident first (those below the floor lead), and back",
    "triage.changed": "The units whose source changed, to keep or retire, and back",
    "triage.keep": "Keep this source-changed unit as it is: its old quote stays as history",
    "triage.retire": "Retire this source-changed unit to the trash: its cards leave review",
    "triage.open": "Open this unit's article at its evidence",
    "triage.next_blank": "Give the cloze the card writer's next blank for this sentence",
    "triage.split": "Split this unit in two at the sentence or clause break nearest its middle",
    "triage.evidence": "Make the selection in the article this unit's evidence",
    "triage.keep_anyway": "Keep a unit whose words contradict its quote, with your reason",
    "edit.save": "Save the edit (shows problems first)",
    "edit.cancel": "Close without saving",
    "edit.add_question": "Add a question to the unit",
    "edit.remove_question": "Delete the question being edited (the last one otherwise)",
    "edit.next_type": "The unit's next memory type",
    "reason.cancel": "Close without keeping the unit",
    "review.reveal": "Show the answer and its evidence",
    "review.again": "Forgot it: see it again soon",
    "review.hard": "Recalled with difficulty",
    "review.good": "Recalled it",
    "review.easy": "Recalled it at once: a longer interval",
    "review.undo": "Undo the last answer, suspend or bury",
    "review.edit": "Edit this card's unit",
    "review.suspend": "Take this card out of reviews (u undoes it)",
    "review.bury": "Put this card off until tomorrow",
    "review.pin": "Pin this unit: reviewed at a higher retention",
    "review.open": "Open the article at this card's evidence",
    "review.select": "Select in the evidence (after the reveal): c / n make a card of yours",
    "stats.reload": "Read the statistics again",
    "settings.save": "Check and save the settings",
    "settings.backup": "Copy the library to the backup folder now",
    "export.run": "Write the export (in the background, with progress)",
    "export.close": "Close the export dialog",
    "search.close": "Close the search",
    "search.results": "Move from the search field to the results",
    "search.input": "Back to the search field (up from the first result)",
}

# Moving around inside a widget is not a command one looks up in the palette.
NOT_IN_PALETTE = frozenset(
    {"para.up", "para.down", "para.pageup", "para.pagedown", "para.home", "para.end"}
    | {"article.focus", "search.results", "search.input", "import.tree"}
)

KEY_NAMES = {
    "slash": "/",
    "question_mark": "?",
    "comma": ",",
    "space": "space",
    "right_square_bracket": "]",
    "left_square_bracket": "[",
}


def pretty_key(key: str) -> str:
    """A binding's keys as a reader types them: "question_mark" -> "?", "up,k" -> "up,k"."""
    return ",".join(KEY_NAMES.get(k, k) for k in key.split(","))
