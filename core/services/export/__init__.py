"""Getting a library out: Anki packages, Markdown notes, CSV, and the whole library as JSON.

One module per format; every file is written under a temporary name and renamed when complete
(files.py). Reads go through core.storage.export (records) and core.storage.dump (tables).
genanki is imported only by the Anki module, which only `export anki` loads.
"""
