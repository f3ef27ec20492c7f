"""The one place PySide6 is imported from."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

__all__ = ["QApplication", "QLabel", "QMainWindow", "Qt"]
