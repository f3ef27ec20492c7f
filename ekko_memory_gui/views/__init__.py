"""Widgets: the main window and its panes."""
