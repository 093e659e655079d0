"""Typed modal dialogs (`ModalScreen[T]`, `dismiss(value)`)."""
