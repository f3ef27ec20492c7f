"""Dialogs (opened through the dialog service, never with a blocking exec())."""
