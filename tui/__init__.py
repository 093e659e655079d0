"""The face of MemoryRush: the Textual app and the command line. Calls services only."""
